// Migrations under a lock that holds across the nodes of a cluster. Kysely's own lock is GET_LOCK, which is
// local to one MariaDB server: two processes starting on two Galera nodes both migrated and one died. A lease
// row in the metadata schema replicates like any row, so exactly one process holds it; the others wait.
import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { isSerializationFailure } from "./serialization-retry";

/** A holder that died mid-migration frees the lease after this long. */
const LEASE_MS = 120_000;
const WAIT_STEP_MS = 200;
const GIVE_UP_MS = 300_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes the named lease when it is free or expired; true when this holder has it. */
const tryTake = async (db: Kysely<any>, name: string, holder: string): Promise<boolean> => {
  const now = Date.now();
  try {
    // The assignments run left to right: `expires_at` is only renewed once `holder` is ours.
    await sql`INSERT INTO tabula_leases (name, holder, expires_at) VALUES (${name}, ${holder}, ${now + LEASE_MS})
      ON DUPLICATE KEY UPDATE holder = IF(expires_at < ${now}, VALUES(holder), holder),
      expires_at = IF(holder = VALUES(holder), VALUES(expires_at), expires_at)`.execute(db);
  } catch (err) {
    if (isSerializationFailure(err)) return false; // another node took it in the same instant
    throw err;
  }
  const row = await sql<{ holder: string }>`SELECT holder FROM tabula_leases WHERE name = ${name}`.execute(db);
  return row.rows[0]?.holder === holder;
};

/** Runs `run` while holding the lease `name` (MySQL metadata schema), waiting for another holder to finish. */
export const withLease = async <T>(db: Kysely<any>, name: string, run: () => Promise<T>): Promise<T> => {
  await sql`CREATE TABLE IF NOT EXISTS tabula_leases (name varchar(64) PRIMARY KEY, holder varchar(64) NOT NULL, expires_at bigint NOT NULL) ENGINE=InnoDB`.execute(db);
  const holder = randomUUID();
  const deadline = Date.now() + GIVE_UP_MS;
  while (!(await tryTake(db, name, holder))) {
    if (Date.now() > deadline) throw new Error(`the "${name}" lease stayed taken for ${GIVE_UP_MS / 1000} s`);
    await sleep(WAIT_STEP_MS);
  }
  try {
    return await run();
  } finally {
    await sql`DELETE FROM tabula_leases WHERE name = ${name} AND holder = ${holder}`.execute(db);
  }
};

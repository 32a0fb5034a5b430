// The storage quota: the bytes of files an account's databases' rows name, kept as a counter per database
// (file_usage) that the row writes attaching or removing files move, plus the reservations of uploads in flight.
// An upload reserves its bytes before it stores anything, under a lock on the account, so concurrent uploads can
// never together pass the plan's `storage_bytes`; the write that attaches it turns the reservation into counted
// bytes (one transaction on MariaDB, see file-usage-delta.ts), a refused one releases it. Reservations of a
// process that died expire; `recountStorage` sets a counter from the rows again (the sweeper and restores use it).
import { sql } from "kysely";
import type { App } from "../../app-type";
import { ApiError } from "../../errors";
import type { LoadedDatabase } from "../../meta/schema-cache";
import { loadDatabase } from "../../meta/load-schema";
import { readColumn } from "../../ddl/column-values";
import { effectivePlan } from "../../plans/effective-plan";
import { filesOf } from "../../schema/file-value";
import type { UserDb } from "../../db/engine";
import { fileColumnsOf } from "./file-scope";

/** How long a reservation holds when its process never releases it: the sweeper's grace period. */
export const RESERVATION_MS = 3_600_000;

/** Bytes the rows of one database name, as counted. */
export const databaseBytes = async (app: App, databaseId: number) => {
  const row = await app.engine.meta.selectFrom("file_usage").select("bytes").where("database_id", "=", databaseId).executeTakeFirst();
  return Number(row?.bytes ?? 0);
};

/** Bytes every database of the account holds, with the live reservations of uploads in flight. */
export const storageUsed = async (app: App, accountId: number, db = app.engine.meta) => {
  const counted = await db
    .selectFrom("file_usage")
    .innerJoin("databases", "databases.id", "file_usage.database_id")
    .where("databases.owner_id", "=", accountId)
    .select((eb) => eb.fn.sum<number | string>("file_usage.bytes").as("bytes"))
    .executeTakeFirst();
  const reserved = await db
    .selectFrom("file_reservations")
    .innerJoin("databases", "databases.id", "file_reservations.database_id")
    .where("databases.owner_id", "=", accountId)
    .where("file_reservations.expires_ms", ">", Date.now())
    .select((eb) => eb.fn.sum<number | string>("file_reservations.bytes").as("bytes"))
    .executeTakeFirst();
  return Number(counted?.bytes ?? 0) + Number(reserved?.bytes ?? 0);
};

const overQuota = (planName: string, limit: number, used: number) =>
  new ApiError("quota_exceeded", `Your ${planName} plan allows ${limit} bytes of files and this account holds ${used}; delete files or ask the operator of this install for a larger plan.`, {
    quota: { kind: "storage_bytes", limit, used, credits: 0 },
  });

/** 402 `quota_exceeded` unless `bytes` more fit under the plan's `limit` beside `used`. */
const assertRoom = (planName: string, limit: number, used: number, bytes: number) => {
  if (used + bytes > limit || used >= limit) throw overQuota(planName, limit, used);
};

/**
 * 402 `quota_exceeded` when `bytes` more would take the owner of `database` past its plan now: the check a resumable
 * upload's creation makes on its declared length. It reserves nothing; attaching the upload does.
 */
export const checkStorageRoom = async (app: App, database: LoadedDatabase, bytes: number) => {
  const plan = await effectivePlan(app.engine.meta, database.schema.ownerId);
  if (plan.storage_bytes !== null) assertRoom(plan.name, plan.storage_bytes, await storageUsed(app, database.schema.ownerId), bytes);
};

/**
 * Reserves `bytes` for an upload into `database`, or 402 `quota_exceeded` (kind `storage_bytes`) when they would
 * take the owner past its plan. Answers the reservation's id (undefined under an unlimited plan: nothing to hold).
 * The account's row is locked while usage is read and the reservation written, so reservations queue.
 */
export const reserveStorage = async (app: App, database: LoadedDatabase, bytes: number): Promise<number | undefined> => {
  const ownerId = database.schema.ownerId;
  const plan = await effectivePlan(app.engine.meta, ownerId);
  const limit = plan.storage_bytes;
  if (limit === null) return undefined;
  return app.engine.meta.transaction().execute(async (trx) => {
    if (app.engine.kind === "mysql") await sql`SELECT id FROM accounts WHERE id = ${ownerId} FOR UPDATE`.execute(trx);
    assertRoom(plan.name, limit, await storageUsed(app, ownerId, trx), bytes);
    const row = await trx
      .insertInto("file_reservations")
      .values({ database_id: database.schema.id, bytes, expires_ms: Date.now() + RESERVATION_MS })
      .executeTakeFirstOrThrow();
    return Number(row.insertId);
  });
};

/** Gives a reservation back (a refused write; a committed one already took it). */
export const releaseReservation = async (app: App, id: number | undefined) => {
  if (id !== undefined) await app.engine.meta.deleteFrom("file_reservations").where("id", "=", id).execute();
};

/** Bytes the rows of one database name now, read through `udb` (a transaction's handle, or the database's). */
const countRows = async (app: App, udb: UserDb, database: LoadedDatabase) => {
  let total = 0;
  for (const table of database.schema.tables.values()) {
    for (const column of fileColumnsOf(table)) {
      for (const row of await readColumn(udb, table.name, column.name)) for (const f of filesOf(row.raw)) total += f.size;
    }
  }
  return total;
};

const setUsage = (app: App, databaseId: number, bytes: number) =>
  app.engine.meta
    .insertInto("file_usage")
    .values({ database_id: databaseId, bytes })
    .$call((q) => (app.engine.kind === "mysql" ? q.onDuplicateKeyUpdate({ bytes }) : q.onConflict((c) => c.column("database_id").doUpdateSet({ bytes }))))
    .execute();

/**
 * Sets one database's counter from what its rows name (repair: after a restore or clone, a dropped column or
 * table, or a process that died between a commit and its count). Writes that commit meanwhile stay counted: on
 * MariaDB the counter row is locked before the rows are read (a write moves it after its own rows); on SQLite the
 * rows are read holding the database's write lock, and the counter is set before any later write's move.
 */
export const recountStorage = async (app: App, instance: string): Promise<number> => {
  const database = await loadDatabase(app, instance);
  if (!database) return 0;
  const id = database.schema.id;
  const udb = app.engine.userDb(database.schema.physical);
  if (app.engine.kind === "mysql") {
    return app.engine.meta.transaction().execute(async (trx) => {
      await sql`INSERT IGNORE INTO file_usage (database_id, bytes) VALUES (${id}, 0)`.execute(trx);
      await sql`SELECT bytes FROM file_usage WHERE database_id = ${id} FOR UPDATE`.execute(trx);
      const bytes = await countRows(app, udb, database);
      await trx.updateTable("file_usage").set({ bytes }).where("database_id", "=", id).execute();
      return bytes;
    });
  }
  let queued: Promise<unknown> = Promise.resolve();
  const bytes = await udb.groupCommit!(async (tx) => {
    const counted = await countRows(app, tx, database);
    queued = setUsage(app, id, counted);
    return counted;
  });
  await queued;
  return bytes;
};

// MySQL's event ids, given after commit. A write only inserts its events into the queue (no shared row, so
// concurrent writes commit, and fsync, together); the sequencer then moves committed queue rows into the
// outbox with the next ids, in one transaction that holds the sequence row. Rows of writes still in flight
// are skipped (SKIP LOCKED) and taken by a later run: an id is given only to a committed event, ids are
// consecutive, and a reader that has read up to id n never meets a new id at or below n.
import { sql } from "kysely";
import type { UserDb } from "../../db/engine";
import { joinNextRun } from "../../db/join-next-run";
import { EVENT_COLUMNS, EVENTS_TABLE, QUEUE_TABLE, SEQ_TABLE } from "./outbox-table";

const BATCH = 1000;

/**
 * One batch moved; the number of events given ids. READ COMMITTED: no gap locks that would stall writers' inserts.
 * The rows are copied inside the server (INSERT … SELECT), so big events never travel to this process and back.
 */
const sequenceBatch = (udb: UserDb): Promise<number> =>
  udb.db
    .transaction()
    .setIsolationLevel("read committed")
    .execute(async (trx) => {
      const seq = await sql<{ last_id: number }>`SELECT ${sql.id("last_id")} FROM ${udb.table(SEQ_TABLE)} WHERE ${sql.id("id")} = 1 FOR UPDATE`.execute(trx);
      const { rows } = await sql<{ qid: number }>`SELECT ${sql.id("qid")} FROM ${udb.table(QUEUE_TABLE)} ORDER BY ${sql.id("qid")} LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`.execute(trx);
      if (rows.length === 0) return 0;
      const last = Number(seq.rows[0].last_id);
      const qids = sql.join(rows.map((r) => Number(r.qid)));
      const columns = sql.join(EVENT_COLUMNS.map((c) => sql.id(c)));
      await sql`INSERT INTO ${udb.table(EVENTS_TABLE)} (${sql.id("id")}, ${columns})
        SELECT ${last} + ROW_NUMBER() OVER (ORDER BY ${sql.id("qid")}), ${columns} FROM ${udb.table(QUEUE_TABLE)} WHERE ${sql.id("qid")} IN (${qids})`.execute(trx);
      await sql`DELETE FROM ${udb.table(QUEUE_TABLE)} WHERE ${sql.id("qid")} IN (${qids})`.execute(trx);
      await sql`UPDATE ${udb.table(SEQ_TABLE)} SET ${sql.id("last_id")} = ${last + rows.length} WHERE ${sql.id("id")} = 1`.execute(trx);
      return rows.length;
    });

const drainQueue = async (udb: UserDb): Promise<void> => {
  for (;;) {
    const waiting = await sql`SELECT 1 FROM ${udb.table(QUEUE_TABLE)} LIMIT 1`.execute(udb.db);
    if (waiting.rows.length === 0 || (await sequenceBatch(udb)) < BATCH) return;
  }
};

/** Per connection pool (an app's, or a transaction's) and database: its queue's drain, shared by the callers that come together. */
const drains = new WeakMap<object, Map<string, () => Promise<void>>>();

/**
 * Gives ids to every event committed so far (MySQL; SQLite writes take their ids in the write). Readers call it
 * first. Concurrent callers in this process share runs: one that arrives while a run is in flight waits for the
 * single run queued after it (which sees every event committed before the caller asked), so the feed, the webhook
 * fan-out and the bounds reads do not queue on the sequence row one after another.
 */
export const sequenceEvents = (udb: UserDb): Promise<void> => {
  if (udb.engine !== "mysql") return Promise.resolve();
  const key = udb.physical!; // always set on MySQL handles (engine.ts)
  let byDatabase = drains.get(udb.db);
  if (!byDatabase) drains.set(udb.db, (byDatabase = new Map()));
  let drain = byDatabase.get(key);
  if (!drain) byDatabase.set(key, (drain = joinNextRun(() => drainQueue(udb))));
  return drain();
};

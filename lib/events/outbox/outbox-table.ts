// The outbox lives in each user database (MySQL schema or SQLite file), beside the rows, so an event is
// written in the row write's own transaction. Names start with `_`, which user tables cannot.
import { type RawBuilder, sql } from "kysely";
import type { Engine, UserDb } from "../../db/engine";

export const EVENTS_TABLE = "_tabula_events";
/** One row holding the last event id: SQLite writes take it in the write; MySQL's sequencer takes it after. */
export const SEQ_TABLE = "_tabula_event_seq";
/** MySQL: events of committed writes waiting for their ids (sequence-events.ts), so writers share no hot row. */
export const QUEUE_TABLE = "_tabula_event_queue";
/**
 * An event's columns besides its id, the same in the queue and the outbox. `tbl_id`: the table's id; `row_id`: the
 * changed row's id; `actor`: who wrote it, as JSON (record history, docs/history.md). All three are null in events
 * written before them.
 */
export const EVENT_COLUMNS = ["tbl", "action", "record", "old_record", "at", "tbl_id", "row_id", "actor"];
/** The sequence table's second row: the last id the feed's retention has passed (events kept longer for history stay below it). */
export const FEED_FLOOR_ROW = 2;
/** Record history reads a row's events by table and row, newest first. */
const ROW_INDEX = "_tabula_events_row";

// Per engine: physical names repeat across installs (db_1.sqlite), and tests run several in one process.
const ensuredBy = new WeakMap<Engine, Map<string, Promise<void>>>();

const hasColumn = async (udb: UserDb, table: string, column: string) => {
  const { rows } = udb.engine === "mysql"
    ? await sql`SELECT 1 FROM information_schema.columns WHERE table_schema = ${udb.physical} AND table_name = ${table} AND column_name = ${column}`.execute(udb.db)
    : await sql`SELECT 1 FROM pragma_table_info(${table}) WHERE name = ${column}`.execute(udb.db);
  return rows.length > 0;
};

/** Outboxes made before a column existed gain it (null in their old events). */
const addColumn = async (udb: UserDb, table: string, column: string, type: RawBuilder<unknown>) => {
  if (await hasColumn(udb, table, column)) return;
  // Another process may add it at the same moment: its error is fine once the column is there.
  await sql`ALTER TABLE ${udb.table(table)} ADD COLUMN ${sql.id(column)} ${type} NULL`.execute(udb.db).catch(async (err: unknown) => {
    if (!(await hasColumn(udb, table, column))) throw err;
  });
};

const hasRowIndex = async (udb: UserDb) => {
  const { rows } = udb.engine === "mysql"
    ? await sql`SELECT 1 FROM information_schema.statistics WHERE table_schema = ${udb.physical} AND table_name = ${EVENTS_TABLE} AND index_name = ${ROW_INDEX}`.execute(udb.db)
    : await sql`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ${ROW_INDEX}`.execute(udb.db);
  return rows.length > 0;
};

const addRowIndex = async (udb: UserDb) => {
  if (await hasRowIndex(udb)) return;
  const columns = sql.join(["tbl_id", "row_id", "id"].map((c) => sql.id(c)));
  await sql`CREATE INDEX ${sql.id(ROW_INDEX)} ON ${udb.table(EVENTS_TABLE)} (${columns})`.execute(udb.db).catch(async (err: unknown) => {
    if (!(await hasRowIndex(udb))) throw err;
  });
};

const createTables = async (udb: UserDb) => {
  const big = udb.engine === "mysql" ? sql`BIGINT` : sql`INTEGER`;
  const text = udb.engine === "mysql" ? sql`MEDIUMTEXT` : sql`TEXT`;
  await sql`CREATE TABLE IF NOT EXISTS ${udb.table(EVENTS_TABLE)} (
    ${sql.id("id")} ${big} NOT NULL PRIMARY KEY, ${sql.id("tbl")} VARCHAR(64) NOT NULL, ${sql.id("action")} VARCHAR(8) NOT NULL,
    ${sql.id("record")} ${text} NOT NULL, ${sql.id("old_record")} ${text} NULL, ${sql.id("at")} VARCHAR(32) NOT NULL, ${sql.id("tbl_id")} ${big} NULL)`.execute(udb.db);
  await sql`CREATE TABLE IF NOT EXISTS ${udb.table(SEQ_TABLE)} (${sql.id("id")} INTEGER NOT NULL PRIMARY KEY, ${sql.id("last_id")} ${big} NOT NULL)`.execute(udb.db);
  if (udb.engine === "mysql") {
    await sql`CREATE TABLE IF NOT EXISTS ${udb.table(QUEUE_TABLE)} (${sql.id("qid")} BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
      ${sql.id("tbl")} VARCHAR(64) NOT NULL, ${sql.id("action")} VARCHAR(8) NOT NULL, ${sql.id("record")} MEDIUMTEXT NOT NULL,
      ${sql.id("old_record")} MEDIUMTEXT NULL, ${sql.id("at")} VARCHAR(32) NOT NULL, ${sql.id("tbl_id")} BIGINT NULL)`.execute(udb.db);
  }
  for (const table of udb.engine === "mysql" ? [EVENTS_TABLE, QUEUE_TABLE] : [EVENTS_TABLE]) {
    await addColumn(udb, table, "tbl_id", big);
    await addColumn(udb, table, "row_id", big);
    await addColumn(udb, table, "actor", sql`VARCHAR(100)`);
  }
  await addRowIndex(udb);
  const ignore = udb.engine === "mysql" ? sql`INSERT IGNORE` : sql`INSERT OR IGNORE`;
  await sql`${ignore} INTO ${udb.table(SEQ_TABLE)} (${sql.id("id")}, ${sql.id("last_id")}) VALUES (1, 0), (${FEED_FLOOR_ROW}, 0)`.execute(udb.db);
};

/**
 * Creates the outbox of a database once per process (new databases, and those made before events existed).
 * Called where a schema is loaded, outside any write transaction: DDL would commit one on MySQL.
 */
export const ensureOutbox = (engine: Engine, physical: string): Promise<void> => {
  let ensured = ensuredBy.get(engine);
  if (!ensured) ensuredBy.set(engine, (ensured = new Map()));
  let done = ensured.get(physical);
  if (!done) {
    done = createTables(engine.userDb(physical)).catch((err) => {
      ensured!.delete(physical);
      throw err;
    });
    ensured.set(physical, done);
  }
  return done;
};


// Retention of change events. The feed and webhooks see EVENTS_RETENTION_HOURS of them; events of tables that keep
// record history stay HISTORY_DAYS for /{table}/{id}/_history (docs/history.md), below the feed's floor, so the
// feed's replay window is the same with or without history.
import { sql } from "kysely";
import type { App } from "../../app-type";
import type { UserDb } from "../../db/engine";
import { toStoredDatetime } from "../../schema/column-types";
import { logger } from "../../ops/logger";
import { eventsConfig } from "../events-config";
import { ensureOutbox, EVENTS_TABLE, FEED_FLOOR_ROW, SEQ_TABLE } from "./outbox-table";
import { sequenceEvents } from "./sequence-events";

const BATCH = 1000;

type Stamp = { id: number; at: string };

/** Ids after `after` older than `cutoff`, oldest first, at most a batch (times rise with ids: no index on `at` needed). */
const olderThan = async (udb: UserDb, after: number, cutoff: string): Promise<Stamp[]> => {
  const { rows } = await sql<Stamp>`SELECT ${sql.id("id")}, ${sql.id("at")} FROM ${udb.table(EVENTS_TABLE)}
    WHERE ${sql.id("id")} > ${after} ORDER BY ${sql.id("id")} LIMIT ${BATCH}`.execute(udb.db);
  const fresh = rows.findIndex((r) => r.at >= cutoff);
  return fresh === -1 ? rows : rows.slice(0, fresh);
};

const readFloor = async (udb: UserDb) => {
  const { rows } = await sql<{ last_id: number }>`SELECT ${sql.id("last_id")} FROM ${udb.table(SEQ_TABLE)} WHERE ${sql.id("id")} = ${FEED_FLOOR_ROW}`.execute(udb.db);
  return Number(rows[0]?.last_id ?? 0);
};

/** The tables of this database that keep record history, by id. */
const historyTables = async (app: App, physical: string): Promise<number[]> => {
  const rows = await app.engine.meta
    .selectFrom("tables")
    .innerJoin("databases", "databases.id", "tables.database_id")
    .select("tables.id")
    .where("databases.physical", "=", physical)
    .where("tables.history", "=", 1)
    .execute();
  return rows.map((r) => Number(r.id));
};

/**
 * Moves the feed's floor past events older than the feed's retention and deletes those of them no history keeps;
 * the floor moves first, so no reader meets a half-deleted range.
 */
const passFeedRetention = async (udb: UserDb, cutoff: string, kept: number[]) => {
  let floor = await readFloor(udb);
  for (;;) {
    const old = await olderThan(udb, floor, cutoff);
    if (old.length === 0) return;
    const last = Number(old[old.length - 1].id);
    await sql`UPDATE ${udb.table(SEQ_TABLE)} SET ${sql.id("last_id")} = ${last} WHERE ${sql.id("id")} = ${FEED_FLOOR_ROW} AND ${sql.id("last_id")} < ${last}`.execute(udb.db);
    const unkept = kept.length ? sql`(${sql.id("tbl_id")} IS NULL OR ${sql.id("tbl_id")} NOT IN (${sql.join(kept)}))` : sql`1 = 1`;
    await sql`DELETE FROM ${udb.table(EVENTS_TABLE)} WHERE ${sql.id("id")} > ${floor} AND ${sql.id("id")} <= ${last} AND ${unkept}`.execute(udb.db);
    floor = last;
    if (old.length < BATCH) return;
  }
};

/** Deletes every event older than `cutoff`, oldest first in batches. */
const deleteOlder = async (udb: UserDb, cutoff: string) => {
  for (;;) {
    const old = await olderThan(udb, 0, cutoff);
    if (old.length === 0) return;
    await sql`DELETE FROM ${udb.table(EVENTS_TABLE)} WHERE ${sql.id("id")} <= ${Number(old[old.length - 1].id)}`.execute(udb.db);
    if (old.length < BATCH) return;
  }
};

/**
 * Prunes one database: events past the feed's retention leave the feed (and, unless their table keeps history,
 * the outbox); events past HISTORY_DAYS leave the outbox. The sequence row keeps the next id.
 */
export const pruneDatabase = async (app: App, physical: string, now = Date.now()) => {
  const udb = app.engine.userDb(physical);
  await ensureOutbox(app.engine, physical);
  await sequenceEvents(udb); // events nobody has read yet leave the queue for the outbox, where retention applies
  const config = eventsConfig(app.config);
  await passFeedRetention(udb, toStoredDatetime(new Date(now - config.retentionMs)), await historyTables(app, physical));
  await deleteOlder(udb, toStoredDatetime(new Date(now - Math.max(config.retentionMs, config.historyMs))));
};

/** One pass over every database; a failing one is logged and the rest still pruned. */
export const pruneEvents = async (app: App, now = Date.now()) => {
  const rows = await app.engine.meta.selectFrom("databases").select("physical").execute();
  for (const { physical } of rows) {
    await pruneDatabase(app, physical, now).catch((err: unknown) => logger.warn({ err, physical }, "pruning change events failed"));
  }
};

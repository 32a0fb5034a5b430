import { sql } from "kysely";
import type { UserDb } from "../../db/engine";
import { fromStoredDatetime } from "./stored-time";
import { EVENTS_TABLE, FEED_FLOOR_ROW, SEQ_TABLE } from "./outbox-table";
import { sequenceEvents } from "./sequence-events";

/** A change event as the feed and webhooks send it (docs/events.md). */
export type ChangeEvent = {
  id: number;
  db: string;
  table: string;
  action: "insert" | "update" | "delete";
  record: Record<string, unknown>;
  old_record?: Record<string, unknown>;
  at: string;
};

type EventRow = { id: number; tbl: string; tbl_id: number | null; action: ChangeEvent["action"]; record: string; old_record: string | null; at: string };

const toChangeEvent = (instance: string, row: EventRow): ChangeEvent => ({
  id: Number(row.id),
  db: instance,
  table: row.tbl,
  action: row.action,
  record: JSON.parse(row.record),
  ...(row.old_record ? { old_record: JSON.parse(row.old_record) } : {}),
  at: fromStoredDatetime(row.at),
});

/** One outbox entry: every id is listed (gaps mean retention took events); `event` only for the tables asked. */
export type OutboxEntry = { id: number; table: string; tableId: number | null; event?: ChangeEvent };

/**
 * Whose events to read: tables by name (webhooks follow a name), or by identity (the feed: a table dropped and
 * made again under its name is another table). Events written before tables had ids are matched by name.
 */
export type EventTables = string[] | { id: number; name: string }[];

const wantedBy = (tables: EventTables) => {
  if (tables.length === 0) return sql`1 = 0`;
  if (typeof tables[0] === "string") return sql`${sql.id("tbl")} IN (${sql.join(tables as string[])})`;
  const refs = tables as { id: number; name: string }[];
  return sql`(${sql.id("tbl_id")} IN (${sql.join(refs.map((t) => t.id))}) OR (${sql.id("tbl_id")} IS NULL AND ${sql.id("tbl")} IN (${sql.join(refs.map((t) => t.name))})))`;
};

/**
 * Entries after `afterId` in id order, at most `limit`, with the event of those in `tables` (all when
 * undefined). Every id comes back so a reader can tell a gap (pruned events) from another table's events.
 */
export const readEvents = async (udb: UserDb, instance: string, afterId: number, limit: number, tables?: EventTables): Promise<OutboxEntry[]> => {
  await sequenceEvents(udb);
  const wanted = tables ? wantedBy(tables) : sql`1 = 1`;
  // Events kept past the feed's retention for record history stay out of the feed: a reader behind the floor meets a gap.
  const { rows } = await sql<EventRow>`SELECT ${sql.join(["id", "tbl", "tbl_id", "action", "at"].map((c) => sql.id(c)))},
    CASE WHEN ${wanted} THEN ${sql.id("record")} END AS ${sql.id("record")}, CASE WHEN ${wanted} THEN ${sql.id("old_record")} END AS ${sql.id("old_record")}
    FROM ${udb.table(EVENTS_TABLE)} WHERE ${sql.id("id")} > ${afterId} AND ${sql.id("id")} > ${feedFloor(udb)} ORDER BY ${sql.id("id")} LIMIT ${limit}`.execute(udb.db);
  return rows.map((r) => ({ id: Number(r.id), table: r.tbl, tableId: r.tbl_id === null ? null : Number(r.tbl_id), event: r.record === null ? undefined : toChangeEvent(instance, r) }));
};

/** The last id the feed's retention has passed (prune-events.ts); events at or below it are record history only. */
export const feedFloor = (udb: UserDb) =>
  sql`COALESCE((SELECT ${sql.id("last_id")} FROM ${udb.table(SEQ_TABLE)} WHERE ${sql.id("id")} = ${FEED_FLOOR_ROW}), 0)`;

/**
 * What the outbox holds for the feed: ids from `low` to `high` (`low` = high + 1 when empty). Ids have no gaps (the
 * sequence row is rolled back with its write), so a cursor below low - 1 has lost events to retention.
 */
export const outboxBounds = async (udb: UserDb): Promise<{ low: number; high: number }> => {
  await sequenceEvents(udb);
  const { rows } = await sql<{ low: number | null; high: number }>`SELECT
    (SELECT MIN(${sql.id("id")}) FROM ${udb.table(EVENTS_TABLE)} WHERE ${sql.id("id")} > ${feedFloor(udb)}) AS ${sql.id("low")},
    (SELECT ${sql.id("last_id")} FROM ${udb.table(SEQ_TABLE)} WHERE ${sql.id("id")} = 1) AS ${sql.id("high")}`.execute(udb.db);
  const high = Number(rows[0]?.high ?? 0);
  return { low: rows[0]?.low == null ? high + 1 : Number(rows[0].low), high };
};

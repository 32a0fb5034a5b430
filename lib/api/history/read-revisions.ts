// A record's revisions from the outbox: the change events of one row of one table (kept HISTORY_DAYS for tables
// with record history, docs/history.md), newest first. The event id is the revision's `rev`.
import { sql } from "kysely";
import type { UserDb } from "../../db/engine";
import { EVENTS_TABLE } from "../../events/outbox/outbox-table";
import type { Actor, ChangeAction } from "../../events/outbox/record-change";
import { sequenceEvents } from "../../events/outbox/sequence-events";
import { fromStoredDatetime } from "../../events/outbox/stored-time";

type Record_ = Record<string, unknown>;

/** One revision as stored: the row after the change (a delete: the row deleted) and the row before it. */
export type StoredRevision = { rev: number; action: ChangeAction; record: Record_; old?: Record_; at: string; actor: Actor | null };

type RevisionRow = { id: number; action: ChangeAction; record: string; old_record: string | null; at: string; actor: string | null };

const toRevision = (r: RevisionRow): StoredRevision => ({
  rev: Number(r.id),
  action: r.action,
  record: JSON.parse(r.record),
  ...(r.old_record ? { old: JSON.parse(r.old_record) } : {}),
  at: fromStoredDatetime(r.at),
  actor: r.actor ? JSON.parse(r.actor) : null,
});

const COLUMNS = ["id", "action", "record", "old_record", "at", "actor"];

/** Revisions of row `rowId` of table `tableId` below `before` (all when undefined), newest first, at most `limit`. */
export const readRevisions = async (udb: UserDb, tableId: number, rowId: number, limit: number, before?: number): Promise<StoredRevision[]> => {
  await sequenceEvents(udb);
  const below = before === undefined ? sql`` : sql`AND ${sql.id("id")} < ${before}`;
  const { rows } = await sql<RevisionRow>`SELECT ${sql.join(COLUMNS.map((c) => sql.id(c)))} FROM ${udb.table(EVENTS_TABLE)}
    WHERE ${sql.id("tbl_id")} = ${tableId} AND ${sql.id("row_id")} = ${rowId} ${below} ORDER BY ${sql.id("id")} DESC LIMIT ${limit}`.execute(udb.db);
  return rows.map(toRevision);
};

/** One revision of that row, or undefined. */
export const readRevision = async (udb: UserDb, tableId: number, rowId: number, rev: number): Promise<StoredRevision | undefined> => {
  await sequenceEvents(udb);
  const { rows } = await sql<RevisionRow>`SELECT ${sql.join(COLUMNS.map((c) => sql.id(c)))} FROM ${udb.table(EVENTS_TABLE)}
    WHERE ${sql.id("tbl_id")} = ${tableId} AND ${sql.id("row_id")} = ${rowId} AND ${sql.id("id")} = ${rev}`.execute(udb.db);
  return rows[0] && toRevision(rows[0]);
};

/** Deleted rows of a table whose last revision is their delete, newest first: the "Recently deleted" list. */
export const readDeleted = async (udb: UserDb, tableId: number, limit: number, before?: number): Promise<StoredRevision[]> => {
  await sequenceEvents(udb);
  const below = before === undefined ? sql`` : sql`AND ${sql.id("e")}.${sql.id("id")} < ${before}`;
  const later = sql`SELECT 1 FROM ${udb.table(EVENTS_TABLE)} AS ${sql.id("n")} WHERE ${sql.id("n")}.${sql.id("tbl_id")} = ${tableId}
    AND ${sql.id("n")}.${sql.id("row_id")} = ${sql.id("e")}.${sql.id("row_id")} AND ${sql.id("n")}.${sql.id("id")} > ${sql.id("e")}.${sql.id("id")}`;
  const { rows } = await sql<RevisionRow>`SELECT ${sql.join(COLUMNS.map((c) => sql`${sql.id("e")}.${sql.id(c)}`))} FROM ${udb.table(EVENTS_TABLE)} AS ${sql.id("e")}
    WHERE ${sql.id("e")}.${sql.id("tbl_id")} = ${tableId} AND ${sql.id("e")}.${sql.id("action")} = 'delete' ${below} AND NOT EXISTS (${later})
    ORDER BY ${sql.id("e")}.${sql.id("id")} DESC LIMIT ${limit}`.execute(udb.db);
  return rows.map(toRevision);
};

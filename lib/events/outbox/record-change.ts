// The outbox write: one event row per changed data row, inside the write's transaction, so an event exists
// if and only if the write committed. Call sites (the write kernel) are listed in docs/events.md.
import { sql } from "kysely";
import type { UserDb } from "../../db/engine";
import { type TableIndex, indexTableForUsers } from "../../api/table-index";
import { toStoredDatetime } from "../../schema/column-types";
import { signalChanges } from "./change-signal";
import { EVENT_COLUMNS, EVENTS_TABLE, QUEUE_TABLE, SEQ_TABLE } from "./outbox-table";

export type ChangeAction = "insert" | "update" | "delete";
type Row = Record<string, unknown>;

/** SQLite: takes `count` ids from the sequence row (BEGIN IMMEDIATE already orders writes as they commit). */
const takeIds = async (tx: UserDb, count: number): Promise<number> => {
  const { rows } = await sql<{ last_id: number }>`UPDATE ${tx.table(SEQ_TABLE)} SET ${sql.id("last_id")} = ${sql.id("last_id")} + ${count} WHERE ${sql.id("id")} = 1 RETURNING ${sql.id("last_id")}`.execute(tx.db);
  return Number(rows[0].last_id);
};

/**
 * Writes one event per row: `records` are the rows after the statement (insert, update), `oldRecords` those
 * before it (update, delete), paired by id, both as the data API returns them to a key (the write kernel's
 * read-back and locked row). Password columns are dropped: they never appear in an event.
 */
export const recordChanges = async (tx: UserDb, index: TableIndex, action: ChangeAction, records: Row[], oldRecords: Row[] = []): Promise<void> => {
  const visible = indexTableForUsers(index.table).output.map(([name]) => name);
  const shape = (row: Row) => Object.fromEntries(visible.map((name) => [name, row[name]]));
  const olds = new Map(oldRecords.map((r) => [Number(r.id), r]));
  const changed = action === "delete" ? oldRecords : records;
  if (changed.length === 0) return;
  const at = toStoredDatetime(new Date());
  const values = changed.map((row) => {
    const old = olds.get(Number(row.id));
    const record = JSON.stringify(shape(row));
    const oldRecord = action === "insert" || !old ? null : JSON.stringify(shape(old));
    return [index.table.name, action, record, oldRecord, at];
  });
  // MySQL queues them for the sequencer (sequence-events.ts); SQLite numbers them here.
  if (tx.engine === "mysql") {
    await sql`INSERT INTO ${tx.table(QUEUE_TABLE)} (${sql.join(EVENT_COLUMNS.map((c) => sql.id(c)))}) VALUES ${sql.join(values.map((v) => sql`(${sql.join(v)})`))}`.execute(tx.db);
  } else {
    const first = (await takeIds(tx, changed.length)) - changed.length + 1;
    await sql`INSERT INTO ${tx.table(EVENTS_TABLE)} (${sql.join(["id", ...EVENT_COLUMNS].map((c) => sql.id(c)))}) VALUES ${sql.join(values.map((v, i) => sql`(${sql.join([first + i, ...v])})`))}`.execute(tx.db);
  }
  if (tx.physical) signalChanges(tx.physical);
};

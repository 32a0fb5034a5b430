// The outbox write: one event row per changed data row, inside the write's transaction, so an event exists
// if and only if the write committed. Call sites (the write kernel) are listed in docs/events.md.
import { sql } from "kysely";
import type { UserDb } from "../../db/engine";
import { selectByIdsSql } from "../../api/build-sql";
import { type TableIndex, indexTableForUsers, toRecord } from "../../api/table-index";
import { toStoredDatetime } from "../../schema/column-types";
import { signalChanges } from "./change-signal";
import { EVENTS_TABLE, SEQ_TABLE } from "./outbox-table";

export type ChangeAction = "insert" | "update" | "delete";
type Row = Record<string, unknown>;

/**
 * The stored rows before an update or delete, read inside its transaction (locked on MySQL, so the old
 * record is the one the statement changes; SQLite's write lock is already held).
 */
export const lockRowsForEvent = async (tx: UserDb, index: TableIndex, ids: number[]): Promise<Row[]> => {
  const select = selectByIdsSql(tx, index.table.name, index.all, ids);
  const query = tx.engine === "mysql" ? sql`${select} FOR UPDATE` : select;
  return (await query.execute(tx.db)).rows as Row[];
};

/** Takes `count` ids from the database's sequence row; its lock (held to commit) keeps ids in commit order. */
const takeIds = async (tx: UserDb, count: number): Promise<number> => {
  if (tx.engine === "mysql") {
    const result = await sql`UPDATE ${tx.table(SEQ_TABLE)} SET ${sql.id("last_id")} = LAST_INSERT_ID(${sql.id("last_id")} + ${count}) WHERE ${sql.id("id")} = 1`.execute(tx.db);
    return Number(result.insertId);
  }
  const { rows } = await sql<{ last_id: number }>`UPDATE ${tx.table(SEQ_TABLE)} SET ${sql.id("last_id")} = ${sql.id("last_id")} + ${count} WHERE ${sql.id("id")} = 1 RETURNING ${sql.id("last_id")}`.execute(tx.db);
  return Number(rows[0].last_id);
};

/**
 * Writes one event per row: `rows` are the stored rows after the statement (insert, update), `oldRows` those
 * before it (update, delete), paired by id. Records are shaped as the data API returns them to JWT users:
 * password columns never appear. Returns `rows`, so a write can hand its read-back straight through.
 */
export const recordChanges = async <R extends Row>(tx: UserDb, index: TableIndex, action: ChangeAction, rows: R[], oldRows: Row[] = []): Promise<R[]> => {
  const shape = indexTableForUsers(index.table);
  const olds = new Map(oldRows.map((r) => [Number(r.id), r]));
  const changed = action === "delete" ? oldRows : rows;
  if (changed.length === 0) return rows;
  const last = await takeIds(tx, changed.length);
  const at = toStoredDatetime(new Date());
  const values = changed.map((row, i) => {
    const old = olds.get(Number(row.id));
    const record = JSON.stringify(toRecord(shape, row));
    const oldRecord = action === "insert" || !old ? null : JSON.stringify(toRecord(shape, old));
    return sql`(${last - changed.length + 1 + i}, ${index.table.name}, ${action}, ${record}, ${oldRecord}, ${at})`;
  });
  await sql`INSERT INTO ${tx.table(EVENTS_TABLE)} (${sql.join(["id", "tbl", "action", "record", "old_record", "at"].map((c) => sql.id(c)))}) VALUES ${sql.join(values)}`.execute(tx.db);
  if (tx.physical) signalChanges(tx.physical);
  return rows;
};

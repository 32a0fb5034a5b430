// The outbox write: one event row per changed data row, inside the write's transaction, so an event exists
// if and only if the write committed. Call sites (the write kernel) are listed in docs/events.md.
import { sql } from "kysely";
import type { UserDb } from "../../db/engine";
import { compiledByShape } from "../../api/build-sql";
import { type TableIndex, indexTableForUsers } from "../../api/table-index";
import { hasStoredJson, storedJsonText } from "../../schema/stored-json";
import { BIG_BODY_CHARS, nextTurn } from "../../limits/big-lane";
import { toStoredDatetime } from "../../schema/column-types";
import { signalChanges } from "./change-signal";
import { runStatement } from "../../db/scan-rows";
import { EVENT_COLUMNS, EVENTS_TABLE, QUEUE_TABLE, SEQ_TABLE } from "./outbox-table";
import { eventRowBytes, PACKET_SHARE, SQLITE_BATCH_BYTES, splitEventBatches } from "./event-batches";

export type ChangeAction = "insert" | "update" | "delete";

/**
 * Who made a change, as record history shows it: an API key (its id), a JWT user of the database (the user's id),
 * a member through the dashboard (their account id), or the system (hooks, sign-up, jobs; id null).
 */
export type Actor = { kind: "key" | "user" | "member" | "system"; id: number | null };

export const SYSTEM_ACTOR: Actor = { kind: "system", id: null };
type Row = Record<string, unknown>;

/** SQLite: takes `count` ids from the sequence row (BEGIN IMMEDIATE already orders writes as they commit). */
const takeIds = async (tx: UserDb, index: TableIndex, count: number): Promise<number> => {
  const take = () => sql`UPDATE ${tx.table(SEQ_TABLE)} SET ${sql.id("last_id")} = ${sql.id("last_id")} + ${count} WHERE ${sql.id("id")} = 1 RETURNING ${sql.id("last_id")}`;
  const { rows } = await runStatement<{ last_id: number }>(tx, compiledByShape(tx, index, "take-event-ids", take, [count]));
  return Number(rows[0].last_id);
};

/**
 * A row as its event's JSON text, the columns a key reads (passwords dropped). A json value still holding its
 * stored text goes in as that text: a big value is not parsed and serialised again.
 */
const eventText = (visible: TableIndex["output"], row: Row) => {
  if (!hasStoredJson(row)) {
    const shown: Row = {};
    for (const [name] of visible) shown[name] = row[name];
    return JSON.stringify(shown);
  }
  const parts: string[] = [];
  for (const [name] of visible) {
    const text = storedJsonText(row, name) ?? JSON.stringify(row[name]);
    if (text !== undefined) parts.push(`${JSON.stringify(name)}:${text}`);
  }
  return `{${parts.join(",")}}`;
};

/**
 * Writes one event per row: `records` are the rows after the statement (insert, update), `oldRecords` those
 * before it (update, delete), paired by id, both as the data API returns them to a key (the write kernel's
 * read-back and locked row). Password columns are dropped: they never appear in an event. `actor` is kept
 * with each for record history.
 */
export const recordChanges = async (tx: UserDb, index: TableIndex, action: ChangeAction, records: Row[], oldRecords: Row[] = [], actor: Actor = SYSTEM_ACTOR): Promise<void> => {
  const visible = indexTableForUsers(index.table).output;
  const olds = new Map(oldRecords.map((r) => [Number(r.id), r]));
  const changed = action === "delete" ? oldRecords : records;
  if (changed.length === 0) return;
  const at = toStoredDatetime(new Date());
  const by = JSON.stringify(actor);
  const values = changed.map((row) => {
    const old = olds.get(Number(row.id));
    const oldRecord = action === "insert" || !old ? null : eventText(visible, old);
    return [index.table.name, action, eventText(visible, row), oldRecord, at, index.table.id, Number(row.id), by];
  });
  const big = values.reduce((n, v) => n + (v[2] as string).length + ((v[3] as string | null)?.length ?? 0), 0) >= BIG_BODY_CHARS;
  // MySQL queues them for the sequencer (sequence-events.ts); SQLite numbers them here.
  let rows: unknown[][] = values;
  if (tx.engine === "sqlite") {
    const first = (await takeIds(tx, index, changed.length)) - changed.length + 1;
    rows = values.map((v, i) => [first + i, ...v]);
  }
  const [table, columns] = tx.engine === "mysql" ? [QUEUE_TABLE, EVENT_COLUMNS] : [EVENTS_TABLE, ["id", ...EVENT_COLUMNS]];
  const insert = (batch: unknown[][]) => () => sql`INSERT INTO ${tx.table(table)} (${sql.join(columns.map((c) => sql.id(c)))}) VALUES ${sql.join(batch.map((v) => sql`(${sql.join(v)})`))}`;
  const texts = tx.engine === "mysql" ? 2 : 3; // where record and old_record sit in a row
  // SQLite has no packet limit, but big batches are cut too, with a turn of the event loop before each.
  const maxBytes = tx.maxPacketBytes !== undefined ? Math.floor(tx.maxPacketBytes * PACKET_SHARE) : big ? SQLITE_BATCH_BYTES : undefined;
  for (const batch of splitEventBatches(rows, (v) => eventRowBytes(v[texts] as string, v[texts + 1] as string | null), maxBytes)) {
    if (big) await nextTurn();
    // One row's statement is kept compiled per table; a bulk write's row count varies.
    await runStatement(tx, batch.length === 1 ? compiledByShape(tx, index, "record-change", insert(batch), batch[0]) : insert(batch)().compile(tx.db));
  }
  const physical = tx.physical;
  if (!physical) return;
  const signal = () => signalChanges(physical, index.table.name);
  // The COMMIT comes later (SQLite's is shared, group-commit.ts): wake readers once it has happened.
  if (tx.afterCommit) tx.afterCommit(signal);
  else signal();
};

// The schema-change journal: MariaDB commits DDL on its own, so the metadata and the DDL of a change cannot share
// one transaction. The intent is written (and committed) first, the DDL runs idempotently, and the metadata
// transaction that records the change marks its row done. A row still `pending` later is a change cut off
// between its DDL and its metadata commit; the reconciler (./reconcile-schema.ts) finishes or undoes it.
import type { App } from "../../app-type";
import { withSerializationRetry } from "../../db/serialization-retry";
import { nowIso } from "../context";
import type { MetaTrx, SchemaChange } from "./schema-change";

/** What the reconciler needs of a change: names only (definitions are read from the metadata when it acts). */
export type JournalChange =
  | { kind: "create-table"; table: string }
  | { kind: "drop-table"; table: string }
  | { kind: "add-column"; table: string; column: string }
  | { kind: "add-columns"; table: string; columns: string[] }
  | { kind: "drop-column"; table: string; column: string }
  | { kind: "rename-column"; table: string; from: string; to: string }
  | { kind: "other"; what: SchemaChange["kind"] };

const journalChange = (change: SchemaChange): JournalChange => {
  switch (change.kind) {
    case "create-table":
    case "drop-table":
      return { kind: change.kind, table: change.table.name };
    case "add-column": {
      const columns = change.columns.map((c) => c.name);
      return columns.length === 1 ? { kind: change.kind, table: change.table.name, column: columns[0] } : { kind: "add-columns", table: change.table.name, columns };
    }
    case "drop-column":
      return { kind: change.kind, table: change.table.name, column: change.column.name };
    case "update-column":
      if (change.from.name !== change.to.name) return { kind: "rename-column", table: change.table.name, from: change.from.name, to: change.to.name };
  }
  return { kind: "other", what: change.kind };
};

/** Records the intent of a change (committed on its own, before any DDL); returns its row id. */
export const openJournal = (app: App, databaseId: number, change: SchemaChange) =>
  withSerializationRetry(async () => {
    const at = nowIso();
    const values = { database_id: databaseId, change: JSON.stringify(journalChange(change)), state: "pending" as const, note: null, created_at: at, updated_at: at };
    return Number((await app.engine.meta.insertInto("schema_journal").values(values).executeTakeFirstOrThrow()).insertId);
  });

/** Marks the change done inside the metadata transaction that records it: done if and only if that commits. */
export const closeJournal = async (trx: MetaTrx, id: number) => {
  await trx.updateTable("schema_journal").set({ state: "done", updated_at: nowIso() }).where("id", "=", id).execute();
};

// The reconciler: every change still `pending` in the journal past a grace period was cut off between its DDL and
// its metadata commit (a lost certification race with retries exhausted, a process that died). It is settled
// against information_schema: a table or column the metadata never got is undone, a drop whose DDL ran is
// finished in the metadata. Run at start and periodically; idempotent, so several nodes may run it at once.
import { sql } from "kysely";
import type { App } from "../../app-type";
import { physicalColumns } from "../../ddl/physical-columns";
import { dropMysqlForeignKeys } from "../../ddl/mysql-constraints";
import { releaseSearchTriggers, syncSearch } from "../../ddl/sync-search";
import { isSerializationFailure } from "../../db/serialization-retry";
import { logger } from "../../ops/logger";
import type { ColumnDef } from "../../schema/types";
import { nowIso } from "../context";
import { commitMeta } from "../commit-meta";
import type { JournalChange } from "./journal";
import type { MetaTrx } from "./schema-change";

/** A change younger than this may still be in flight on some node. */
const RECONCILE_GRACE_MS = 60_000;
const KEEP_DONE_MS = 24 * 3600_000;

type Db = { id: number; instance: string; physical: string };
type Outcome = { state: "undone" | "finished" | "resolved"; note: string };
/** How a change is settled: its DDL already undone here, or `metadata` to finish it in the journal row's transaction. */
type Settlement = Outcome & { metadata?: (trx: MetaTrx) => Promise<unknown> };

const settle = async (app: App, db: Db, change: JournalChange): Promise<Settlement> => {
  if (change.kind === "other") return { state: "resolved", note: `${change.what}: nothing physical to check` };
  const udb = app.engine.userDb(db.physical);
  const meta = app.engine.meta;
  const row = await meta.selectFrom("tables").select(["id", "columns"]).where("database_id", "=", db.id).where("name", "=", change.table).executeTakeFirst();
  const metaColumns = new Set(row ? (JSON.parse(row.columns) as ColumnDef[]).map((c) => c.name) : []);
  const physicalCols = await physicalColumns(udb, db.physical, change.table);
  const table = udb.table(change.table);
  if (change.kind === "create-table" && physicalCols && !row) {
    await sql`DROP TABLE IF EXISTS ${table}`.execute(udb.db);
    return { state: "undone", note: `table "${change.table}" had no metadata: dropped` };
  }
  if (change.kind === "drop-table" && !physicalCols && row) {
    const metadata = (trx: MetaTrx) => trx.deleteFrom("tables").where("id", "=", row.id).execute();
    return { state: "finished", note: `table "${change.table}" was dropped: its metadata removed`, metadata };
  }
  const added = change.kind === "add-column" ? [change.column] : change.kind === "add-columns" ? change.columns : [];
  const orphans = added.filter((c) => physicalCols?.has(c) && !metaColumns.has(c));
  if (orphans.length) {
    // A searchable column's triggers would stop SQLite's DROP COLUMN; the table's search indexes are built back after.
    if (row) await releaseSearchTriggers(udb, row.id);
    for (const column of orphans) {
      if (udb.engine === "mysql") await dropMysqlForeignKeys({ udb, physical: db.physical, table: change.table, column });
      await sql`ALTER TABLE ${table} DROP COLUMN ${sql.id(column)}`.execute(udb.db);
    }
    if (row) await syncSearch(udb, row.id, { id: row.id, name: change.table, columns: JSON.parse(row.columns) as ColumnDef[] });
    return { state: "undone", note: `${orphans.map((c) => `column "${c}"`).join(", ")} had no metadata: dropped` };
  }
  if (change.kind === "drop-column" && row && physicalCols && !physicalCols.has(change.column) && metaColumns.has(change.column)) {
    const metadata = async (trx: MetaTrx) => {
      const current = await trx.selectFrom("tables").select("columns").where("id", "=", row.id).executeTakeFirstOrThrow();
      const columns = (JSON.parse(current.columns) as ColumnDef[]).filter((c) => c.name !== change.column);
      await trx.updateTable("tables").set({ columns: JSON.stringify(columns) }).where("id", "=", row.id).execute();
    };
    return { state: "finished", note: `column "${change.column}" was dropped: removed from the metadata`, metadata };
  }
  if (change.kind === "rename-column" && physicalCols?.has(change.to) && !physicalCols.has(change.from) && metaColumns.has(change.from)) {
    await sql`ALTER TABLE ${table} RENAME COLUMN ${sql.id(change.to)} TO ${sql.id(change.from)}`.execute(udb.db);
    return { state: "undone", note: `column "${change.to}" renamed back to "${change.from}"` };
  }
  return { state: "resolved", note: "metadata and tables agree" };
};

/** Settles the pending changes older than `graceMs`; returns how many it settled. */
export const reconcileSchemas = async (app: App, graceMs = RECONCILE_GRACE_MS): Promise<number> => {
  const meta = app.engine.meta;
  const cutoff = new Date(Date.now() - graceMs).toISOString();
  const pending = await meta.selectFrom("schema_journal").selectAll().where("state", "=", "pending").where("created_at", "<=", cutoff).orderBy("id").execute();
  let settled = 0;
  for (const entry of pending) {
    // A newer change of the same database still in flight may own what this one left: wait for it.
    const newer = await meta.selectFrom("schema_journal").select("id").where("database_id", "=", entry.database_id).where("state", "=", "pending").where("created_at", ">", cutoff).executeTakeFirst();
    if (newer) continue;
    const db = await meta.selectFrom("databases").select(["id", "instance", "physical"]).where("id", "=", entry.database_id).executeTakeFirst();
    try {
      const { metadata, ...outcome }: Settlement = db ? await settle(app, db, JSON.parse(entry.change) as JournalChange) : { state: "resolved", note: "database deleted" };
      // Settled in one metadata transaction with the journal row; anything but "resolved" changed the schema.
      const changed = db && outcome.state !== "resolved" ? ({ kind: "schema", databaseId: db.id, instance: db.instance, physical: db.physical } as const) : undefined;
      await commitMeta({ app }, () => changed, async (trx) => {
        await metadata?.(trx);
        await trx.updateTable("schema_journal").set({ ...outcome, updated_at: nowIso() }).where("id", "=", entry.id).where("state", "=", "pending").execute();
      });
      if (changed) logger.warn({ databaseId: changed.databaseId, change: entry.change, outcome }, "schema reconciler settled a half-done change");
      settled++;
    } catch (err) {
      if (!isSerializationFailure(err)) logger.error({ err, journalId: entry.id }, "schema reconciler could not settle a change");
    }
  }
  await meta.deleteFrom("schema_journal").where("state", "!=", "pending").where("updated_at", "<", new Date(Date.now() - KEEP_DONE_MS).toISOString()).execute();
  return settled;
};

/** Reconciles at start and then every SCHEMA_RECONCILE_SECONDS (default 60; 0 turns the timer off); returns the stop. */
export const startSchemaReconciler = (app: App): (() => void) => {
  const run = () => void reconcileSchemas(app).catch((err: unknown) => logger.warn({ err }, "schema reconciler failed; trying again later"));
  run();
  const seconds = Number(process.env.SCHEMA_RECONCILE_SECONDS ?? 60);
  if (!seconds) return () => {};
  const timer = setInterval(run, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
};

import type { UserDb } from "../../db/engine";
import { syncIndexes } from "../../ddl/sync-indexes";
import { releaseSearchTriggers, syncSearch } from "../../ddl/sync-search";
import type { AppEvent } from "../../events/bus";
import { loadHooks } from "../../hooks/load-hooks";
import { loadAuth } from "../load-auth";
import type { ColumnDef, DatabaseSchema } from "../../schema/types";
import { bumpMetaVersion, type Ctx } from "../context";
import { tableDefOf } from "../load-schema";
import { SCHEMA_DEPENDENTS } from "./dependents";
import type { BesideSchema, MetaTrx, SchemaChange } from "./schema-change";
import { closeJournal, openJournal } from "./journal";
import { auditedTransaction, writePendingAudit } from "../audit/write-audit";

/** Changes after which a table's engine indexes may differ from its definition (names, columns, types). */
const RESHAPES = new Set<SchemaChange["kind"]>(["add-column", "update-column", "drop-column", "indexes"]);

/** Brings the changed table's indexes in line with its definition as this transaction wrote it. */
const syncChangedIndexes = async (trx: MetaTrx, udb: UserDb, physical: string, change: SchemaChange) => {
  if (!RESHAPES.has(change.kind) || !("table" in change) || !("id" in change.table)) return;
  const row = await trx.selectFrom("tables").select(["id", "name", "columns", "indexes"]).where("id", "=", change.table.id).executeTakeFirstOrThrow();
  await syncIndexes(udb, physical, tableDefOf(row));
};

const searchable = (columns: ColumnDef[]) => columns.some((c) => c.searchable);

/** The table whose search triggers must go before the DDL: it alters or drops a column of a table that has some. */
const releasedTable = (change: SchemaChange) =>
  (change.kind === "update-column" || change.kind === "drop-column") && searchable(change.table.columns) ? change.table : undefined;

/** The DDL, with the search triggers released first and the search indexes built back when it fails. */
const runDdl = async <T>(udb: UserDb, change: SchemaChange, ddl: SchemaApply<T>["ddl"], written: T) => {
  const released = releasedTable(change);
  if (released) await releaseSearchTriggers(udb, released.id);
  try {
    await ddl?.(udb, written);
  } catch (err) {
    if (released) await syncSearch(udb, released.id, released);
    throw err;
  }
};

/** Brings the changed table's search indexes (lib/ddl/sync-search.ts) in line with its definition as written. */
const syncChangedSearch = async (trx: MetaTrx, udb: UserDb, change: SchemaChange) => {
  // A new table got its search indexes with its DDL (applyTables).
  if (!("table" in change) || !("id" in change.table)) return;
  const before = change.table;
  const row = await trx.selectFrom("tables").select(["id", "name", "columns", "indexes"]).where("id", "=", before.id).executeTakeFirst();
  const after = row ? tableDefOf(row) : undefined;
  if (!searchable(before.columns) && !searchable(after?.columns ?? [])) return;
  await syncSearch(udb, before.id, after);
};

export type SchemaApply<T> = {
  /** The change's own metadata rows (the dependents write theirs in `follow`). */
  metadata?: (trx: MetaTrx) => Promise<T>;
  /** DDL on the user database, given what `metadata` returned. */
  ddl?: (udb: UserDb, written: T) => Promise<void>;
};

/**
 * What the change publishes: a hook change leaves the tables, and so the schema_version and the cached schemas, as
 * they were and drops only the hooks; anything else (auth settings too: tests/schema-change/schema-events.test.ts)
 * is a schema event.
 */
const eventOf = (schema: DatabaseSchema, change: SchemaChange): AppEvent =>
  change.kind === "hooks"
    ? { kind: "hooks", databaseId: schema.id, instance: schema.instance }
    : { kind: "schema", databaseId: schema.id, instance: schema.instance, physical: schema.physical };

/** A change planned on a schema another process has changed since: a serialization failure, so it is planned again. */
const staleSchema = () =>
  Object.assign(new Error("The database's schema changed since this change was planned."), { sqlState: "40001" });

/**
 * The one way a database's schema changes: record the intent in the journal (committed on its own), then in one
 * metadata transaction check the schema is the one the change was planned on, bump the versions, let every
 * dependent refuse or follow (given the hooks and auth settings as stored now, not as cached), write the change,
 * run its idempotent DDL (then bring the table's indexes and search indexes in line) and mark the journal row
 * done; publish its event after commit. MariaDB commits DDL on its own: a DDL
 * failure still rolls the metadata back; a metadata commit lost after the DDL (a Galera certification
 * conflict) is run again whole by retrySchemaChange, or settled by the reconciler (./reconcile-schema.ts).
 */
export const changeSchema = async <T = void>(ctx: Ctx, schema: DatabaseSchema, change: SchemaChange, apply: SchemaApply<T>): Promise<T> => {
  const { app } = ctx;
  const journalId = await openJournal(app, schema.id, change);
  const result = await auditedTransaction(ctx.audit, (wrote) => app.engine.meta.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("databases").select("schema_version").where("id", "=", schema.id).$if(app.engine.kind === "mysql", (q) => q.forUpdate()).executeTakeFirst();
    if (current && current.schema_version !== schema.version) throw staleSchema();
    await bumpMetaVersion(trx, schema.id, { schema: change.kind !== "hooks" });
    const beside: BesideSchema = { hooks: await loadHooks(trx, schema), auth: await loadAuth(trx, app.secret, schema) };
    for (const dependent of SCHEMA_DEPENDENTS) dependent.refuse?.(schema, change, beside);
    for (const dependent of SCHEMA_DEPENDENTS) await dependent.follow?.(trx, schema, change, beside);
    const written = (await apply.metadata?.(trx)) as T;
    if (apply.ddl || RESHAPES.has(change.kind)) {
      try {
        const udb = app.engine.userDb(schema.physical);
        await runDdl(udb, change, apply.ddl, written);
        await syncChangedIndexes(trx, udb, schema.physical, change);
        await syncChangedSearch(trx, udb, change);
      } finally {
        app.engine.clearStatements(schema.physical);
      }
    }
    await closeJournal(trx, journalId);
    if (await writePendingAudit(trx, ctx.audit)) wrote();
    return written;
  }));
  app.events.publish(eventOf(schema, change));
  return result;
};

import type { App } from "../app";
import { loadAuth } from "../services/auth/load-auth";
import { effectivePlan } from "../plans/effective-plan";
import { ensureOutbox } from "../events/outbox/outbox-table";
import { compileHooks } from "../hooks/hooks";
import type { DatabaseSchema, JoinDef, TableDef } from "../schema/types";
import type { WorkspaceEntry } from "./schema-cache";

/** A table's definition from its metadata row. */
export const tableDefOf = (row: { id: number; name: string; columns: string; indexes: string | null }): TableDef => ({
  id: row.id,
  name: row.name,
  columns: JSON.parse(row.columns),
  ...(row.indexes ? { indexes: JSON.parse(row.indexes) } : {}),
});

/** The schema of one database from the metadata store, into the process cache. */
const readSchema = async (app: App, instance: string): Promise<DatabaseSchema | undefined> => {
  const epoch = app.schemas.epoch;
  const meta = app.engine.meta;
  const row = await meta.selectFrom("databases").selectAll().where("instance", "=", instance).executeTakeFirst();
  if (!row) return undefined;
  await ensureOutbox(app.engine, row.physical);
  const tableRows = await meta.selectFrom("tables").selectAll().where("database_id", "=", row.id).orderBy("id").execute();
  const tables = new Map<string, TableDef>(
    tableRows.map((t) => [t.name, tableDefOf(t)]),
  );
  const joinRows = await meta.selectFrom("joins").selectAll().where("database_id", "=", row.id).orderBy("id").execute();
  const joins = new Map<string, JoinDef>(
    joinRows.map((j) => [j.name, { id: j.id, name: j.name, ...JSON.parse(j.definition), ...(j.sql ? { sql: j.sql } : {}) }]),
  );
  const hookRows = await meta.selectFrom("table_hooks").select(["table_id", "hooks"]).where("database_id", "=", row.id).execute();
  const byId = new Map([...tables.values()].map((t) => [t.id, t]));
  const hooks = new Map(
    hookRows.flatMap((h) => {
      const table = byId.get(h.table_id);
      return table ? [[table.name, compileHooks(table, JSON.parse(h.hooks))] as const] : [];
    }),
  );
  const schema: DatabaseSchema = {
    id: row.id,
    instance: row.instance,
    name: row.name,
    ownerId: row.owner_id,
    creatorId: row.creator_id ?? row.owner_id,
    engine: app.engine.kind,
    physical: row.physical,
    version: row.schema_version,
    tables,
    joins,
    auth: await loadAuth(app, row.id, tables),
    hooks,
  };
  app.schemas.setIfCurrent(instance, schema, epoch);
  return schema;
};

/** The owner's plan rate and whether its workspace has members, from the process cache or the metadata store. */
const readWorkspace = async (app: App, ownerId: number): Promise<WorkspaceEntry> => {
  const epoch = app.workspaces.epoch;
  const meta = app.engine.meta;
  const entry = {
    requestsPerSecond: (await effectivePlan(meta, ownerId)).requests_per_second,
    shared: !!(await meta.selectFrom("members").select("account_id").where("owner_id", "=", ownerId).limit(1).executeTakeFirst()),
  };
  app.workspaces.setIfCurrent(ownerId, entry, epoch);
  return entry;
};

/** Each cached schema with the workspace entry beside it: the same object while neither changes. */
const loaded = new WeakMap<DatabaseSchema, { workspace: WorkspaceEntry; database: DatabaseSchema }>();

const withWorkspace = (schema: DatabaseSchema, workspace: WorkspaceEntry): DatabaseSchema => {
  const known = loaded.get(schema);
  if (known?.workspace === workspace) return known.database;
  const database = { ...schema, ...workspace };
  loaded.set(schema, { workspace, database });
  return database;
};

/**
 * One database by instance as the APIs use it: its schema (cached per database, dropped by its own changes)
 * with its owner's plan rate and membership (cached per owner, so a plan or team change keeps every schema).
 */
export const loadSchema = async (app: App, instance: string): Promise<DatabaseSchema | undefined> => {
  const schema = app.schemas.get(instance) ?? (await readSchema(app, instance));
  if (!schema) return undefined;
  return withWorkspace(schema, app.workspaces.get(schema.ownerId) ?? (await readWorkspace(app, schema.ownerId)));
};

import type { App } from "../app-type";
import { loadAuth } from "./load-auth";
import { effectivePlan } from "../plans/effective-plan";
import { ensureOutbox } from "../events/outbox/outbox-table";
import { loadHooks } from "../hooks/load-hooks";
import type { DatabaseSchema, JoinDef, TableDef } from "../schema/types";
import type { LoadedDatabase, WorkspaceEntry } from "./schema-cache";

/** A table's definition from its metadata row. */
export const tableDefOf = (row: { id: number; name: string; columns: string; indexes: string | null; history?: number }): TableDef => ({
  id: row.id,
  name: row.name,
  columns: JSON.parse(row.columns),
  ...(row.indexes ? { indexes: JSON.parse(row.indexes) } : {}),
  ...(row.history === 0 ? { history: false } : {}),
});

/** The schema of one database (tables with their policies, joins) from the metadata store, into the process cache. */
const readSchema = async (app: App, instance: string, epoch: number): Promise<DatabaseSchema | undefined> => {
  const meta = app.engine.meta;
  const row = await meta.selectFrom("databases").selectAll().where("instance", "=", instance).executeTakeFirst();
  if (!row) return undefined;
  await ensureOutbox(app.engine, row.physical);
  const tableRows = await meta.selectFrom("tables").selectAll().where("database_id", "=", row.id).orderBy("id").execute();
  const tables = new Map<string, TableDef>(tableRows.map((t) => [t.name, tableDefOf(t)]));
  const byId = new Map([...tables.values()].map((t) => [t.id, t]));
  for (const policy of await meta.selectFrom("table_policies").selectAll().where("database_id", "=", row.id).execute()) {
    const table = byId.get(policy.table_id);
    if (table) table.policies = JSON.parse(policy.policies);
  }
  const joinRows = await meta.selectFrom("joins").selectAll().where("database_id", "=", row.id).orderBy("id").execute();
  const joins = new Map<string, JoinDef>(
    joinRows.map((j) => [j.name, { id: j.id, name: j.name, ...JSON.parse(j.definition), ...(j.sql ? { sql: j.sql } : {}) }]),
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
  };
  app.schemas.setIfCurrent(instance, schema, epoch);
  return schema;
};

/** The owner's plan rate and whether its workspace has members, from the metadata store into the process cache. */
const readWorkspace = async (app: App, ownerId: number, epoch: number): Promise<WorkspaceEntry> => {
  const meta = app.engine.meta;
  const entry = {
    requestsPerSecond: (await effectivePlan(meta, ownerId)).requests_per_second,
    shared: !!(await meta.selectFrom("members").select("account_id").where("owner_id", "=", ownerId).limit(1).executeTakeFirst()),
  };
  app.workspaces.setIfCurrent(ownerId, entry, epoch);
  return entry;
};

const readHooks = async (app: App, schema: DatabaseSchema, epoch: number) => {
  const hooks = await loadHooks(app.engine.meta, schema);
  app.hooks.setIfCurrent(schema.instance, hooks, epoch);
  return hooks;
};

const readAuth = async (app: App, schema: DatabaseSchema, epoch: number) => {
  const auth = (await loadAuth(app.engine.meta, app.secret, schema)) ?? null;
  app.auth.setIfCurrent(schema.instance, auth, epoch);
  return auth;
};

/**
 * The loaded database from its parts, each from its own cache or the metadata store. The epochs are taken first:
 * a schema dropped while the parts load drops those built on it too, so none of them is kept.
 */
const assemble = async (app: App, instance: string): Promise<LoadedDatabase | undefined> => {
  const epochs = { databases: app.databases.epoch, schemas: app.schemas.epoch, hooks: app.hooks.epoch, auth: app.auth.epoch, workspaces: app.workspaces.epoch };
  const schema = app.schemas.get(instance) ?? (await readSchema(app, instance, epochs.schemas));
  if (!schema) return undefined;
  const hooks = app.hooks.get(instance) ?? (await readHooks(app, schema, epochs.hooks));
  const auth = app.auth.get(instance) ?? (app.auth.has(instance) ? null : await readAuth(app, schema, epochs.auth));
  const workspace = app.workspaces.get(schema.ownerId) ?? (await readWorkspace(app, schema.ownerId, epochs.workspaces));
  const database: LoadedDatabase = { schema, hooks, ...(auth ? { auth } : {}), ...workspace };
  app.databases.setIfCurrent(instance, database, epochs.databases);
  return database;
};

/**
 * One database by instance as the APIs use it: its schema, hooks, auth settings and its owner's plan rate and
 * membership. One cache lookup, the same object while nothing of it changes; a change drops only its own part
 * (lib/meta/schema-cache.ts), so a plan, team, hook or auth change keeps the schema.
 */
export const loadDatabase = async (app: App, instance: string): Promise<LoadedDatabase | undefined> =>
  app.databases.get(instance) ?? assemble(app, instance);

/** The database as loadDatabase gives it, when this process has it cached (no promise); else undefined. */
export const cachedDatabase = (app: App, instance: string): LoadedDatabase | undefined => app.databases.get(instance);

/** Only the schema of one database (through loadDatabase, so it is the one the data path sees). */
export const loadSchema = async (app: App, instance: string): Promise<DatabaseSchema | undefined> => (await loadDatabase(app, instance))?.schema;

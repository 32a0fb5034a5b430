import type { App } from "../app";
import { loadAuth } from "./auth/load-auth";
import { effectivePlan } from "../plans/plans";
import { ensureOutbox } from "../events/outbox/outbox-table";
import { compileHooks } from "../hooks/hooks";
import type { DatabaseSchema, JoinDef, TableDef } from "../schema/types";

/** A table's definition from its metadata row. */
export const tableDefOf = (row: { id: number; name: string; columns: string; indexes: string | null }): TableDef => ({
  id: row.id,
  name: row.name,
  columns: JSON.parse(row.columns),
  ...(row.indexes ? { indexes: JSON.parse(row.indexes) } : {}),
});

/** The schema of one database by instance, from the process cache or the metadata store. */
export const loadSchema = async (app: App, instance: string): Promise<DatabaseSchema | undefined> => {
  const cached = app.schemas.get(instance);
  if (cached) return cached;
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
    shared: !!(await meta.selectFrom("members").select("account_id").where("owner_id", "=", row.owner_id).limit(1).executeTakeFirst()),
    engine: app.engine.kind,
    physical: row.physical,
    version: row.schema_version,
    tables,
    joins,
    auth: await loadAuth(app, row.id, tables),
    hooks,
    requestsPerSecond: (await effectivePlan(meta, row.owner_id)).requests_per_second,
  };
  app.schemas.setIfCurrent(instance, schema, epoch);
  return schema;
};

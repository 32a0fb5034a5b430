import { applyTables } from "../../ddl/apply-tables";
import type { z } from "zod";
import type { DatabaseCreate } from "../../contract/schemas/databases";
import { toNewTable } from "../../contract/schemas/table-rules";
import { makeInstanceName } from "../../schema/names";
import type { TableDef } from "../../schema/types";
import { type Ctx, nowIso } from "../../meta/context";
import { commitMeta } from "../../meta/commit-meta";
import { noteAudit } from "../../meta/audit/audit-slot";
import { loadSchema } from "../../meta/load-schema";
import { storedIndexes } from "../../meta/serialize";
import { databaseDetail } from "./database-detail";

export type CreateDatabaseInput = { body: z.output<typeof DatabaseCreate> };

/**
 * Creates a database in the workspace authorize chose (the caller's own, or an owner's where it is an editor
 * or admin: that owner's quota), recording the caller as its creator; with `tables` its whole schema (quick
 * create): all of it, or nothing.
 */
export const createDatabase = async (ctx: Ctx, { body }: CreateDatabaseInput) => {
  const name = body.name.trim();
  const tables = (body.tables ?? []).map(toNewTable);
  const { app } = ctx;
  const at = nowIso();
  let physical = "";
  let instance = "";
  let databaseId = 0;
  const created = () => ({ kind: "database" as const, databaseId, instance, physical });
  // A run that lost a race (and was re-run under a new id) or failed leaves no physical database behind.
  const made: string[] = [];
  const dropAllBut = (kept?: string) => Promise.all(made.filter((p) => p !== kept).map((p) => app.engine.dropUserDb(p)));
  await commitMeta(ctx, created, async (trx) => {
    instance = makeInstanceName(name);
    const { insertId } = await trx
      .insertInto("databases")
      .values({ instance, name, owner_id: ctx.workspaceId ?? ctx.actor.accountId, creator_id: ctx.actor.accountId, physical: "", schema_version: 1, created_at: at, updated_at: at })
      .executeTakeFirstOrThrow();
    const id = Number(insertId);
    databaseId = id;
    physical = app.engine.physicalName(id);
    await trx.updateTable("databases").set({ physical }).where("id", "=", id).execute();
    noteAudit(ctx, { databaseId: id, database: instance });
    const defs: TableDef[] = [];
    for (const t of tables) {
      const row = await trx
        .insertInto("tables")
        .values({ database_id: id, name: t.name, columns: JSON.stringify(t.columns), indexes: storedIndexes(t.indexes), history: t.history === false ? 0 : 1, created_at: at })
        .executeTakeFirstOrThrow();
      defs.push({ id: Number(row.insertId), name: t.name, columns: t.columns, indexes: t.indexes, ...(t.history === false ? { history: false } : {}) });
    }
    await app.engine.createUserDb(physical);
    made.push(physical);
    await applyTables(app.engine.userDb(physical), defs);
  }).catch(async (err: unknown) => {
    await dropAllBut();
    throw err;
  });
  await dropAllBut(physical);
  await app.sqlConsole.prepare(physical);
  const schema = await loadSchema(app, instance);
  return databaseDetail(ctx, schema!, { created_at: at, updated_at: at });
};

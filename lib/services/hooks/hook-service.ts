import type { DbCtx } from "../../meta/context";
import { nowIso } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { getTableOrThrow } from "../tables/get-table-or-throw";
import type { DatabaseSchema } from "../../schema/types";
import { flushHookLogs, type ReadLogsQuery, readHookLogs } from "../../hooks/hook-logs";
import { compileHooks, type HookAction, type Hooks, NO_HOOKS, parseHooks } from "../../hooks/hooks";
import { clipSteps } from "../../hooks/log-clip";
import { runHooks } from "../../hooks/run-hooks";

/** The hooks of a table as stored (every action present). */
const storedHooks = async (ctx: DbCtx, schema: DatabaseSchema, tableId: number): Promise<Hooks> => {
  const row = await ctx.app.engine.meta.selectFrom("table_hooks").select("hooks").where("table_id", "=", tableId).executeTakeFirst();
  return row ? { ...NO_HOOKS, ...JSON.parse(row.hooks) } : NO_HOOKS;
};

type TableInput = { instance: string; table: string };

/** GET /databases/{instance}/tables/{table}/hooks. */
export const getHooks = async (ctx: DbCtx, { instance, table }: TableInput) => {
  const { schema } = ctx.database;
  return storedHooks(ctx, schema, getTableOrThrow(schema, table).id);
};

/** PUT .../hooks: replaces all three actions, type-checked against the table (422 naming step and position). */
export const updateHooks = async (ctx: DbCtx, { instance, table: name, body }: TableInput & { body: Partial<Hooks> }) => {
  const { schema } = ctx.database;
  const table = getTableOrThrow(schema, name);
  const hooks = parseHooks(table, body);
  const row = { table_id: table.id, database_id: schema.id, hooks: JSON.stringify(hooks), updated_at: nowIso() };
  await changeSchema(ctx, schema, { kind: "hooks", table }, {
    metadata: async (trx) => {
      await trx.deleteFrom("table_hooks").where("table_id", "=", table.id).execute();
      await trx.insertInto("table_hooks").values(row).execute();
    },
  });
  return hooks;
};

export type TryHooksInput = TableInput & { body: { action: HookAction; row: Record<string, unknown>; old?: Record<string, unknown> } };

/** POST .../hooks/try: runs the action's stored steps on a sample row, writing and logging nothing. */
export const tryHooks = async (ctx: DbCtx, { instance, table: name, body }: TryHooksInput) => {
  const { schema } = ctx.database;
  const table = getTableOrThrow(schema, name);
  const compiled = compileHooks(table, await storedHooks(ctx, schema, table.id));
  const old = body.old ?? (body.action === "insert" ? undefined : body.row);
  const input = { new: body.action === "update" ? { ...old, ...body.row } : body.row, old, auth: { kind: "key", id: null } };
  const run = await runHooks(compiled, body.action, input);
  return {
    status: run.status,
    row: { ...input.new, ...run.sets },
    steps: clipSteps(run.steps),
    duration_ms: Math.round(run.durationMs * 1000) / 1000,
    ...(run.message ? { message: run.message } : {}),
  };
};

/** GET /databases/{instance}/hooks/logs. */
export const listHookLogs = async (ctx: DbCtx, { instance, query }: { instance: string; query: ReadLogsQuery }) => {
  const { schema } = ctx.database;
  await flushHookLogs(ctx.app);
  return readHookLogs(ctx.app, schema.id, query);
};

import { z } from "zod";
import { getHooks, listHookLogs, tryHooks, updateHooks } from "../services/hooks/hook-service";
import { defineRoute } from "./route";
import { HookLog, HookLogQuery, Hooks, HooksInput, HookTry, HookTryResult } from "../contract/schemas/hooks";

const TABLE = "databases/:instance/tables/:table";

export const HOOK_ROUTES = [
  defineRoute({
    method: "GET", path: `${TABLE}/hooks`, permission: "database:read", tag: "Hooks", operationId: "getHooks",
    summary: "Get a table's pre hooks", description: "The steps run before each insert, update and delete (empty lists when none).",
    status: 200, response: Hooks,
    run: (ctx, { instance, table }) => getHooks(ctx, { instance, table }),
  }),
  defineRoute({
    method: "PUT", path: `${TABLE}/hooks`, permission: "database:admin", tag: "Hooks", operationId: "updateHooks",
    summary: "Set a table's pre hooks", description: "Replaces the three lists. Each CEL expression is type-checked against the columns: 422 naming the step (`insert[0].expr`) and the position.",
    body: HooksInput, status: 200, response: Hooks,
    run: (ctx, { instance, table, body }) => updateHooks(ctx, { instance, table, body }),
  }),
  defineRoute({
    method: "POST", path: `${TABLE}/hooks/try`, permission: "database:read", tag: "Hooks", operationId: "tryHooks",
    summary: "Try the hooks on a sample row", description: "Runs the stored steps of `action` on the row and answers each step's result; writes and logs nothing.",
    body: HookTry, status: 200, response: HookTryResult,
    run: (ctx, { instance, table, body }) => tryHooks(ctx, { instance, table, body }),
  }),
  defineRoute({
    method: "GET", path: "databases/:instance/hooks/logs", permission: "database:read", tag: "Hooks", operationId: "listHookLogs",
    summary: "Hook logs", description: "Every run of the database's pre hooks, newest first, kept 7 days; passwords are never logged.",
    query: HookLogQuery, status: 200, response: z.array(HookLog),
    run: (ctx, { instance, query }) => listHookLogs(ctx, { instance, query }),
  }),
];

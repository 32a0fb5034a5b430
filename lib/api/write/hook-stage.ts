// The one place pre hooks enter a write: inside the transaction, after validation, on the row as locked.
import type { App } from "../../app-type";
import { validationFailed } from "../../errors";
import { logHookRun } from "../../hooks/hook-logs";
import { type CompiledHooks, type HookAction, type HookInput, hasSteps, hookError } from "../../hooks/hooks";
import { runHooks, type Slice } from "../../hooks/run-hooks";
import { type ParsedWrite, parseRecordBody } from "../parse-body";
import type { TableIndex } from "../table-index";

/** A table's pre hooks and who is writing, for one write. */
export type HookCall = { app: App; databaseId: number; hooks: CompiledHooks; auth: HookInput["auth"] };

const SERVER = { kind: "key", id: null };

/**
 * Runs the action's steps for one row: a refusal or failure is logged and thrown (the transaction rolls back);
 * set values are validated like client values and merged into the write.
 */
export const applyHook = async (
  hook: HookCall | undefined,
  index: TableIndex,
  action: HookAction,
  write: ParsedWrite | undefined,
  rows: Omit<HookInput, "auth">,
  prefix = "",
  current?: Record<string, unknown>,
  slice?: Slice,
) => {
  if (!hook || !hasSteps(hook.hooks, action)) return;
  const input = { ...rows, auth: hook.auth ?? SERVER };
  const run = await runHooks(hook.hooks, action, input, slice);
  logHookRun(hook.app, hook.databaseId, index.table, action, input.new, run);
  if (run.status !== "ok") throw hookError(index.table.name, action, run);
  if (!write || Object.keys(run.sets).length === 0) return;
  const { write: checked, errors } = parseRecordBody(index, run.sets, "update", prefix, current);
  if (errors.length) throw validationFailed(errors.map((e) => ({ ...e, message: `${e.message} (set by the ${action} hook)` })));
  Object.assign(write.values, checked.values);
};

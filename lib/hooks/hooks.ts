// Pre hooks: per table and action, ordered `set` and `assert` steps in CEL, checked against the columns when
// saved, compiled once per schema load, and run inside the write's transaction before the statement.
import { ApiError, type FieldError, validationFailed } from "../errors";
import type { TableDef } from "../schema/types";
import { type CelEnvironment, checkExpression, environmentFor, fits, setTypeOf } from "./cel";

export const HOOK_ACTIONS = ["insert", "update", "delete"] as const;
export type HookAction = (typeof HOOK_ACTIONS)[number];

export type HookStep = { set: string; expr: string } | { assert: string; message: string };
export type Hooks = Record<HookAction, HookStep[]>;

export const NO_HOOKS: Hooks = { insert: [], update: [], delete: [] };

export const BUDGET_MS = 50;

const AUTOMATIC = new Set(["id", "created_at", "updated_at"]);

/**
 * Checks hooks against the table: columns, expressions and their types (422 listing all). Their shape (two
 * kinds of step, at most 20 per action, message and expression lengths) is the route's zod schema's to check.
 */
export const parseHooks = (table: TableDef, input: Partial<Hooks>): Hooks => {
  const env = environmentFor(table);
  const errors: FieldError[] = [];
  const hooks: Hooks = { insert: [], update: [], delete: [] };
  for (const action of HOOK_ACTIONS) {
    (input[action] ?? []).forEach((step, i) => {
      const at = `${action}[${i}]`;
      if ("set" in step) {
        const column = table.columns.find((c) => c.name === step.set);
        if (AUTOMATIC.has(step.set) || !column || column.type === "password") {
          errors.push({ field: `${at}.set`, code: "unknown_column", message: `"${step.set}" is not a column a hook can set (automatic and password columns cannot be set)` });
        }
        const checked = checkExpression(env, step.expr, `${at}.expr`);
        errors.push(...checked.errors);
        if (column && !checked.errors.length && !fits(setTypeOf(column), checked.type, column.nullable)) {
          errors.push({ field: `${at}.expr`, code: "type_mismatch", message: `gives ${checked.type}, but "${column.name}" holds ${setTypeOf(column)}` });
        }
        hooks[action].push({ set: step.set, expr: step.expr });
      } else {
        const checked = checkExpression(env, step.assert, `${at}.assert`);
        errors.push(...checked.errors);
        if (!checked.errors.length && checked.type !== "bool" && checked.type !== "dyn") {
          errors.push({ field: `${at}.assert`, code: "type_mismatch", message: `must be true or false, not ${checked.type}` });
        }
        hooks[action].push({ assert: step.assert, message: step.message });
      }
    });
  }
  if (errors.length) throw validationFailed(errors);
  return hooks;
};

type Program = (context: Record<string, unknown>) => unknown;

type ValueKind = "int" | "password" | "plain";

export type CompiledHooks = {
  table: TableDef;
  steps: Record<HookAction, { step: HookStep; run: Program }[]>;
  /** How each column's value crosses into CEL (integers as BigInt, passwords hidden). */
  kinds: Map<string, ValueKind>;
};

export const compileHooks = (table: TableDef, hooks: Hooks): CompiledHooks => {
  const env: CelEnvironment = environmentFor(table);
  const compile = (step: HookStep) => ({ step, run: env.parse("set" in step ? step.expr : step.assert) as unknown as Program });
  const kinds = new Map<string, ValueKind>([["id", "int"]]);
  for (const c of table.columns) kinds.set(c.name, c.type === "password" ? "password" : c.type === "int" || c.type === "bigint" || c.type === "reference" ? "int" : "plain");
  return { table, kinds, steps: { insert: hooks.insert.map(compile), update: hooks.update.map(compile), delete: hooks.delete.map(compile) } };
};

export const hasSteps = (hooks: CompiledHooks | undefined, action: HookAction) => (hooks?.steps[action].length ?? 0) > 0;

/** One value as CEL sees it: integers as BigInt (the API has JSON numbers), passwords hidden. */
const celValue = (kind: ValueKind | undefined, value: unknown) =>
  kind === "password" ? "[redacted]" : kind === "int" && typeof value === "number" ? BigInt(value) : value;

const toCel = (hooks: CompiledHooks, row: Record<string, unknown>) => {
  const out: Record<string, unknown> = {};
  for (const c of hooks.table.columns) out[c.name] = null;
  for (const name in row) out[name] = celValue(hooks.kinds.get(name), row[name]);
  return out;
};

const fromCel = (value: unknown): unknown =>
  typeof value === "bigint" ? Number(value) : value instanceof Date ? value.toISOString() : Array.isArray(value) ? value.map(fromCel) : value instanceof Map ? Object.fromEntries([...value].map(([k, v]) => [k, fromCel(v)])) : value;

export type StepResult = { index: number; result?: unknown; error?: string };
export type HookRun = { status: "ok" | "rejected" | "failed"; sets: Record<string, unknown>; steps: StepResult[]; durationMs: number; message?: string; failedStep?: number };

export type HookInput = { new: Record<string, unknown>; old?: Record<string, unknown>; auth: { kind: string; id: number | null } };

/** Runs one action's steps in order; never throws (the caller turns the outcome into a reply). */
export const runHooks = (hooks: CompiledHooks, action: HookAction, input: HookInput): HookRun => {
  const started = performance.now();
  const sets: Record<string, unknown> = {};
  const steps: StepResult[] = [];
  const celNew = toCel(hooks, input.new);
  const context = {
    new: celNew,
    old: toCel(hooks, input.old ?? {}),
    auth: { kind: input.auth.kind, id: input.auth.id === null ? null : BigInt(input.auth.id) },
    now: new Date(),
  };
  const end = (status: HookRun["status"], extra: Partial<HookRun> = {}): HookRun => ({ status, sets, steps, durationMs: performance.now() - started, ...extra });
  for (const [index, { step, run }] of hooks.steps[action].entries()) {
    let value: unknown;
    try {
      value = fromCel(run(context));
    } catch (err) {
      steps.push({ index, error: (err as Error).message.split("\n")[0] });
      return end("failed", { failedStep: index, message: (err as Error).message.split("\n")[0] });
    }
    if (performance.now() - started > BUDGET_MS) {
      steps.push({ index, error: `time budget of ${BUDGET_MS} ms exceeded` });
      return end("failed", { failedStep: index, message: `the hook ran past its ${BUDGET_MS} ms budget` });
    }
    steps.push({ index, result: value });
    if ("set" in step) {
      celNew[step.set] = celValue(hooks.kinds.get(step.set), value);
      sets[step.set] = value;
    } else if (value !== true) {
      return end("rejected", { failedStep: index, message: step.message });
    }
  }
  return end("ok");
};

/** The reply a refused or failed run becomes: 422 with the assert's message, or 500 pre_hook_failed. */
export const hookError = (table: string, action: HookAction, run: HookRun) =>
  run.status === "rejected"
    ? new ApiError("validation_failed", run.message!, { errors: [{ field: `hook.${action}[${run.failedStep}]`, code: "hook_assert", message: run.message! }] })
    : new ApiError("pre_hook_failed", `The ${table}.${action} hook failed at step ${run.failedStep}: ${run.message}. See the hook logs.`, {
        extra: { hook: `${table}.${action}`, step: run.failedStep },
      });

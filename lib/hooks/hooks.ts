// Pre hooks: per table and action, ordered `set` and `assert` steps in CEL, checked against the columns when
// saved, compiled once per schema load, and run inside the write's transaction before the statement.
import { ApiError, type FieldError, validationFailed } from "../errors";
import type { TableDef } from "../schema/types";
import { type AstNode, boundProgram } from "./bound-program";
import { type CelEnvironment, checkExpression, environmentFor, fits, setTypeOf } from "./cel";
import { isFile, isSecret } from "../schema/type-traits";

export const HOOK_ACTIONS = ["insert", "update", "delete"] as const;
export type HookAction = (typeof HOOK_ACTIONS)[number];

export type HookStep = { set: string; expr: string } | { assert: string; message: string };
export type Hooks = Record<HookAction, HookStep[]>;

export const NO_HOOKS: Hooks = { insert: [], update: [], delete: [] };

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
        // A hook cannot set a password (hashed on write) or a file column (its value names stored objects).
        if (AUTOMATIC.has(step.set) || !column || isSecret(column) || isFile(column)) {
          errors.push({ field: `${at}.set`, code: "unknown_column", message: `"${step.set}" is not a column a hook can set (automatic and password columns cannot be set)` });
        }
        const checked = checkExpression(env, table, step.expr, `${at}.expr`);
        errors.push(...checked.errors);
        if (column && !checked.errors.length && !fits(setTypeOf(column), checked.type, column.nullable)) {
          errors.push({ field: `${at}.expr`, code: "type_mismatch", message: `gives ${checked.type}, but "${column.name}" holds ${setTypeOf(column)}` });
        }
        hooks[action].push({ set: step.set, expr: step.expr });
      } else {
        const checked = checkExpression(env, table, step.assert, `${at}.assert`);
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

export type Program = (context: Record<string, unknown>) => unknown;

export type ValueKind = "int" | "password" | "plain";

export type CompiledHooks = {
  table: TableDef;
  steps: Record<HookAction, { step: HookStep; run: Program }[]>;
  /** How each column's value crosses into CEL (integers as BigInt, passwords hidden). */
  kinds: Map<string, ValueKind>;
};

/** Parses, checks and wraps one expression with the run-time cost bound (also hooks saved before it existed). */
const compileStep = (env: CelEnvironment) => (step: HookStep) => {
  const program = env.parse("set" in step ? step.expr : step.assert) as unknown as Program & { ast: AstNode; check: () => { valid: boolean; error?: Error } };
  const checked = program.check();
  // A stored step that no longer type-checks (its table changed) fails when run, never unbounded.
  const failing: Program = () => {
    throw new Error(checked.error?.message ?? "the step no longer type-checks");
  };
  if (checked.valid) boundProgram(program.ast);
  return { step, run: checked.valid ? (program as Program) : failing };
};

export const compileHooks = (table: TableDef, hooks: Hooks): CompiledHooks => {
  const compile = compileStep(environmentFor(table));
  const kinds = new Map<string, ValueKind>([["id", "int"]]);
  for (const c of table.columns) kinds.set(c.name, isSecret(c) ? "password" : setTypeOf(c) === "int" ? "int" : "plain");
  return { table, kinds, steps: { insert: hooks.insert.map(compile), update: hooks.update.map(compile), delete: hooks.delete.map(compile) } };
};

export const hasSteps = (hooks: CompiledHooks | undefined, action: HookAction) => (hooks?.steps[action].length ?? 0) > 0;

export type StepResult = { index: number; result?: unknown; error?: string };
export type HookRun = { status: "ok" | "rejected" | "failed"; sets: Record<string, unknown>; steps: StepResult[]; durationMs: number; message?: string; failedStep?: number };

export type HookInput = { new: Record<string, unknown>; old?: Record<string, unknown>; auth: { kind: string; id: number | null } };

/** The reply a refused or failed run becomes: 422 with the assert's message, or 500 pre_hook_failed. */
export const hookError = (table: string, action: HookAction, run: HookRun) =>
  run.status === "rejected"
    ? new ApiError("validation_failed", run.message!, { errors: [{ field: `hook.${action}[${run.failedStep}]`, code: "hook_assert", message: run.message! }] })
    : new ApiError("pre_hook_failed", `The ${table}.${action} hook failed at step ${run.failedStep}: ${run.message}. See the hook logs.`, {
        extra: { hook: `${table}.${action}`, step: run.failedStep },
      });

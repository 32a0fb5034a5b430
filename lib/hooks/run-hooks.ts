// Runs one action's steps for one row. The cost bound holds while a step runs (bound-program.ts: sizes checked
// before values are built, the deadline checked at every operation), and between steps a run that has held
// the event loop for YIELD_AFTER_MS lets other requests in; the 50 ms budget counts the steps' time, not the
// time spent letting others in, and a run past it has budget-clock.ts's grace to finish.
import { BudgetExceeded, enterStep, leaveStep, overrunPast, type RunClock } from "./budget-clock";
import type { CompiledHooks, HookAction, HookInput, HookRun, StepResult, ValueKind } from "./hooks";
import { BUDGET_MS, VALUE_LIMIT, YIELD_AFTER_MS } from "./limits";
import { sizeOf } from "./value-size";

/** When the current request last let the event loop go; shared by the rows of one write. */
export type Slice = { since: number };

export const newSlice = (): Slice => ({ since: performance.now() });

const letOthersIn = async (slice: Slice) => {
  await new Promise((resolve) => setImmediate(resolve));
  slice.since = performance.now();
};

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

const BUDGET_ERROR = `time budget of ${BUDGET_MS} ms exceeded`;

/** Runs one step under the run's clock; an error's first line is what the log and the reply show. */
const evaluate = (run: (context: Record<string, unknown>) => unknown, context: Record<string, unknown>, clock: RunClock) => {
  enterStep(clock);
  try {
    const value = run(context);
    if (sizeOf(value) > VALUE_LIMIT) return { error: `the step's result is larger than ${VALUE_LIMIT} (1 MiB)` };
    return { value: fromCel(value) };
  } catch (err) {
    return { error: err instanceof BudgetExceeded ? BUDGET_ERROR : (err as Error).message.split("\n")[0] };
  } finally {
    leaveStep();
  }
};

/** Runs one action's steps in order; never throws (the caller turns the outcome into a reply). */
export const runHooks = async (hooks: CompiledHooks, action: HookAction, input: HookInput, slice = newSlice()): Promise<HookRun> => {
  const clock: RunClock = { spent: 0 };
  const sets: Record<string, unknown> = {};
  const steps: StepResult[] = [];
  const celNew = toCel(hooks, input.new);
  const context = {
    new: celNew,
    old: toCel(hooks, input.old ?? {}),
    auth: { kind: input.auth.kind, id: input.auth.id === null ? null : BigInt(input.auth.id) },
    now: new Date(),
  };
  const end = (status: HookRun["status"], extra: Partial<HookRun> = {}): HookRun => ({ status, sets, steps, durationMs: clock.spent, ...extra });
  for (const [index, { step, run }] of hooks.steps[action].entries()) {
    if (performance.now() - slice.since >= YIELD_AFTER_MS) await letOthersIn(slice);
    const started = performance.now();
    const outcome = evaluate(run, context, clock);
    const ended = performance.now();
    clock.spent += ended - started;
    const error = outcome.error ?? (clock.spent > BUDGET_MS && overrunPast(clock, ended) ? BUDGET_ERROR : undefined);
    if (error !== undefined) {
      steps.push({ index, error });
      return end("failed", { failedStep: index, message: error === BUDGET_ERROR ? `the hook ran past its ${BUDGET_MS} ms budget` : error });
    }
    const value = outcome.value;
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

// A hook run's 50 ms budget is wall-clock time, so a pause of the whole process (a garbage collection, the
// machine's other work) can carry a tiny step past it. A run first seen past its budget gets a short grace:
// a paused step that then ends within it succeeds, and a step that really runs long is still stopped.
import { describe, expect, it } from "vitest";
import { BudgetExceeded, enterStep, leaveStep, OVERRUN_GRACE_MS, type RunClock, tick } from "../../lib/hooks/budget-clock";
import { BUDGET_MS } from "../../lib/hooks/limits";
import type { CompiledHooks } from "../../lib/hooks/hooks";
import { runHooks } from "../../lib/hooks/run-hooks";
import type { TableDef } from "../../lib/schema/types";

/** Holds the thread without running any hook operation, as a collection or a descheduled process does. */
const pause = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

const TABLE = { id: 1, name: "things", columns: [{ name: "title", type: "varchar" }] } as unknown as TableDef;

/** Hooks whose steps are plain functions: `pauses[i]` ms held before step i answers `true`-valued sets. */
const hooksThat = (...pauses: number[]): CompiledHooks => ({
  table: TABLE,
  kinds: new Map(),
  steps: {
    insert: pauses.map((ms) => ({ step: { set: "title", expr: "\"x\"" }, run: (() => (pause(ms), tick(), "x")) as never })),
    update: [],
    delete: [],
  },
});

const input = { new: { title: "a" }, auth: { kind: "key", id: null } };

describe("a hook run's budget forgives a pause, not a long run", () => {
  it("should allow: a step paused past the budget that ends at once after it succeeds", async () => {
    const run = await runHooks(hooksThat(BUDGET_MS + 15), "insert", input);
    expect(run.status, run.message).toBe("ok");
    expect(run.durationMs).toBeGreaterThan(BUDGET_MS);
  });

  it("should allow: a later step of a run a pause carried past its budget runs within the grace", async () => {
    const run = await runHooks(hooksThat(BUDGET_MS + 15, 0, 0), "insert", input);
    expect(run.status, run.message).toBe("ok");
    expect(run.steps).toHaveLength(3);
  });

  it("should block: a step that keeps running past the budget and the grace is stopped", () => {
    const clock: RunClock = { spent: 0 };
    const started = performance.now();
    enterStep(clock);
    let stopped: unknown;
    try {
      for (;;) tick();
    } catch (err) {
      stopped = err;
    } finally {
      leaveStep();
    }
    const ran = performance.now() - started;
    expect(stopped).toBeInstanceOf(BudgetExceeded);
    expect(ran).toBeGreaterThan(BUDGET_MS + OVERRUN_GRACE_MS);
    expect(ran).toBeLessThan(1_000);
  });

  it("should block: a run whose steps together outlast the grace fails at the step that ends past it", async () => {
    const run = await runHooks(hooksThat(BUDGET_MS + 1, OVERRUN_GRACE_MS + 5, 0), "insert", input);
    expect(run.status).toBe("failed");
    expect(run.failedStep).toBe(1);
    expect(run.message).toMatch(/50 ms budget/);
  });
});

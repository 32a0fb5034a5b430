// The 50 ms budget of one hook run, checked before every operation of a step (bound-program.ts). Past the
// wall-clock deadline the process's CPU time since the run began decides, so a server that was only
// descheduled or waiting does not fail a hook: the budget is the hook's own work. One CPU read per run.
import { BUDGET_MS } from "./limits";

export type Clock = { deadline: number; cpuBase: NodeJS.CpuUsage; spentAtBase: number };

export class BudgetExceeded extends Error {}

/** The clock of the step being evaluated; evaluation is synchronous, so one at a time. */
let current: Clock | undefined;

export const newClock = (): Clock => ({ deadline: Number.POSITIVE_INFINITY, cpuBase: process.cpuUsage(), spentAtBase: 0 });

/** The run's time so far by CPU: what it had spent at the base, plus the process's CPU time since. */
export const cpuSpent = (clock: Clock) => {
  const used = process.cpuUsage(clock.cpuBase);
  return clock.spentAtBase + (used.user + used.system) / 1000;
};

/** After the run let other requests in: their CPU time must not count. */
export const rebase = (clock: Clock, spent: number) => Object.assign(clock, { cpuBase: process.cpuUsage(), spentAtBase: spent });

export const enterStep = (clock: Clock, spent: number) => {
  clock.deadline = performance.now() + (BUDGET_MS - spent);
  current = clock;
};

export const leaveStep = () => {
  current = undefined;
};

export const tick = () => {
  if (!current || performance.now() <= current.deadline) return;
  const used = cpuSpent(current);
  if (used >= BUDGET_MS) throw new BudgetExceeded("time budget exceeded");
  current.deadline = performance.now() + (BUDGET_MS - used);
};

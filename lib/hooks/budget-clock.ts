// The 50 ms budget of one hook run, checked before every operation of a step (bound-program.ts) against the
// run's wall-clock deadline. (Reading the process's CPU time to forgive a descheduled server costs ~40 µs per
// read with the SQLite threads running, a sixth of a write, so the budget stays wall-clock time.)
import { BUDGET_MS } from "./limits";

export class BudgetExceeded extends Error {}

/** The deadline of the step being evaluated; evaluation is synchronous, so one at a time. */
let deadline = Number.POSITIVE_INFINITY;

/** Starts a step of a run that has spent `spent` ms of its budget. */
export const enterStep = (spent: number) => {
  deadline = performance.now() + (BUDGET_MS - spent);
};

export const leaveStep = () => {
  deadline = Number.POSITIVE_INFINITY;
};

export const tick = () => {
  if (performance.now() > deadline) throw new BudgetExceeded("time budget exceeded");
};

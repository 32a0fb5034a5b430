// The 50 ms budget of one hook run, checked before every operation of a step (bound-program.ts) against the
// run's wall-clock deadline. (Reading the process's CPU time to forgive a descheduled server costs ~40 µs per
// read with the SQLite threads running, a sixth of a write, so the budget stays wall-clock time.) A run seen
// past its budget has OVERRUN_GRACE_MS more to finish before it is stopped: one the whole process was paused
// in (a garbage collection, the machine's other work) ends within it, one that really runs long does not, so a
// run's time stays bounded by the budget and the grace.
import { BUDGET_MS } from "./limits";

export class BudgetExceeded extends Error {}

/** After a run is first seen past its budget, how long it may still run. */
export const OVERRUN_GRACE_MS = 10;

/** One run's time: the steps' wall-clock time so far, and when the run was first seen past its budget. */
export type RunClock = { spent: number; overrunSince?: number };

/** The run whose step is being evaluated, and that step's deadline; evaluation is synchronous, so one at a time. */
let current: RunClock | undefined;
let deadline = Number.POSITIVE_INFINITY;

/** Whether a run past its budget at `now` has also used up its grace (the first sighting starts the grace). */
export const overrunPast = (clock: RunClock, now: number) => {
  clock.overrunSince ??= now;
  return now - clock.overrunSince > OVERRUN_GRACE_MS;
};

/** Starts a step of the run `clock`. */
export const enterStep = (clock: RunClock) => {
  current = clock;
  deadline = performance.now() + (BUDGET_MS - clock.spent);
};

export const leaveStep = () => {
  current = undefined;
  deadline = Number.POSITIVE_INFINITY;
};

export const tick = () => {
  const now = performance.now();
  if (now > deadline && current && overrunPast(current, now)) throw new BudgetExceeded("time budget exceeded");
};

// Writes with a big body (a JSON value near its 1 MiB limit) take turns: one at a time per process, and each
// yields the event loop between its stages (parse, validate and write, reply). Their work is several slices of
// a few milliseconds, so other tenants' requests run between them instead of waiting behind three at once.

/** Bodies from this size (in UTF-16 units of the text, about bytes) take the lane. */
export const BIG_BODY_CHARS = 256 * 1024;

let tail: Promise<unknown> = Promise.resolve();

/** Lets the requests waiting on the event loop run before the current one goes on. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `fn` once the big writes before it have finished (FIFO), after a turn of the event loop. */
export const inBigLane = <T>(fn: () => Promise<T>): Promise<T> => {
  const run = tail.then(nextTurn).then(fn);
  tail = run.catch(() => undefined);
  return run;
};

/** Whether the values to write hold big texts (a json value is bound as its text): worth a turn before the statement. */
export const holdsBigText = (values: Record<string, unknown>) => {
  let chars = 0;
  for (const name in values) {
    const value = values[name];
    if (typeof value === "string") chars += value.length;
  }
  return chars >= BIG_BODY_CHARS;
};

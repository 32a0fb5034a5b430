// One run shared by callers that come together, none of which gets an answer older than its own call.

/**
 * `run` shared by concurrent callers: the first starts it; one that comes while it is in flight waits for the
 * single run queued after it, which starts once the first ends and so sees everything committed before that
 * caller asked. N callers at once cost at most two runs (the metadata version read, the event sequencer).
 */
export const joinNextRun = <T>(run: () => Promise<T>): (() => Promise<T>) => {
  let current: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const start = () => {
    const started: Promise<T> = run().finally(() => {
      if (current === started) current = undefined;
    });
    current = started;
    return started;
  };
  return () => {
    if (!current) return start();
    next ??= current
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
};

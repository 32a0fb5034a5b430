// A synchronous read shared by the callers of one event-loop turn, none of which gets an answer older than its call.

/**
 * `read` run once for all callers of one turn of the event loop: the first schedules it after the turn's I/O
 * callbacks (setImmediate), so it runs after every caller of the batch has called and each sees what was
 * committed before it asked. N requests parsed together cost one read instead of N.
 */
export const readOncePerTurn = <T>(read: () => T): (() => Promise<T>) => {
  let next: Promise<T> | undefined;
  return () =>
    (next ??= new Promise<T>((resolve, reject) =>
      setImmediate(() => {
        next = undefined;
        try {
          resolve(read());
        } catch (err) {
          reject(err);
        }
      }),
    ));
};

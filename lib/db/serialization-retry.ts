// Serialization failures (a deadlock, a lock wait that timed out, a Galera certification conflict) mean "this
// transaction lost a race", not "this request is wrong": the whole transaction is run again. When the retries
// run out the caller gets 409 write_conflict with retryable: true, never a 500.
import { ApiError } from "../errors";

/** MySQL/MariaDB: 1213 deadlock (also Galera's certification failure), 1205 lock wait timeout. */
const RETRYABLE_ERRNOS = new Set([1213, 1205]);

/** True for an engine error that asks for the transaction to be run again. */
export const isSerializationFailure = (err: unknown): boolean => {
  const e = err as { errno?: unknown; sqlState?: unknown; code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  if (typeof e.errno === "number" && RETRYABLE_ERRNOS.has(e.errno)) return true;
  if (e.sqlState === "40001") return true;
  if (e.code === "ER_LOCK_DEADLOCK" || e.code === "ER_LOCK_WAIT_TIMEOUT") return true;
  return typeof e.message === "string" && /try restarting transaction/i.test(e.message);
};

const writeConflict = () =>
  new ApiError("write_conflict", "Another write to the same rows won a race; nothing was written. Send the request again.", {
    extra: { retryable: true },
  });

export type RetryOptions = {
  /** Runs of the transaction in all, the first included. */
  attempts?: number;
  /** Mean wait before the second run, in ms; doubled each time, with full jitter. */
  baseDelayMs?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `run` (which must open and commit its own transaction, so a retry starts from nothing) again after a
 * serialization failure. Any other error is thrown as it is. Nothing is acknowledged twice: a run that threw
 * committed nothing.
 */
export const withSerializationRetry = async <T>(run: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> => {
  const attempts = options.attempts ?? 5;
  const base = options.baseDelayMs ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (err) {
      if (!isSerializationFailure(err)) throw err;
      if (attempt >= attempts) throw writeConflict();
      await sleep(Math.random() * base * 2 ** attempt);
    }
  }
};

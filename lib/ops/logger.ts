import pino, { type Logger } from "pino";

/**
 * The process's structured log: one JSON object per line on stdout, level from LOG_LEVEL (default info).
 * Writes go out asynchronously and coalesce under load; `flushLog` waits for them before the process exits.
 */
const destination = pino.destination({ dest: 1, sync: false, minLength: 0 });

export const logger: Logger = pino(
  {
    level: process.env.LOG_LEVEL || "info",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  destination,
);

/** Waits (at most 1 s) until every line written so far has reached stdout; call before process.exit. */
export const flushLog = () =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1_000);
    logger.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });

import pino, { type Logger } from "pino";
import { redactValue } from "./redact";

/**
 * The process's structured log: one JSON object per line on stdout, level from LOG_LEVEL (default info).
 * Written asynchronously (sonic-boom): a slow reader of stdout never blocks a request; lines wait in memory.
 * `endLog` writes what is pending, in order, before the process exits. Every argument is redacted first
 * (lib/ops/redact.ts): keys, JWTs, invite and reset links, access_token values never reach a line.
 */
const destination = pino.destination({ dest: 1, sync: false, minLength: 0 });

export const logger: Logger = pino(
  {
    level: process.env.LOG_LEVEL || "info",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((arg) => redactValue(arg)) as Parameters<typeof method>);
      },
    },
  },
  destination,
);

/** Ends the log (at most 1 s): every line written so far reaches stdout; call last, before process.exit. */
export const endLog = () =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1_000);
    destination.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    destination.end();
  });

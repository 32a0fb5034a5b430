import pino, { type Logger } from "pino";
import { redactText, redactValue } from "./redact";
import type { RouteClass } from "./route-class";

/**
 * The process's structured log: one JSON object per line on stdout, level from LOG_LEVEL (default info).
 * Written asynchronously (sonic-boom): a slow reader of stdout never blocks a request; lines wait in memory.
 * `endLog` writes what is pending, in order, before the process exits; request lines (logRequest) join the
 * stream within 10 ms, or before any other line logged sooner. Every argument is redacted first
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
        // Request lines still waiting for the end of their turn are older than this line: they go first.
        flushRequestLines();
        method.apply(this, args.map((arg) => redactValue(arg)) as Parameters<typeof method>);
      },
    },
  },
  destination,
);

// Request lines wait up to REQUEST_LINES_MS (or until REQUEST_LINES_CHARS are pending) and reach the destination
// in one write: each write is a system call, which under load cost more than the response's own.
const REQUEST_LINES_MS = 10;
const REQUEST_LINES_CHARS = 65_536;
let requestLines: string[] = [];
let pendingChars = 0;
let flushTimer: NodeJS.Timeout | undefined;
let ended = false;
const flushRequestLines = () => {
  if (flushTimer) clearTimeout(flushTimer), (flushTimer = undefined);
  if (requestLines.length && !ended) destination.write(requestLines.join(""));
  requestLines = [];
  pendingChars = 0;
};

/** Ends the log (at most 1 s): every line written so far reaches stdout; call last, before process.exit. */
export const endLog = () =>
  new Promise<void>((resolve) => {
    flushRequestLines();
    ended = true;
    const timer = setTimeout(resolve, 1_000);
    destination.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    destination.end();
  });

/** The fields of the one line each request gets (lib/ops/observe-request.ts). */
export type RequestLine = { reqId: string; method: string; route: RouteClass; path: string; status: number; ms: number; aborted?: boolean };

// A generated request id (lower-case hex and dashes) or a method (capitals) holds no secret and nothing to escape.
const PLAIN = /^(?:[0-9a-f-]{1,64}|[A-Z]{1,16})$/;
const quote = (text: string) => (PLAIN.test(text) ? `"${text}"` : JSON.stringify(redactText(text)));
let stampedAt = 0;
let stamp = "";

/**
 * `logger.info(line, "request")`, the same JSON line with the same redaction, built by hand: pino's generic
 * path (the hook's redacted copy, a walk over the keys, a Date per line) costs twice as much per line.
 */
export const logRequest = (line: RequestLine) => {
  if (!logger.isLevelEnabled("info")) return;
  const now = Date.now();
  if (now !== stampedAt) (stampedAt = now), (stamp = new Date(now).toISOString());
  const text = `{"level":"info","time":"${stamp}","pid":${process.pid},"reqId":${quote(line.reqId)},"method":${quote(line.method)},"route":"${line.route}","path":${quote(line.path)},"status":${line.status},"ms":${line.ms}${line.aborted ? ',"aborted":true' : ""},"msg":"request"}\n`;
  requestLines.push(text);
  pendingChars += text.length;
  if (pendingChars >= REQUEST_LINES_CHARS) flushRequestLines();
  else flushTimer ??= setTimeout(flushRequestLines, REQUEST_LINES_MS);
};

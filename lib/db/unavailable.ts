// A database that cannot be reached is the operator's outage, not the request's fault: the client is told to
// come back (503 with Retry-After) instead of getting a 500.
/** Seconds a client is asked to wait before retrying while a database is unreachable. */
export const UNAVAILABLE_RETRY_SECONDS = 5;

/** Network and connection-state failures of mysql2 (its fatal errors), and SQLite locked past busy_timeout. */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "PROTOCOL_CONNECTION_LOST",
  "PROTOCOL_SEQUENCE_TIMEOUT",
  "ER_CON_COUNT_ERROR",
  "ER_SERVER_SHUTDOWN",
  "ER_TOO_MANY_USER_CONNECTIONS",
  "SQLITE_BUSY",
]);

/** mysql2 refuses commands on a connection it already found dead; those errors carry no code. */
const CLOSED_STATE = /connection is in closed state|Pool is closed/;

export const isUnavailableError = (err: unknown): boolean => {
  const e = err as { code?: unknown; fatal?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
  if (e.fatal === true) return true;
  return typeof e.message === "string" && CLOSED_STATE.test(e.message);
};

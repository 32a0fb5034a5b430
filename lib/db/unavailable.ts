// A database that cannot be reached is the operator's outage, not the request's fault: the client is told to
// come back (503 with Retry-After) instead of getting a 500.
/** Seconds a client is asked to wait before retrying while a database is unreachable. */
export const UNAVAILABLE_RETRY_SECONDS = 5;
/** Seconds to wait when the server is only short of a resource (descriptors, connections) for a moment. */
export const SHORTAGE_RETRY_SECONDS = 1;

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

/**
 * Running out of file descriptors (EMFILE/ENFILE; SQLite's "unable to open database file") or of MySQL
 * connections (1040 too many connections; 1203 and 1226, a user's connection limit): a moment's shortage.
 */
const shortageMessage = (err: unknown): string | undefined => {
  const e = err as { code?: string; errno?: number } | null;
  if (!e || typeof e !== "object") return undefined;
  if (e.code === "EMFILE" || e.code === "ENFILE" || e.code === "SQLITE_CANTOPEN") return "The server has too many files open right now; retry in a moment.";
  if (e.errno === 1040 || e.errno === 1203 || e.errno === 1226) return "The database server has no free connection right now; retry in a moment.";
  return undefined;
};

export type Unavailability = { kind: "shortage" | "unreachable"; message?: string; retryAfter: number };

/** Why a failure is a 503 and when to retry, or undefined when it is not one (a shortage is checked first). */
export const unavailability = (err: unknown): Unavailability | undefined => {
  const message = shortageMessage(err);
  if (message) return { kind: "shortage", message, retryAfter: SHORTAGE_RETRY_SECONDS };
  return isUnreachable(err) ? { kind: "unreachable", retryAfter: UNAVAILABLE_RETRY_SECONDS } : undefined;
};

// A Galera node outside the primary component (lost quorum, joining, desynced) refuses every statement with
// 1047 "WSREP has not yet prepared node for application use": the node is unavailable, not the request wrong.
// A read that waits for the cluster (wsrep_sync_wait) on such a node ends in 1205; writes retry 1205 themselves
// (withSerializationRetry turns it into a 409), so one that reaches here is a read the node could not serve.
const isUnreachable = (err: unknown): boolean => {
  const e = err as { code?: unknown; errno?: unknown; fatal?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
  if (e.errno === 1047 || e.errno === 1205 || (typeof e.message === "string" && /WSREP has not yet prepared node/i.test(e.message))) return true;
  if (e.fatal === true) return true;
  return typeof e.message === "string" && CLOSED_STATE.test(e.message);
};

/** The SQL console's limits (docs/api.md, "SQL console and saved views"). */
export type ConsoleLimits = {
  timeMs: number;
  maxRows: number;
  /** Bytes of the rows' JSON; reading stops at the row that would pass it. */
  maxBytes: number;
};

export const CONSOLE_LIMITS: ConsoleLimits = { timeMs: 5_000, maxRows: 1_000, maxBytes: 4 * 1024 * 1024 };

/** Console requests running at once: per member (account) and per server process; past either, 429. */
export const CONSOLE_CONCURRENCY = { perMember: 2, perInstall: 8 };

/** SQLite: child processes kept to run console statements, reused across requests. */
export const SQLITE_CONSOLE_CHILDREN = 2;

/** MariaDB: connections per database's reader in this process, and the reader account's own cap (all processes). */
export const MYSQL_CONSOLE_POOL = { connections: 2, accountConnections: 4, idleMs: 10_000, pools: 16 };

/** Why rows were left out: more than `maxRows`, or more than `maxBytes` of JSON. */
export type TruncatedReason = "rows" | "bytes";

export type ConsoleResult = {
  columns: string[];
  /** Each column's type as the engine names it (MariaDB: its wire type; SQLite: the declared type, null for an expression). */
  column_types: (string | null)[];
  rows: unknown[][];
  truncated: boolean;
  truncated_reason?: TruncatedReason;
  ms: number;
};

/** Collects rows under the limits; `add` answers false once a row is refused (stop reading then). */
export const collectRows = (limits: Pick<ConsoleLimits, "maxRows" | "maxBytes">) => {
  const rows: unknown[][] = [];
  let bytes = 0;
  let reason: TruncatedReason | undefined;
  return {
    rows,
    add: (row: unknown[]): boolean => {
      if (reason) return false;
      if (rows.length === limits.maxRows) reason = "rows";
      else {
        const size = Buffer.byteLength(JSON.stringify(row));
        if (bytes + size > limits.maxBytes) reason = "bytes";
        else {
          bytes += size;
          rows.push(row);
          return true;
        }
      }
      return false;
    },
    truncation: (): Pick<ConsoleResult, "truncated" | "truncated_reason"> => (reason ? { truncated: true, truncated_reason: reason } : { truncated: false }),
  };
};

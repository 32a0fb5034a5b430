import mysql, { type FieldPacket, type Pool, type PoolConnection } from "mysql2";
import { invalidField } from "../errors";
import { collectRows, type ConsoleLimits, type ConsoleResult } from "./console-limits";

const ER_STATEMENT_TIMEOUT = 1969;

const cell = (v: unknown) => (Buffer.isBuffer(v) ? `\\x${v.subarray(0, 256).toString("hex")}${v.length > 256 ? "…" : ""}` : v);

const timeLimit = (limits: ConsoleLimits) =>
  invalidField("sql", "time_limit", `the query ran longer than ${limits.timeMs / 1000} s and was stopped; narrow it down with WHERE or LIMIT`);

const getConnection = (pool: Pool) =>
  new Promise<PoolConnection>((resolve, reject) => pool.getConnection((err, conn) => (err ? reject(err) : resolve(conn))));

const command = (conn: PoolConnection, sql: string) => new Promise<void>((resolve, reject) => conn.query(sql, (err) => (err ? reject(err) : resolve())));

/** Out of the pool, and the socket closed at once: mysql2's destroy() only half-closes it, and rows still sent would be read. */
const drop = (conn: PoolConnection) => {
  conn.destroy();
  (conn as unknown as { stream?: { destroy?: () => void } }).stream?.destroy?.();
};

/** Before a connection goes back to the pool: no transaction, and no named lock (those outlive a statement). */
const reset = async (conn: PoolConnection) => {
  await command(conn, "ROLLBACK");
  await command(conn, "DO RELEASE_ALL_LOCKS()");
};

/** mysql2's wire type names, in MariaDB's own words where they differ. */
const WIRE_NAMES: Record<string, string> = {
  TINY: "TINYINT", SHORT: "SMALLINT", LONG: "INT", INT24: "MEDIUMINT", LONGLONG: "BIGINT", NEWDECIMAL: "DECIMAL",
  VAR_STRING: "VARCHAR", STRING: "CHAR", TINY_BLOB: "TINYBLOB", MEDIUM_BLOB: "MEDIUMBLOB", LONG_BLOB: "LONGBLOB", NEWDATE: "DATE",
};
const BINARY_CHARSET = 63;

/** A result column's type as MariaDB sends it: text types are named as text unless their bytes are binary. */
const mysqlColumnType = (f: FieldPacket): string | null => {
  const wire = f.columnType === undefined ? undefined : (mysql.Types as unknown as Record<number, string>)[f.columnType];
  if (!wire) return null;
  const name = WIRE_NAMES[wire] ?? wire;
  if (/BLOB$/.test(name) && f.characterSet !== BINARY_CHARSET) return name.replace("BLOB", "TEXT");
  return name;
};

type Streamed = { result: ConsoleResult; complete: boolean };

/** Reads the result row by row under the limits; stops (complete: false) at the first row refused. */
const streamRows = (conn: PoolConnection, sql: string, limits: ConsoleLimits) =>
  new Promise<Streamed>((resolve, reject) => {
    const started = performance.now();
    const collected = collectRows(limits);
    let columns: string[] | undefined;
    let columnTypes: (string | null)[] = [];
    let settled = false;
    const finish = (complete: boolean) => {
      if (settled) return;
      settled = true;
      if (!columns) return reject(invalidField("sql", "not_a_select", "SQL returned no rows: the console runs only a SELECT"));
      resolve({ complete, result: { columns, column_types: columnTypes, rows: collected.rows, ...collected.truncation(), ms: Math.round(performance.now() - started) } });
    };
    const query = conn.query({ sql, rowsAsArray: true });
    query.on("fields", (fields: FieldPacket[]) => {
      columns = fields.map((f) => f.name);
      columnTypes = fields.map(mysqlColumnType);
    });
    query.on("result", (row: unknown) => {
      if (!settled && Array.isArray(row) && !collected.add(row.map(cell))) finish(false);
    });
    query.on("error", (err: Error) => {
      if (settled) return;
      settled = true;
      reject(err);
    });
    query.on("end", () => finish(true));
  });

/**
 * Runs a checked statement on a connection of the database's reader pool, in a READ ONLY transaction. The
 * connection's session (fixed sql_mode, max_statement_time, sql_select_limit) is set by the pool; a connection
 * whose result was not read to the end, or that failed, is destroyed rather than returned.
 */
export const runMysqlConsole = async (pool: Pool, statement: string, limits: ConsoleLimits): Promise<ConsoleResult> => {
  const conn = await getConnection(pool);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // A backstop for the server's own limit: the socket is dropped a second after it, and the request answered.
  const hardStop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      stopped = true;
      drop(conn);
      reject(new Error("stopped"));
    }, limits.timeMs + 1_000);
  });
  hardStop.catch(() => {});
  let reusable = false;
  try {
    await Promise.race([command(conn, "START TRANSACTION READ ONLY"), hardStop]);
    const { result, complete } = await Promise.race([streamRows(conn, statement, limits), hardStop]);
    if (complete) {
      await Promise.race([reset(conn), hardStop]);
      reusable = true;
    }
    return result;
  } catch (err) {
    const e = err as { errno?: number; sqlMessage?: string; fatal?: boolean };
    // The engine refused the statement: the connection itself is fine once its transaction is gone.
    if (!stopped && e.errno && !e.fatal) reusable = await reset(conn).then(() => true, () => false);
    if (stopped || e.errno === ER_STATEMENT_TIMEOUT) throw timeLimit(limits);
    if (e.errno && e.sqlMessage) throw invalidField("sql", "sql_error", `MariaDB: ${e.sqlMessage}`);
    throw err;
  } finally {
    clearTimeout(timer);
    if (reusable && !stopped) conn.release();
    else drop(conn);
  }
};

import { type Connection, createConnection, type FieldPacket } from "mysql2/promise";
import { mysqlConnectionOptions } from "../db/engine";
import { invalidField } from "../errors";
import { checkConsoleSql } from "./check-console-sql";
import type { ConsoleLimits, ConsoleResult } from "./console-limits";

const ER_STATEMENT_TIMEOUT = 1969;

const cell = (v: unknown) => (Buffer.isBuffer(v) ? `\\x${v.subarray(0, 256).toString("hex")}${v.length > 256 ? "…" : ""}` : v);

const connect = (url: string, database: string) => createConnection(mysqlConnectionOptions(url, database));

/**
 * A connection of its own, its default schema the user's: the statement runs in a READ ONLY transaction with
 * max_statement_time and sql_select_limit, under a fixed sql_mode (the checks read strings with backslash
 * escapes and `"` as text). Other schemas are listed first so the checks refuse each by name.
 */
export const runMysqlConsole = async (url: string, physical: string, sql: string, limits: ConsoleLimits): Promise<ConsoleResult> => {
  const conn: Connection = await connect(url, physical);
  // A backstop for the server's own limit: the socket is dropped a second after it.
  const hardStop = setTimeout(() => conn.destroy(), limits.timeMs + 1_000);
  try {
    const [schemas] = await conn.query("SELECT schema_name AS s FROM information_schema.schemata WHERE schema_name <> ?", [physical]);
    const statement = checkConsoleSql(sql, { engine: "mysql", otherSchemas: (schemas as { s: string }[]).map((r) => r.s) });
    await conn.query("SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION'");
    await conn.query(`SET SESSION max_statement_time = ${limits.timeMs / 1000}`);
    await conn.query(`SET SESSION sql_select_limit = ${limits.maxRows + 1}`);
    await conn.query("SET SESSION TRANSACTION READ ONLY");
    await conn.query("START TRANSACTION READ ONLY");
    const started = performance.now();
    const [rows, fields] = (await conn.query({ sql: statement, rowsAsArray: true })) as unknown as [unknown[][], FieldPacket[] | undefined];
    const ms = Math.round(performance.now() - started);
    if (!Array.isArray(rows) || !fields) throw invalidField("sql", "not_a_select", "SQL returned no rows: the console runs only a SELECT");
    await conn.query("ROLLBACK");
    return { columns: fields.map((f) => f.name), rows: rows.slice(0, limits.maxRows).map((r) => r.map(cell)), truncated: rows.length > limits.maxRows, ms };
  } catch (err) {
    const e = err as { errno?: number; sqlMessage?: string };
    if (e.errno === ER_STATEMENT_TIMEOUT) throw invalidField("sql", "time_limit", `the query ran longer than ${limits.timeMs / 1000} s and was stopped; narrow it down with WHERE or LIMIT`);
    if (e.errno && e.sqlMessage) throw invalidField("sql", "sql_error", `MariaDB: ${e.sqlMessage}`);
    throw err;
  } finally {
    clearTimeout(hardStop);
    conn.destroy();
  }
};

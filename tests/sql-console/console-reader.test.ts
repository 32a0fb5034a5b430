// The MariaDB account the SQL console runs as: even a statement the checks would refuse, run straight on the
// reader, reads nothing but the database's own tables. MariaDB only: SQLite has no accounts (its console runs
// on a read-only connection in a child process, tests/sql-console/sql-console.test.ts).
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { createPool, type Pool } from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metaSchemaName, mysqlConnectionOptions } from "../../lib/db/engine";
import { loadSchema } from "../../lib/meta/load-schema";
import { CONSOLE_LIMITS } from "../../lib/sql-console/console-limits";
import { createMysqlConsole, type MysqlConsole } from "../../lib/sql-console/mysql-console";
import { consoleReaderName } from "../../lib/sql-console/mysql-console-reader";
import { type Harness, startHarness } from "../helpers/harness";
import { type Account, newAccount } from "../teams/team-fixture";

const TABLES = [{ name: "books", columns: [{ name: "title", type: "varchar", nullable: false }] }];

describe.runIf(process.env.TEST_MYSQL_URL)("the SQL console's MariaDB reader account", () => {
  let h: Harness;
  let owner: Account;
  let root: Pool;
  let direct: MysqlConsole;
  const made: Record<string, { instance: string; physical: string }> = {};

  const makeDatabase = async (name: string) => {
    const db = await h.request("POST", "/api/v1/databases", { key: owner.key, body: { name, tables: TABLES } });
    expect(db.status, db.text).toBe(201);
    const physical = (await loadSchema(h.app, db.body.instance))!.physical;
    return { instance: db.body.instance as string, physical };
  };
  const readers = async (physical: string) => {
    const [rows] = await root.query("SELECT Host AS host FROM mysql.user WHERE User = ?", [consoleReaderName(physical)]);
    return (rows as { host: string }[]).map((r) => r.host);
  };
  /** Runs a statement as the reader without the checks: the account alone must hold. */
  const unchecked = (statement: string) => direct.run(made.mine.physical, statement).then((r) => r, (e: { body?: unknown; errors?: { code: string; message: string }[] }) => e.errors?.[0]);

  beforeAll(async () => {
    h = await startHarness("mysql", "node");
    owner = await newAccount(h, "team");
    root = createPool(mysqlConnectionOptions(process.env.TEST_MYSQL_URL!));
    made.mine = await makeDatabase("Mine");
    made.other = await makeDatabase("Other");
    const rows = await h.request("POST", `/v1/${made.mine.instance}/books`, { key: owner.key, body: [{ title: "Kindred" }] });
    expect(rows.status, rows.text).toBe(201);
    direct = createMysqlConsole({ url: h.app.config.databaseUrl!, secret: h.app.secret, limits: CONSOLE_LIMITS });
  }, 60_000);
  afterAll(async () => {
    await direct?.close();
    await root?.end();
    await h?.close();
  });

  it("is made with the database: SELECT on its schema only, a connection cap and a statement time limit", async () => {
    const [hosts] = await root.query("SELECT SUBSTRING_INDEX(CURRENT_USER(), '@', -1) AS host");
    expect(await readers(made.mine.physical)).toEqual([(hosts as { host: string }[])[0].host]);
    const [grants] = await root.query(`SHOW GRANTS FOR ?@?`, [consoleReaderName(made.mine.physical), (hosts as { host: string }[])[0].host]);
    const lines = (grants as Record<string, string>[]).map((g) => Object.values(g)[0].replace(/ IDENTIFIED BY PASSWORD '[^']*'/, ""));
    const schema = made.mine.physical.replace(/_/g, "\\_");
    expect(lines).toEqual([
      expect.stringMatching(/^GRANT USAGE ON \*\.\* TO `tabula_ro_[0-9a-f]{20}`@`[^`]+` WITH MAX_USER_CONNECTIONS 4 MAX_STATEMENT_TIME 5\.0+$/),
      expect.stringMatching(new RegExp(`^GRANT SELECT ON \`${schema.replace(/\\/g, "\\\\")}\`\\.\\* TO `)),
    ]);
  });

  it("reads the database's own tables (the allowed case)", async () => {
    expect(await unchecked("SELECT title FROM books")).toMatchObject({ columns: ["title"], rows: [["Kindred"]], truncated: false });
  });

  it.each([
    ["the metadata schema's accounts", () => `SELECT email, password_hash FROM \`${metaSchemaName(h.app.config.databaseUrl!)}\`.accounts`],
    ["another database of the install", () => `SELECT title FROM \`${made.other.physical}\`.books`],
    ["the server's user table", () => "SELECT user, password FROM mysql.user"],
  ])("cannot read %s, checks or not", async (_what, statement) => {
    expect(await unchecked(statement())).toEqual({ field: "sql", code: "sql_error", message: expect.stringMatching(/denied/i) });
  });

  it("sees only its own schema in information_schema", async () => {
    const result = await unchecked("SELECT schema_name FROM information_schema.schemata ORDER BY 1");
    expect(result).toMatchObject({ rows: [["information_schema"], [made.mine.physical]] });
  });

  it("reads no server file and writes none", async () => {
    expect(await unchecked("SELECT LOAD_FILE('/etc/hostname') AS f")).toMatchObject({ columns: ["f"], rows: [[null]] });
    const file = `/tmp/tabula-console-${randomBytes(4).toString("hex")}.txt`;
    expect(await unchecked(`SELECT title FROM books INTO OUTFILE '${file}'`)).toEqual({ field: "sql", code: "sql_error", message: expect.stringMatching(/denied/i) });
    expect(fs.existsSync(file)).toBe(false);
  });

  it("leaves no named lock behind on the connection it gives back to the pool", async () => {
    const name = `tabula-console-${randomBytes(4).toString("hex")}`;
    expect(await unchecked(`SELECT GET_LOCK('${name}', 0) AS got`)).toMatchObject({ rows: [[1]] });
    const [free] = await root.query("SELECT IS_FREE_LOCK(?) AS free", [name]);
    expect(free).toEqual([{ free: 1 }]);
  });

  it("is made again on first use when it is missing (a database from before the reader accounts)", async () => {
    for (const host of await readers(made.mine.physical)) await root.query("DROP USER ?@?", [consoleReaderName(made.mine.physical), host]);
    await h.app.sqlConsole.forget(made.mine.physical);
    const reply = await h.request("POST", `/api/v1/databases/${made.mine.instance}/sql`, { key: owner.key, body: { sql: "SELECT title FROM books" } });
    expect(reply.body, reply.text).toMatchObject({ columns: ["title"], rows: [["Kindred"]] });
    expect(await readers(made.mine.physical)).toHaveLength(1);
  });

  it("is dropped with its database", async () => {
    const gone = await makeDatabase("Gone");
    expect(await readers(gone.physical)).toHaveLength(1);
    const reply = await h.request("DELETE", `/api/v1/databases/${gone.instance}`, { key: owner.key });
    expect(reply.status, reply.text).toBe(204);
    expect(await readers(gone.physical)).toEqual([]);
  });

  it("keeps its connections between requests (one connection serves two statements in turn)", async () => {
    const ask = () => h.request("POST", `/api/v1/databases/${made.mine.instance}/sql`, { key: owner.key, body: { sql: "SELECT CONNECTION_ID() AS id" } });
    const [first, second] = [await ask(), await ask()];
    expect(first.status, first.text).toBe(200);
    expect(second.body.rows).toEqual(first.body.rows);
  });
});

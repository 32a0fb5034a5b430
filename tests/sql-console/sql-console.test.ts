// The SQL console on each engine: one read-only SELECT over the database's own tables, 1,000 rows, 5 s.
// Hostile SQL is refused with a 422 on `sql` naming why, and the data (and the other schemas) stay as they were.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSchema } from "../../lib/meta/load-schema";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type Account, addMember, newAccount } from "../teams/team-fixture";

const TABLES = [
  { name: "authors", columns: [{ name: "name", type: "varchar", nullable: false }] },
  { name: "books", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "price", type: "decimal", precision: 10, scale: 2 }, { name: "author_id", type: "reference", references: "authors" }] },
];

/** [what it tries, the SQL, the refusal code on sqlite, on mysql]. */
const HOSTILE: [string, string, string, string][] = [
  ["an INSERT", "INSERT INTO books (title) VALUES ('x')", "not_a_select", "not_a_select"],
  ["an UPDATE", "UPDATE books SET price = 0", "not_a_select", "not_a_select"],
  ["a DELETE", "DELETE FROM books", "not_a_select", "not_a_select"],
  ["a DROP TABLE", "DROP TABLE books", "not_a_select", "not_a_select"],
  ["a CREATE TABLE … AS SELECT", "CREATE TABLE stolen AS SELECT * FROM books", "not_a_select", "not_a_select"],
  ["an ALTER TABLE", "ALTER TABLE books ADD COLUMN x INT", "not_a_select", "not_a_select"],
  ["a second statement after a SELECT", "SELECT 1; DELETE FROM books", "multiple_statements", "multiple_statements"],
  ["a second statement hidden after a comment", "SELECT 1 /* c */ ; DROP TABLE books", "multiple_statements", "multiple_statements"],
  ["a CTE that deletes", "WITH gone AS (DELETE FROM books RETURNING id) SELECT * FROM gone", "refused_keyword", "refused_keyword"],
  ["a SELECT that writes a file", "SELECT * FROM books INTO OUTFILE '/tmp/tabula-stolen.csv'", "refused_keyword", "refused_keyword"],
  ["a SELECT into a dump file", "SELECT title FROM books LIMIT 1 INTO DUMPFILE '/tmp/tabula-stolen.bin'", "refused_keyword", "refused_keyword"],
  ["reading a server file", "SELECT LOAD_FILE('/etc/passwd')", "refused_keyword", "refused_keyword"],
  ["sleeping", "SELECT SLEEP(10)", "refused_keyword", "refused_keyword"],
  ["a benchmark loop", "SELECT BENCHMARK(100000000, MD5('x'))", "refused_keyword", "refused_keyword"],
  ["a lock", "SELECT GET_LOCK('x', 10)", "refused_keyword", "refused_keyword"],
  ["a locking read", "SELECT * FROM books FOR UPDATE", "refused_keyword", "refused_keyword"],
  ["ATTACH", "ATTACH DATABASE '/tmp/tabula-attached.db' AS other", "not_a_select", "not_a_select"],
  ["ATTACH inside a SELECT", "SELECT 1 FROM books WHERE 1 = (ATTACH '/tmp/x.db' AS y)", "refused_keyword", "refused_keyword"],
  ["a pragma", "PRAGMA writable_schema = ON", "not_a_select", "not_a_select"],
  ["a pragma table function", "SELECT * FROM pragma_table_info('books')", "other_schema", "other_schema"],
  ["the SQLite catalog", "SELECT sql FROM sqlite_master", "other_schema", "other_schema"],
  ["the SQLite catalog, quoted", 'SELECT sql FROM "sqlite_schema"', "other_schema", "sql_error"],
  ["information_schema", "SELECT table_schema, table_name FROM information_schema.tables", "other_schema", "other_schema"],
  ["the mysql schema", "SELECT user, password FROM mysql.user", "other_schema", "other_schema"],
  ["the mysql schema, quoted", "SELECT * FROM `mysql`.`user`", "other_schema", "other_schema"],
  ["a session variable", "SELECT @a := 1", "variables", "variables"],
  ["a system variable", "SELECT @@datadir", "variables", "variables"],
  ["an executable comment", "SELECT 1 /*! , LOAD_FILE('/etc/passwd') */", "executable_comment", "executable_comment"],
  ["a string that hides a DROP from a naive reader", "SELECT 'it''s' AS a; DROP TABLE books", "multiple_statements", "multiple_statements"],
  ["a SET", "SET GLOBAL max_connections = 1", "not_a_select", "not_a_select"],
  ["SHOW", "SHOW DATABASES", "not_a_select", "not_a_select"],
  ["a load_extension call", "SELECT load_extension('/tmp/evil.so')", "refused_keyword", "refused_keyword"],
  ["an empty text", "  -- nothing\n", "empty", "empty"],
  ["a backtick-quoted LOAD_FILE call", "SELECT `LOAD_FILE`('/etc/passwd')", "refused_keyword", "refused_keyword"],
  ["a backtick-quoted, lower-case load_file call after a space", "SELECT `load_file` ('/etc/passwd')", "refused_keyword", "refused_keyword"],
  ["a backtick-quoted SLEEP call", "SELECT `SLEEP`(10)", "refused_keyword", "refused_keyword"],
  ["a backtick-quoted BENCHMARK call", "SELECT `BENCHMARK`(100000000, MD5('x'))", "refused_keyword", "refused_keyword"],
  ["a backtick-quoted GET_LOCK call", "SELECT `GET_LOCK`('x', 10)", "refused_keyword", "refused_keyword"],
];

/** `--` and then a space that is not ASCII: MariaDB starts no comment there (SQLite always does). */
const NON_ASCII_SPACES = ["\u00a0", "\u3000", "\ufeff", "\u2028"];

describe.each(ENGINES)("the SQL console on %s", (engine) => {
  let h: Harness;
  let owner: Account;
  let instance = "";
  const run = (sql: string, key = owner.key) => h.request("POST", `/api/v1/databases/${instance}/sql`, { key, body: { sql } });
  const snapshot = async () => ({
    books: (await h.request("GET", `/v1/${instance}/books?_sort=id`, { key: owner.key })).body,
    authors: (await h.request("GET", `/v1/${instance}/authors?_sort=id`, { key: owner.key })).body,
  });

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    owner = await newAccount(h, "team");
    const db = await h.request("POST", "/api/v1/databases", { key: owner.key, body: { name: "Console", tables: TABLES } });
    expect(db.status, db.text).toBe(201);
    instance = db.body.instance;
    const authors = await h.request("POST", `/v1/${instance}/authors`, { key: owner.key, body: [{ name: "Le Guin" }, { name: "Butler" }] });
    expect(authors.status, authors.text).toBe(201);
    const books = Array.from({ length: 1005 }, (_, i) => ({ title: `Book ${i + 1}`, price: (i % 50) + 0.5, author_id: (i % 2) + 1 }));
    for (const part of [books.slice(0, 1000), books.slice(1000)]) {
      const made = await h.request("POST", `/v1/${instance}/books`, { key: owner.key, body: part });
      expect(made.status, made.text).toBe(201);
    }
  }, 120_000);
  afterAll(async () => h?.close());

  it("runs a SELECT with a join and answers columns, rows, truncated and ms", async () => {
    const reply = await run("SELECT b.title, a.name AS author, b.price FROM books b JOIN authors a ON a.id = b.author_id WHERE b.id <= 2 ORDER BY b.id;");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.columns).toEqual(["title", "author", "price"]);
    expect(reply.body.rows.map((r: unknown[]) => [r[0], r[1], Number(r[2])])).toEqual([["Book 1", "Le Guin", 0.5], ["Book 2", "Butler", 1.5]]);
    expect(reply.body.truncated).toBe(false);
    expect(reply.body.ms).toBeTypeOf("number");
  });

  it("names each result column's type as the engine does, beside its name", async () => {
    const reply = await run("SELECT b.id, b.title, b.price, COUNT(*) AS n FROM books b WHERE b.id IN (100, 200) GROUP BY b.id, b.title, b.price ORDER BY b.id");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.columns).toEqual(["id", "title", "price", "n"]);
    expect(reply.body.rows.map((r: unknown[]) => Number(r[0]))).toEqual([100, 200]);
    // SQLite types values, not results: a column read from a table has its declared type, an expression none.
    expect(reply.body.column_types).toEqual(engine === "mysql" ? ["BIGINT", "VARCHAR", "DECIMAL", "BIGINT"] : ["INTEGER", "TEXT", "REAL", null]);
  });

  it("keeps repeated column names apart, as arrays of cells", async () => {
    const reply = await run("WITH t AS (SELECT 1 AS n) SELECT n, n FROM t");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ columns: ["n", "n"], rows: [[1, 1]], truncated: false });
  });

  it("returns at most 1,000 rows and says the rest was cut", async () => {
    const reply = await run("SELECT id FROM books ORDER BY id");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.rows).toHaveLength(1000);
    expect(reply.body.rows[999]).toEqual([1000]);
    expect(reply.body).toMatchObject({ truncated: true, truncated_reason: "rows" });
  });

  it("names the engine's own error for a table that does not exist", async () => {
    const reply = await run("SELECT * FROM nowhere");
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([{ field: "sql", code: "sql_error", message: expect.stringMatching(/nowhere/) }]);
  });

  it.each(HOSTILE)("refuses %s with a 422 naming why, and nothing changes", async (_what, sql, sqliteCode, mysqlCode) => {
    const before = await snapshot();
    const reply = await run(sql);
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body).toMatchObject({ error: "validation_failed", errors: [{ field: "sql", code: engine === "mysql" ? mysqlCode : sqliteCode }] });
    expect(reply.body.errors[0].message).toBeTypeOf("string");
    expect(await snapshot()).toEqual(before);
  });

  it.each(NON_ASCII_SPACES.map((sp) => [`U+${sp.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`, sp]))(
    "reads `--` and %s as code on MariaDB (refused when it hides a read of another schema) and as a comment on SQLite",
    async (_name, sp) => {
      const hidden = `WITH c AS (SELECT 0 AS \`${sp}\`) SELECT 1 AS one --${sp} , (SELECT group_concat(user) FROM mysql.user)\nFROM c`;
      const reply = await run(hidden);
      if (engine === "mysql") expect(reply.body, reply.text).toMatchObject({ error: "validation_failed", errors: [{ field: "sql", code: "other_schema" }] });
      else expect(reply.body, reply.text).toMatchObject({ columns: ["one"], rows: [[1]] });
      const file = await run(`WITH c AS (SELECT 0 AS \`${sp}\`) SELECT 1 AS one --${sp} , LOAD_FILE('/etc/hostname')\nFROM c`);
      if (engine === "mysql") expect(file.body.errors?.[0]?.code, file.text).toBe("refused_keyword");
      else expect(file.status, file.text).toBe(200);
    },
  );

  it("runs a SELECT with comments, backtick-quoted names and a quoted function call", async () => {
    const hash = engine === "mysql" ? "# a MariaDB comment\n" : "";
    const reply = await run(`SELECT \`title\` AS \`load_file\`, \`UPPER\`(title) AS \`sleep\` -- the title twice\n${hash}FROM books /* the first */ WHERE id = 1`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ columns: ["load_file", "sleep"], rows: [["Book 1", "BOOK 1"]], truncated: false });
  });

  it("stops a query past 5 s with a 422 and answers the next one", async () => {
    const heavy = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3000) SELECT count(*) FROM c x, c y, c z";
    const started = Date.now();
    const reply = await run(heavy);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body.errors).toEqual([{ field: "sql", code: "time_limit", message: "the query ran longer than 5 s and was stopped; narrow it down with WHERE or LIMIT" }]);
    expect((await run("SELECT count(*) FROM books")).body.rows).toEqual([[1005]]);
  }, 20_000);

  it("refuses the other databases of the install by name", async () => {
    const other = await h.request("POST", "/api/v1/databases", { key: owner.key, body: { name: "Other", tables: TABLES } });
    expect(other.status, other.text).toBe(201);
    const physical = engine === "mysql" ? (await loadSchema(h.app, other.body.instance))?.physical : undefined;
    if (!physical) return; // SQLite: another database is another file, out of reach without ATTACH (refused above).
    const reply = await run(`SELECT * FROM \`${physical}\`.books`);
    expect(reply.body.errors?.[0]?.code, reply.text).toBe("other_schema");
  });

  describe("who may run it", () => {
    const ROLES: [string, number][] = [["viewer", 403], ["editor", 403], ["admin", 200]];
    it.each(ROLES)("a workspace %s gets %i", async (role, status) => {
      const member = await addMember(h, owner, role);
      const reply = await run("SELECT count(*) AS n FROM authors", member.key);
      expect(reply.status, reply.text).toBe(status);
      if (status === 200) expect(reply.body.rows).toEqual([[2]]);
      else expect(reply.body.error).toBe("forbidden");
    });

    it("the owner runs it, an account outside the workspace is refused", async () => {
      expect((await run("SELECT 1 AS one")).status).toBe(200);
      const stranger = await newAccount(h);
      const reply = await run("SELECT 1 AS one", stranger.key);
      expect([401, 403, 404]).toContain(reply.status);
    });
  });
});

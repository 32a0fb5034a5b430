// SQL mode: valid SELECT … JOIN statements become definitions; hostile or unsupported SQL is refused with a
// 422 on field "sql" whose message names the problem and its position. Parsing does not touch the engine, but
// the suite runs on every engine so the accepted joins are also read back on each.
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { list, useHarness } from "../contract/contract-helpers";
import { BOOKS_JOIN, CATALOG, seedCatalog } from "./join-fixture";

const HOSTILE: [string, string, string][] = [
  ["a write", "DELETE FROM books WHERE id = 1", "only a SELECT is allowed (found DELETE) (at line 1, column 1)"],
  ["an insert", "INSERT INTO books (title) VALUES ('x')", "only a SELECT is allowed (found INSERT) (at line 1, column 1)"],
  ["a second statement", "SELECT b.title FROM books b JOIN authors a ON b.author_id = a.id; DROP TABLE books", "only one SELECT statement is allowed (at line 1, column 65)"],
  ["UNION", "SELECT b.title FROM books b JOIN authors a ON b.author_id = a.id\nUNION SELECT a.name FROM authors a JOIN books b ON b.author_id = a.id", "UNION is not allowed; a join is one SELECT (at line 2, column 7)"],
  ["a subquery in FROM", "SELECT x.title FROM (SELECT * FROM books) x JOIN authors a ON x.author_id = a.id", "subqueries are not allowed in FROM (at line 1, column 22)"],
  ["a subquery as a column", "SELECT (SELECT password FROM users LIMIT 1) AS p, b.title FROM books b JOIN authors a ON b.author_id = a.id", "subqueries are not allowed (at line 1, column 9)"],
  ["another database", "SELECT b.title FROM mysql.user b JOIN authors a ON b.author_id = a.id", "\"mysql.user\": only tables of this database are allowed (no database prefix) (at line 1, column 21)"],
  ["SLEEP", "SELECT SLEEP(5) AS s, b.title FROM books b JOIN authors a ON b.author_id = a.id", "function SLEEP() is not allowed; list table columns only (at line 1, column 8)"],
  ["LOAD_FILE", "SELECT b.title, LOAD_FILE('/etc/passwd') AS f FROM books b JOIN authors a ON b.author_id = a.id", "function LOAD_FILE() is not allowed; list table columns only (at line 1, column 17)"],
  ["a function in ON", "SELECT b.title FROM books b JOIN authors a ON b.author_id = a.id AND BENCHMARK(1000000, MD5('x')) = 0", "function BENCHMARK() is not allowed; list table columns only (at line 1, column 70)"],
  ["a system variable", "SELECT @@version AS v, b.title FROM books b JOIN authors a ON b.author_id = a.id", "variables (@@version) are not allowed (at line 1, column 8)"],
  ["an executable comment", "SELECT b.title /*!50000 , LOAD_FILE('/etc/passwd') */ FROM books b JOIN authors a ON b.author_id = a.id", "comments are not allowed in a join's SQL (at line 1, column 16)"],
  ["a line comment", "SELECT b.title FROM books b -- JOIN nothing\nJOIN authors a ON b.author_id = a.id", "comments are not allowed in a join's SQL (at line 1, column 29)"],
  ["INTO OUTFILE", "SELECT b.title FROM books b JOIN authors a ON b.author_id = a.id INTO OUTFILE '/tmp/x'", "SELECT … INTO is not allowed (at line 1, column 66)"],
  ["a WHERE clause", "SELECT b.title FROM books b JOIN authors a ON b.author_id = a.id WHERE a.id = 1", "WHERE is not allowed: filters come from query parameters (?column=value) (at line 1, column 72)"],
  ["a RIGHT JOIN", "SELECT b.title FROM books b RIGHT JOIN authors a ON b.author_id = a.id", "RIGHT JOIN is not supported; use INNER JOIN or LEFT JOIN (at line 1, column 40)"],
  ["SELECT *", "SELECT * FROM books b JOIN authors a ON b.author_id = a.id", "list the columns explicitly (no *) (at line 1, column 8)"],
  ["an unknown table", "SELECT b.title FROM books b JOIN secrets s ON b.id = s.book_id", "\"secrets\" is not a table of this database (at line 1, column 34)"],
  ["an unknown column", "SELECT b.nope FROM books b JOIN authors a ON b.author_id = a.id", "table \"books\" has no column \"nope\" (at line 1, column 8)"],
  ["a non-equality ON", "SELECT b.title FROM books b JOIN authors a ON b.author_id > a.id", "ON may only AND together equalities of two columns (found >) (at line 1, column 47)"],
  ["a constant in ON (OR 1=1)", "SELECT b.title FROM books b JOIN authors a ON b.author_id = a.id OR 1 = 1", "ON may only AND together equalities of two columns (found OR) (at line 1, column 47)"],
  ["a comma join", "SELECT b.title FROM books b, authors a", "join tables with INNER JOIN … ON, not a comma (at line 1, column 30)"],
  ["no join at all", "SELECT b.title FROM books b", "a join needs FROM a table and at least one INNER JOIN or LEFT JOIN … ON (at line 1, column 16)"],
  ["a syntax error", "SELECT b.title FROM books b JOIN authors a ON", "syntax error: unexpected the end of the text (at line 1, column 46)"],
  ["a string literal column (holding comment marks)", "SELECT '-- /*' AS x, b.title FROM books b JOIN authors a ON b.author_id = a.id", "only table columns written as table.column are allowed here (found single_quote_string) (at line 1, column 8)"],
];

describe.each(ENGINES.map((engine) => ({ engine, adapter: "node" as const })))("SQL mode on $engine", (target) => {
  const ctx = useHarness(target);
  let instance = "";
  let base = "";
  let mgmt = "";

  beforeAll(async () => {
    ({ instance, base } = await seedCatalog(ctx.h, "Sql mode"));
    mgmt = `/api/v1/databases/${instance}/joins`;
  });

  it.each(HOSTILE)("refuses %s with a 422 naming the position", async (_label, sql, message) => {
    const reply = await ctx.h.request("POST", mgmt, { body: { name: "hostile", sql } });
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 422,
      body: { error: "validation_failed", message, errors: [{ field: "sql", code: expect.stringMatching(/^(sql_|unknown_)/), message }] },
    });
  });

  it("saves none of the refused joins", async () => {
    expect((await ctx.h.request("GET", mgmt)).body).toEqual([]);
  });

  it.each([
    ["aliases, AS and a reversed ON", "SELECT b.title AS title, a.name AS author\nFROM books AS b\nINNER JOIN authors AS a ON a.id = b.author_id"],
    ["bare table names and an AND of key pairs", "select books.title, authors.name as author from books join authors on books.author_id = authors.id and books.author_id = authors.id"],
    ["backquoted keywords as names and a trailing semicolon", "SELECT `b`.`title`, `c`.`public` AS `public` FROM `books` `b` JOIN `categories` `c` ON `b`.`category_id` = `c`.`id`;"],
    ["several lines, tabs and backquoted names", "SELECT\tb.title AS `title`\n  FROM books b\n\tJOIN `authors` a\n    ON b.author_id = a.id\n"],
  ])("accepts %s", async (_label, sql) => {
    const reply = await ctx.h.request("POST", `${mgmt}/preview`, { body: { sql } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.rows.length).toBeGreaterThan(0);
  });

  it("a join made in SQL mode reads like the structured one", async () => {
    const sql = "SELECT b.id, b.title, b.price, a.name AS author, a.country, c.label AS category FROM books b JOIN authors a ON b.author_id = a.id JOIN categories c ON b.category_id = c.id";
    const made = await ctx.h.request("POST", mgmt, { body: { name: "catalog", sql } });
    expect(made.status, made.text).toBe(201);
    expect({ ...made.body, sql: undefined, path: undefined }).toEqual({ ...BOOKS_JOIN, sql: undefined, path: undefined });
    expect(await list(ctx.h, `${base}/catalog`)).toEqual(CATALOG);
  });

  it("keys that cannot be compared are refused on the sql field", async () => {
    const reply = await ctx.h.request("POST", mgmt, { body: { name: "bad", sql: "SELECT b.title FROM books b JOIN authors a ON b.title = a.id" } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual([
      { field: "sql", code: "incompatible_keys", message: "joins[0].on[0]: books.title (varchar) and authors.id (bigint) cannot be compared as keys (joins[0].on[0])" },
    ]);
  });
});

// `_like` / `_ilike` give the same rows through every read path (table list with and without other filters and
// sorts, a statement reused from the per-shape cache, the count, a join path, a JWT user under a row policy),
// for ASCII and non-ASCII patterns and values, and exactly the rows the SQL before the LIKE fast path chose
// (SQLite runs an ASCII `_ilike` as `LIKE … ESCAPE`; the earlier expressions are run here beside it).
// Every case runs again on `search_words`, the same rows in a `searchable` column (SQLite answers
// values of 3+ characters through a trigram index), and must give the same rows.
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, insert, list, MATRIX, qs, useHarness } from "../contract/contract-helpers";
import { bearer, enableAuth, login, putPolicies } from "../security/security-fixture";
import { loadSchema } from "../../lib/meta/load-schema";

const WORDS = [
  "ÉCOLE", "école", "Ecole", "ecole", "haute école", "straße", "STRASSE", "Strasse", "ß", "ẞ", "100%", "100x", "a_b", "axb",
  "A_B", "Kelvin \u212a", "kelvin k", "naïve", "NAÏVE", "ÆON", "æon", "plain", "PLAIN text", "pad ", "x!y", "x!!y", "tab\tx",
  'say "hi"', "smile 😀x", "İstanbul", "istanbul",
];

const PATTERNS = [
  "ecole", "ECOLE", "École", "école", "ÉCOLE", "cole", "COLE", "%", "0%", "_", "a_b", "A_B", "ß", "ẞ", "ss", "SS", "straße", "STRASSE",
  "k", "K", "\u212a", "naïve", "NAÏVE", "æ", "Æ", "plain", "Plain", "pad", "d ", "!", "x!y", "!!", "\t",
  // Long enough for the trigram index: folding it does that LIKE does not (the Kelvin sign, "İ"), quotes, a
  // 2-code-point value 3 UTF-16 units long, `%` and `_` inside.
  "elvin k", "ELVIN \u212a", '"hi"', 'y "h', "😀x", "e 😀x", "stan", "İstan", "ISTAN", "100%", "x!!y", "b\tx", "ain te",
];

const escapeLike = (value: string) => `%${value.replace(/[!%_]/g, (c) => `!${c}`)}%`;

describe.each(MATRIX)("_like and _ilike through every read path on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let instance = "";
  let token = "";
  const ids = (rows: { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);

  /** The rows the SQL before the LIKE fast path chose, run directly on the user database. */
  const before = async (op: "like" | "ilike", pattern: string, table = "words") => {
    const schema = (await loadSchema(ctx.h.app, instance))!;
    const udb = ctx.h.app.engine.userDb(schema.physical);
    const col = sql.id("word");
    const mysql = udb.engine === "mysql";
    const where =
      op === "like"
        ? mysql ? sql`${col} LIKE ${escapeLike(pattern)} ESCAPE '!'` : sql`instr(${col}, ${pattern}) > 0`
        : mysql
          ? sql`LOWER(${col}) LIKE LOWER(${escapeLike(pattern)}) ESCAPE '!'`
          : /^[\x00-\x7f]*$/.test(pattern)
            ? sql`instr(lower(${col}), lower(${pattern})) > 0`
            : sql`instr(unicode_lower(${col}), ${pattern.toLowerCase()}) > 0`;
    const { rows } = await sql<{ id: number }>`SELECT ${sql.id("id")} FROM ${udb.table(table)} WHERE ${where} ORDER BY ${sql.id("id")}`.execute(udb.db);
    return rows.map((r) => Number(r.id));
  };

  beforeAll(async () => {
    instance = await createDatabase(ctx.h, "Like paths", [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
      { name: "words", columns: [{ name: "word", type: "varchar", length: 40 }, { name: "n", type: "int" }] },
      { name: "notes", columns: [{ name: "word_id", type: "reference", references: "words" }, { name: "note", type: "varchar" }] },
      { name: "search_words", columns: [{ name: "word", type: "varchar", length: 40, searchable: true }, { name: "n", type: "int" }] },
    ]);
    const created = await insert(ctx.h, `/v1/${instance}/words`, WORDS.map((word, n) => ({ word, n })));
    await insert(ctx.h, `/v1/${instance}/search_words`, WORDS.map((word, n) => ({ word, n })));
    await insert(ctx.h, `/v1/${instance}/notes`, created.map((w: { id: number }) => ({ word_id: w.id, note: "n" })));
    const join = await ctx.h.request("POST", `/api/v1/databases/${instance}/joins`, {
      body: { name: "word_notes", base: "notes", joins: [{ table: "words", on: [["notes.word_id", "words.id"]] }], columns: [{ column: "words.id", as: "id" }, { column: "words.word", as: "word" }] },
    });
    expect(join.status, join.text).toBe(201);
    await enableAuth(ctx.h, instance);
    await putPolicies(ctx.h, instance, "words", { select: "n >= 0" });
    await putPolicies(ctx.h, instance, "search_words", { select: "n >= 0" });
    await insert(ctx.h, `/v1/${instance}/users`, { email: "u@example.com", password: "user-password-1" });
    token = await login(ctx.h, instance, "u@example.com", "user-password-1");
  });

  it("matches the expected rows on cases that pin the contract down", async () => {
    const words = async (params: Record<string, string>) =>
      (await list(ctx.h, `/v1/${instance}/words?${qs({ ...params, _limit: 1000 })}`)).map((r) => r.word as string);
    expect(await words({ word_ilike: "ecole" })).toEqual(["Ecole", "ecole"]);
    expect(await words({ word_ilike: "école" })).toEqual(["ÉCOLE", "école", "haute école"]);
    expect(await words({ word_like: "école" })).toEqual(["école", "haute école"]);
    expect(await words({ word_ilike: "0%" })).toEqual(["100%"]);
    expect(await words({ word_ilike: "a_b" })).toEqual(["a_b", "A_B"]);
    expect(await words({ word_like: "a_b" })).toEqual(["a_b"]);
    expect(await words({ word_ilike: "x!y" })).toEqual(["x!y"]);
    expect(await words({ word_ilike: "straße" })).toEqual(["straße"]);
    expect(await words({ word_ilike: "strasse" })).toEqual(["STRASSE", "Strasse"]);
    expect(await words({ word_ilike: "NAÏVE" })).toEqual(["naïve", "NAÏVE"]);
  });

  it.each(PATTERNS)("pattern %j: every path returns the rows the old SQL chose", async (pattern) => {
    for (const op of ["like", "ilike"] as const) {
      const expected = await before(op, pattern);
      const param = `word_${op}`;
      const path = (extra: Record<string, string | number> = {}) => `/v1/${instance}/words?${qs({ [param]: pattern, _limit: 1000, ...extra })}`;
      // Twice: the second read runs the statement cached for this shape with the same values.
      expect(ids(await list(ctx.h, path())), `${op} list`).toEqual(expected);
      expect(ids(await list(ctx.h, path())), `${op} list, cached shape`).toEqual(expected);
      const combined = await ctx.h.request("GET", path({ n_gte: 0, _sort: "-word" }), { headers: { prefer: "count=exact" } });
      expect(combined.status, combined.text).toBe(200);
      expect(ids(combined.body), `${op} with another filter and a text sort`).toEqual(expected);
      expect(combined.headers.get("x-total-count"), `${op} count`).toBe(String(expected.length));
      expect(ids(await list(ctx.h, `/v1/${instance}/word_notes?${qs({ [param]: pattern, _limit: 1000 })}`)), `${op} join path`).toEqual(expected);
      const asUser = await ctx.h.request("GET", path(), bearer(token));
      expect(asUser.status, asUser.text).toBe(200);
      expect(ids(asUser.body), `${op} JWT user under a select policy`).toEqual(expected);
    }
  });

  it.each(PATTERNS)("pattern %j: a searchable column gives the rows the scan gives", async (pattern) => {
    const ns = (rows: { n: number }[]) => rows.map((r) => r.n).sort((a, b) => a - b);
    for (const op of ["like", "ilike"] as const) {
      const param = `word_${op}`;
      const path = (table: string, extra: Record<string, string | number> = {}) => `/v1/${instance}/${table}?${qs({ [param]: pattern, _limit: 1000, ...extra })}`;
      const scanned = ns(await list(ctx.h, path("words")));
      const expected = await before(op, pattern, "search_words");
      expect(ids(await list(ctx.h, path("search_words"))), `${op} list`).toEqual(expected);
      expect(ns(await list(ctx.h, path("search_words"))), `${op} list, cached shape, same words as the scan`).toEqual(scanned);
      const combined = await ctx.h.request("GET", path("search_words", { n_gte: 0, _sort: "-word" }), { headers: { prefer: "count=exact" } });
      expect(combined.status, combined.text).toBe(200);
      expect(ids(combined.body), `${op} with another filter and a text sort`).toEqual(expected);
      expect(combined.headers.get("x-total-count"), `${op} count`).toBe(String(expected.length));
      const asUser = await ctx.h.request("GET", path("search_words"), bearer(token));
      expect(asUser.status, asUser.text).toBe(200);
      expect(ids(asUser.body), `${op} JWT user under a select policy`).toEqual(expected);
    }
  });

  // In id order SQLite reads a searchable column's index as the driving table and stops at the page's end
  // (build-sql.ts, searchDrivenPage): pages, cursors, the reverse order, id filters and two searched columns
  // must give what the scan gives on the same rows.
  it.each<Record<string, string | number>>([
    { word_ilike: "cole" },
    { word_like: "cole", _sort: "-id" },
    { word_ilike: "cole", _sort: "id", id_gt: 2 },
    { word_ilike: "cole", _offset: 1 },
    { word_ilike: "cole", word_like: "ole", n_lt: 100 },
    { _or: "word_ilike=cole&word_ilike=plain", word_like: "l" },
  ])("in id order, %j walks the same pages through the index as through the scan, cursor by cursor", async (params) => {
    const walk = async (table: string, headers: Record<string, string> = {}) => {
      const seen: number[][] = [];
      let path: string | undefined = `/v1/${instance}/${table}?${qs({ ...params, _limit: 2 })}`;
      while (path && seen.length < 20) {
        const page = await ctx.h.request("GET", path, { headers: { ...headers, prefer: "count=exact" } });
        expect(page.status, page.text).toBe(200);
        seen.push([Number(page.headers.get("x-total-count")), ...page.body.map((r: { id: number; n: number }) => r.id * 1000 + r.n)]);
        const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link") ?? "")?.[1];
        path = next ? new URL(next).pathname + new URL(next).search : undefined;
      }
      return seen;
    };
    const scanned = await walk("words");
    expect(scanned.flat().length).toBeGreaterThan(1);
    expect(await walk("search_words")).toEqual(scanned);
    expect(await walk("search_words", { authorization: `Bearer ${token}` })).toEqual(scanned);
  });

  it("a cached shape runs again with other values and gives their rows", async () => {
    const words = async (pattern: string) => (await list(ctx.h, `/v1/${instance}/words?${qs({ word_ilike: pattern, n_lt: 100 })}`)).map((r) => r.word);
    expect(await words("plain")).toEqual(["plain", "PLAIN text"]);
    expect(await words("æon")).toEqual(["ÆON", "æon"]);
    expect(await words("axb")).toEqual(["axb"]);
    expect(await words("pad")).toEqual(["pad "]);
  });
});

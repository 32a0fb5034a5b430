// What the data grid relies on, through the real data API on each engine: the `_ne` filter, the CSV round
// trip (export every page → import into an empty copy through the bulk POST → the same rows), reference labels
// from `_expand` and the picker's search, the group-by summary's read, cursor paging by the Link header, editing
// a saved join (rename and change at once), and the filter bar's OR groups as the query string the grid sends.
import { beforeAll, describe, expect, it } from "vitest";
import type { Column, DataRecord, Table } from "../../components/api/types";
import { csvToRecords, defaultMapping, parseCsv, toCsv } from "../../components/data/csv";
import { nextCursor } from "../../components/api/use-records";
import { aggregateQuery, defaultGroupColumn, filtersOf, groupableColumns, summableColumns } from "../../components/data/group-summary-query";
import { displayColumnOf, expandColumns, expandedLabels, pickerQuery } from "../../components/data/reference-display";
import { cursorQuery } from "../../components/data/use-cursor-pages";
import { importRows } from "../../components/data/csv-transfer";
import { buildQueryString, EMPTY_QUERY, parseQueryString, queryableColumns } from "../../components/data/build-query";
import { definitionSql } from "../../components/joins/canvas-definition";
import { starterSql } from "../../components/joins/starter-sql";
import { createDatabase, expectError, insert, list, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";

const BOOK_COLUMNS = [
  { name: "title", type: "varchar", length: 100, nullable: false },
  { name: "price", type: "decimal", precision: 10, scale: 2 },
  { name: "author_id", type: "reference", references: "authors" },
  { name: "status", type: "dropdown", options: ["draft", "live"] },
  { name: "published", type: "date" },
  { name: "seen_at", type: "datetime" },
  { name: "in_stock", type: "boolean" },
  { name: "pages", type: "int" },
  { name: "meta", type: "json" },
  { name: "notes", type: "text" },
];
const TABLES = [
  { name: "authors", columns: [{ name: "country", type: "varchar", length: 40 }, { name: "name", type: "varchar", length: 80, unique: true, nullable: false }] },
  { name: "books", columns: BOOK_COLUMNS },
  { name: "books_copy", columns: BOOK_COLUMNS },
];

// Text that needs every kind of CSV quoting, NULLs next to empty strings, JSON of every shape.
const BOOKS = [
  { title: "Kindred", price: 17.5, author_id: 2, status: "live", published: "1979-06-01", seen_at: "2024-01-10T08:00:00.123Z", in_stock: true, pages: 264, meta: { tags: ["sf", "classic"] }, notes: "first line\r\nsecond, with comma" },
  { title: 'The "Dispossessed"', price: 9, author_id: 1, status: "draft", published: null, seen_at: null, in_stock: false, pages: null, meta: "a string", notes: "" },
  { title: "  padded  ", price: null, author_id: null, status: null, published: "2001-02-03", seen_at: null, in_stock: null, pages: 0, meta: null, notes: null },
  { title: "Ünïcødé, «quotes» ‘here’", price: 0.01, author_id: 2, status: "live", published: null, seen_at: null, in_stock: true, pages: -1, meta: [1, null, true], notes: "tab\there" },
];

describe.each(ENGINES)("the data grid's API on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let instance = "";
  let tables: Table[] = [];
  const base = () => `/v1/${instance}`;
  const read = async (table: string, query: string) => list(ctx.h, `${base()}/${table}?${query}`) as Promise<DataRecord[]>;

  beforeAll(async () => {
    instance = await createDatabase(ctx.h, "Grid", TABLES);
    await insert(ctx.h, `${base()}/authors`, [{ name: "Ursula K. Le Guin", country: "US" }, { name: "Octavia Butler", country: null }, { name: "Nobody", country: "uk" }]);
    await insert(ctx.h, `${base()}/books`, BOOKS);
    tables = (await ctx.h.request("GET", `/api/v1/databases/${instance}`)).body.tables;
  });

  describe("OR groups in the filter bar", () => {
    const f = (column: string, op: "eq" | "lt" | "ilike", value: string) => ({ key: `${column}${op}`, column, op, value });

    it("sends each group as one _or the API reads as (a OR b), ANDed with the plain filters, and reads it back", async () => {
      const books = tables.find((t) => t.name === "books")!;
      const query = { ...EMPTY_QUERY, filters: [f("status", "eq", "live")], groups: [{ key: "g", filters: [f("price", "lt", "1"), f("title", "ilike", "kin")] }] };
      const text = buildQueryString(query);
      expect(text).toBe("status=live&_or=price_lt%3D1%26title_ilike%3Dkin&_limit=25&_offset=0");
      expect((await read("books", text)).map((r) => r.title)).toEqual(["Kindred", "Ünïcødé, «quotes» ‘here’"]);
      const back = parseQueryString(text, queryableColumns(books));
      expect(back.groups.map((g) => g.filters.map(({ column, op, value }) => [column, op, value]))).toEqual([[["price", "lt", "1"], ["title", "ilike", "kin"]]]);
      expect(buildQueryString(back)).toBe(text);
    });

    it("leaves out an empty group and keeps a value with & and = inside its group", async () => {
      const query = { ...EMPTY_QUERY, groups: [{ key: "a", filters: [] }, { key: "b", filters: [f("title", "eq", "a&b=c"), f("notes", "eq", "x")] }] };
      const text = buildQueryString(query);
      expect(text.match(/_or=/g)).toHaveLength(1);
      expect(new URLSearchParams(new URLSearchParams(text).get("_or")!).get("title")).toBe("a&b=c");
      expect(await read("books", text)).toEqual([]);
    });
  });

  describe("_ne", () => {
    const names = async (query: string) => (await read("authors", query)).map((r) => r.name);

    it("matches rows whose value differs, case-sensitively, and leaves NULL rows out", async () => {
      expect(await names("country_ne=US")).toEqual(["Nobody"]);
      expect(await names("country_ne=us")).toEqual(["Ursula K. Le Guin", "Nobody"]);
      expect(await names("country_null=true")).toEqual(["Octavia Butler"]);
    });

    it("works on numbers, dropdowns, booleans and dates, and ANDs with other filters", async () => {
      const titles = async (query: string) => (await read("books", query)).map((r) => r.title);
      expect(await titles("pages_ne=0")).toEqual(["Kindred", "Ünïcødé, «quotes» ‘here’"]);
      expect(await titles("status_ne=live")).toEqual(['The "Dispossessed"']);
      expect(await titles("in_stock_ne=true")).toEqual(['The "Dispossessed"']);
      expect(await titles("author_id_ne=1&price_gt=1")).toEqual(["Kindred"]);
      expect(await titles("published_ne=1979-06-01&title_ilike=PAD")).toEqual(["  padded  "]);
    });

    it("refuses a bad value or a column that cannot be compared, naming the parameter", async () => {
      expectError(await ctx.h.request("GET", `${base()}/books?pages_ne=many`), 422, "validation_failed", ["pages_ne"]);
      expectError(await ctx.h.request("GET", `${base()}/books?meta_ne=1`), 422, "validation_failed", ["meta_ne"]);
    });

    it("is listed in the OpenAPI parameters of every comparable column", async () => {
      const doc = (await ctx.h.request("GET", `${base()}/openapi.json`)).body;
      const params = doc.paths["/books"].get.parameters.map((p: { name?: string }) => p.name);
      expect(params).toEqual(expect.arrayContaining(["title_ne", "price_ne", "author_id_ne", "status_ne", "in_stock_ne", "published_ne"]));
      expect(params).not.toContain("meta_ne");
      const title = doc.paths["/books"].get.parameters.find((p: { name?: string }) => p.name === "title_ne");
      expect(title.description).toMatch(/NULL are not included/);
    });
  });

  describe("CSV", () => {
    it("round-trips: every page exported, imported into an empty copy through one bulk POST, reads back the same", async () => {
      const books = tables.find((t) => t.name === "books")!;
      const copy = tables.find((t) => t.name === "books_copy")!;
      // Exported two rows a page, as the grid walks every page of the current query.
      const rows: DataRecord[] = [];
      for (let offset = 0; ; offset += 2) {
        const page = await read("books", `_sort=id&_limit=2&_offset=${offset}`);
        rows.push(...page);
        if (page.length < 2) break;
      }
      const names = books.columns.map((c) => c.name);
      const csv = toCsv([{ name: "id", type: "bigint" }, ...books.columns], rows);
      expect(csv).toContain(",17.50,");
      expect(csv).toContain('"The ""Dispossessed"""');
      expect(csv.split("\r\n")[0]).toBe(`id,${names.join(",")}`);

      const cells = parseCsv(csv);
      const { records, problems } = csvToRecords(cells, defaultMapping(cells[0] as string[], copy.columns), copy.columns as Column[]);
      expect(problems).toEqual([]);
      await insert(ctx.h, `${base()}/books_copy`, records.map((r) => r.body));

      const strip = ({ id: _id, created_at: _c, updated_at: _u, ...rest }: DataRecord) => rest;
      expect((await read("books_copy", "_sort=id")).map(strip)).toEqual(rows.map(strip));
    });

    it("parses quoted newlines, doubled quotes, NULL versus empty string, and names an unclosed quote's line", () => {
      expect(parseCsv('a,b,c\r\n"x\ny","say ""hi""",\n"",,z\n')).toEqual([["a", "b", "c"], ["x\ny", 'say "hi"', null], ["", null, "z"]]);
      expect(() => parseCsv('a\n"open\n')).toThrow(/line 2: a quoted field is never closed/);
    });

    it("valid rows only: imports the rows the API accepts and reports the others by CSV line; all or nothing imports none", async () => {
      const authors = tables.find((t) => t.name === "authors")!;
      const cells = parseCsv("name,country\nAda,UK\n,FR\nNobody,XX\nGrace,US\n");
      const { records, problems } = csvToRecords(cells, defaultMapping(cells[0] as string[], authors.columns), authors.columns as Column[]);
      const post = async (bodies: Record<string, unknown>[]) => {
        const reply = await ctx.h.request("POST", `${base()}/authors`, { body: bodies });
        if (reply.status !== 201) throw Object.assign(new (await import("../../components/api/api-error")).ApiRequestError(reply.status, reply.body, "data"));
        return reply.body;
      };
      const before = await read("authors", "_sort=id");
      const all = await importRows(records, problems, "all", post);
      expect(all.imported).toBe(0);
      expect(all.problems).toEqual([expect.objectContaining({ line: 3, field: "name" })]);
      expect(await read("authors", "_sort=id")).toEqual(before);

      const valid = await importRows(records, problems, "valid", post);
      expect(valid.imported).toBe(2);
      expect(valid.problems.map((p) => p.line)).toEqual([3, 4]);
      expect(valid.problems[1].message).toMatch(/Nobody|unique|already|duplicate/i);
      const added = (await read("authors", "_sort=id")).slice(before.length);
      expect(added.map((r) => r.name)).toEqual(["Ada", "Grace"]);
      for (const r of added) expect((await ctx.h.request("DELETE", `${base()}/authors/${r.id}`)).status).toBe(204);
    });

    it("reports a row whose JSON does not parse with its CSV line, before anything is sent", () => {
      const copy = tables.find((t) => t.name === "books_copy")!;
      const cells = parseCsv("title,meta\nok,{}\nbad,{nope\n");
      const { problems } = csvToRecords(cells, defaultMapping(cells[0] as string[], copy.columns), copy.columns as Column[]);
      expect(problems).toEqual([{ line: 3, field: "meta", message: '"meta" is not valid JSON' }]);
    });
  });

  describe("reference display", () => {
    it("names the referenced row by its first unique column, from the expansions of the page read itself", async () => {
      const books = tables.find((t) => t.name === "books")!;
      expect(displayColumnOf(tables.find((t) => t.name === "authors"))).toBe("name");
      expect(expandColumns(books)).toEqual(["author_id"]);
      expect(expandColumns(books, new Set(["author_id"]))).toEqual([]);
      const page = await read("books", `_sort=id&_expand=${expandColumns(books).join(",")}`);
      expect(expandedLabels(books, tables, page)).toEqual({ authors: { 1: "Ursula K. Le Guin", 2: "Octavia Butler" } });
      expect(expandedLabels(books, tables, await read("books", "_sort=id"))).toEqual({ authors: {} });
    });

    it("the picker finds rows by a piece of their display text, any case, or by id", async () => {
      const authors = tables.find((t) => t.name === "authors");
      expect((await read("authors", pickerQuery(authors, "BUTL"))).map((r) => r.id)).toEqual([2]);
      expect((await read("authors", pickerQuery(authors, ""))).map((r) => r.name)).toEqual(["Nobody", "Octavia Butler", "Ursula K. Le Guin"]);
      expect((await read("books", pickerQuery(tables.find((t) => t.name === "books"), "kin"))).map((r) => r.title)).toEqual(["Kindred"]);
    });
  });

  describe("group-by summary", () => {
    const summarise = (query: string) => list(ctx.h, `${base()}/books/_aggregate?${query}`);

    it("counts and sums per value, largest group first, over the grid's filters alone", async () => {
      const books = tables.find((t) => t.name === "books")!;
      expect(defaultGroupColumn(books)).toBe("author_id");
      expect(summableColumns(books).map((c) => c.name)).toEqual(["price", "pages"]);
      expect(groupableColumns(books).map((c) => c.name)).not.toContain("meta");
      expect(await summarise(aggregateQuery({ filters: "", group: "status", sum: "price" }))).toEqual([
        { status: "live", count: 2, sum_price: 17.51 },
        { status: null, count: 1, sum_price: null },
        { status: "draft", count: 1, sum_price: 9 },
      ]);
      const filters = filtersOf("status_ne=draft&_sort=-price&_limit=25&_offset=0&_after=abc&_expand=author_id");
      expect(filters).toBe("status_ne=draft");
      expect(await summarise(aggregateQuery({ filters, group: "author_id" }))).toEqual([{ author_id: 2, count: 2 }]);
    });
  });

  describe("cursor paging", () => {
    it("walks pages by the Link header's _after in place of _offset: the rows offsets give, and no Link on the last", async () => {
      const first = "_sort=title&_limit=2&_offset=0";
      const after = nextCursor((await ctx.h.request("GET", `${base()}/books?${first}`)).headers.get("link"));
      expect(after).toMatch(/^[\w-]+$/);
      const second = cursorQuery(first, after!);
      expect(second).toBe(`_sort=title&_limit=2&_after=${after}`);
      expect(await read("books", second)).toEqual(await read("books", "_sort=title&_limit=2&_offset=2"));
      expect(nextCursor((await ctx.h.request("GET", `${base()}/books?${second}`)).headers.get("link"))).toBeNull();
      expect(cursorQuery(first, undefined)).toBe(first);
    });
  });

  describe("editing a saved join", () => {
    it("renames it and replaces its SQL in one PATCH; the old path is gone and the new one answers", async () => {
      const joins = `/api/v1/databases/${instance}/joins`;
      const made = await ctx.h.request("POST", joins, { body: { name: "shelf", sql: "SELECT b.title FROM books b JOIN authors a ON b.author_id = a.id" } });
      expect(made.status, made.text).toBe(201);
      const sql = "SELECT b.title AS title, a.name AS author FROM books AS b INNER JOIN authors AS a ON b.author_id = a.id";
      const edited = await ctx.h.request("PATCH", `${joins}/shelf`, { body: { name: "shelf_by_author", sql } });
      expect(edited.status, edited.text).toBe(200);
      expect(edited.body).toMatchObject({ name: "shelf_by_author", sql, columns: [{ column: "books.title", as: "title" }, { column: "authors.name", as: "author" }] });
      expect((await ctx.h.request("GET", `${base()}/shelf`)).status).toBe(404);
      expect(await list(ctx.h, `${base()}/shelf_by_author?_sort=title`)).toEqual([
        { title: "Kindred", author: "Octavia Butler" },
        { title: 'The "Dispossessed"', author: "Ursula K. Le Guin" },
        { title: "Ünïcødé, «quotes» ‘here’", author: "Octavia Butler" },
      ]);
    });

    it("a structured join opens in SQL mode as SQL that saves back to the same definition", async () => {
      const joins = `/api/v1/databases/${instance}/joins`;
      const definition = { base: "books", joins: [{ table: "authors", on: [["books.author_id", "authors.id"]] as [string, string][] }], columns: [{ column: "books.title", as: "t" }, { column: "authors.name", as: "who" }] };
      const made = await ctx.h.request("POST", joins, { body: { name: "as_sql", sql: definitionSql(definition) } });
      expect(made.status, made.text).toBe(201);
      expect(made.body).toMatchObject(definition);
    });

    it("SQL mode's first query is built from this database's tables and runs", async () => {
      const sql = starterSql(tables);
      expect(sql).toBe("SELECT a.title AS title, b.country AS country\nFROM books AS a\nINNER JOIN authors AS b ON a.author_id = b.id");
      const preview = await ctx.h.request("POST", `/api/v1/databases/${instance}/joins/preview`, { body: { sql } });
      expect(preview.status, preview.text).toBe(200);
      expect(preview.body.rows.length).toBeGreaterThan(0);
    });

    it("replaces the structure from the visual editor and keeps the name; a taken name is 409 and changes nothing", async () => {
      const joins = `/api/v1/databases/${instance}/joins`;
      const structure = { base: "books", joins: [{ table: "authors", on: [["books.author_id", "authors.id"]] }], columns: [{ column: "authors.name", as: "who" }] };
      const edited = await ctx.h.request("PATCH", `${joins}/shelf_by_author`, { body: structure });
      expect(edited.status, edited.text).toBe(200);
      expect(edited.body.sql).toBeUndefined();
      expectError(await ctx.h.request("PATCH", `${joins}/shelf_by_author`, { body: { name: "books" } }), 409, "conflict");
      expect((await ctx.h.request("GET", `${joins}/shelf_by_author`)).body.columns).toEqual([{ column: "authors.name", as: "who" }]);
    });
  });
});

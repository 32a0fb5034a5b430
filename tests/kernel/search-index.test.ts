// `searchable` text columns: the option's 422s, and on SQLite the trigram index through its life —
// built for existing rows, kept in step by every write, followed through column and table renames, type changes,
// and gone when turned off, its column dropped or its table dropped. MariaDB stores the option and scans.
import { CompiledQuery, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDatabase, expect422, insert, list, qs, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";
import { loadSchema } from "../../lib/meta/load-schema";
import { indexTable } from "../../lib/api/table-index";
import { searchTableName } from "../../lib/schema/search";

describe.each(ENGINES)("searchable columns on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let instance = "";
  const api = (path: string) => `/api/v1/databases/${instance}${path}`;

  const userDb = async () => {
    const schema = (await loadSchema(ctx.h.app, instance))!;
    return { udb: ctx.h.app.engine.userDb(schema.physical), tables: schema.tables };
  };

  /** The search tables (not FTS5's shadow tables) the user database holds. */
  const searchTables = async () => {
    const { udb } = await userDb();
    if (udb.engine !== "sqlite") return [];
    const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\\_tabula\\_search\\_%\\_' ESCAPE '\\' ORDER BY name`.execute(udb.db);
    return rows.map((r) => r.name);
  };

  /** Row ids the column's index holds for a phrase, straight from the FTS5 table. */
  const indexed = async (table: string, column: string, phrase: string) => {
    const { udb, tables } = await userDb();
    const fts = searchTableName(tables.get(table)!.id, column);
    const { rows } = await sql<{ id: number }>`SELECT rowid AS id FROM ${sql.id(fts)} WHERE ${sql.id(fts)} MATCH ${`"${phrase}"`} ORDER BY rowid`.execute(udb.db);
    return rows.map((r) => Number(r.id));
  };

  const titles = async (table: string, params: Record<string, string>) =>
    (await list(ctx.h, `/v1/${instance}/${table}?${qs({ ...params, _limit: 1000, _sort: "id" })}`)).map((r) => r.title);

  /** Each case starts on a database of its own (the helpers above read `instance`): books 1-4, title searchable or not. */
  const useBooks = async (searchable: boolean) => {
    instance = await createDatabase(ctx.h, "Search", [
      { name: "books", columns: [{ name: "title", type: "varchar", length: 100, searchable }, { name: "pages", type: "int" }] },
    ]);
    await insert(ctx.h, `/v1/${instance}/books`, ["The Hobbit", "Dune", "Hobbit Tales", "Neuromancer"].map((title, pages) => ({ title, pages })));
  };

  it("refuses searchable on a column that is not varchar or text, naming the field", async () => {
    await useBooks(false);
    expect422(await ctx.h.request("POST", api("/tables/books/columns"), { body: { name: "year", type: "int", searchable: true } }), "searchable");
    expect422(await ctx.h.request("POST", api("/tables/books/columns"), { body: { name: "blurb", type: "text", searchable: "yes" } }), "searchable");
    expect422(await ctx.h.request("POST", "/api/v1/databases", { body: { name: "Bad", tables: [{ name: "t", columns: [{ name: "j", type: "json", searchable: true }] }] } }), "tables[0].columns[0].searchable");
    const added = await ctx.h.request("POST", api("/tables/books/columns"), { body: { name: "code", type: "varchar", searchable: true } });
    expect(added.status, added.text).toBe(201);
    expect(added.body.searchable).toBe(true);
    // A type change keeps the option, so a type that cannot hold it is refused, the column untouched.
    expect422(await ctx.h.request("PATCH", api("/tables/books/columns/code"), { body: { type: "int" } }), "searchable");
    const kept = await ctx.h.request("GET", api("/tables/books"));
    expect(kept.body.columns.find((c: { name: string }) => c.name === "code")).toMatchObject({ type: "varchar", searchable: true });
    expect((await ctx.h.request("DELETE", api("/tables/books/columns/code"))).status).toBe(204);
  });

  it("turning it on builds the index from the rows; the answers stay those of the scan", async () => {
    await useBooks(false);
    const scanned = await titles("books", { title_ilike: "hobbit" });
    expect(scanned).toEqual(["The Hobbit", "Hobbit Tales"]);
    const reply = await ctx.h.request("PATCH", api("/tables/books/columns/title"), { body: { searchable: true } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.searchable).toBe(true);
    expect(await titles("books", { title_ilike: "hobbit" })).toEqual(scanned);
    expect(await titles("books", { title_like: "Hobbit" })).toEqual(scanned);
    expect(await titles("books", { title_like: "hobbit" })).toEqual([]);
    if (engine === "sqlite") expect(await indexed("books", "title", "hobbit")).toEqual([1, 3]);
    else expect(await searchTables()).toEqual([]);
  });

  it("every write keeps the index in step: insert, bulk insert, update, delete", async () => {
    await useBooks(true);
    const [one] = [await insert(ctx.h, `/v1/${instance}/books`, { title: "A Hobbit Cookbook", pages: 9 })];
    const bulk = await insert(ctx.h, `/v1/${instance}/books`, [{ title: "hobbit songs", pages: 1 }, { title: "Elves", pages: 2 }]);
    expect(await titles("books", { title_ilike: "hobbit" })).toEqual(["The Hobbit", "Hobbit Tales", "A Hobbit Cookbook", "hobbit songs"]);
    expect((await ctx.h.request("PATCH", `/v1/${instance}/books/${bulk[1].id}`, { body: { title: "Elvish Hobbitry" } })).status).toBe(200);
    expect((await ctx.h.request("PATCH", `/v1/${instance}/books/${one.id}`, { body: { title: "A Cookbook" } })).status).toBe(200);
    expect((await ctx.h.request("DELETE", `/v1/${instance}/books/${bulk[0].id}`)).status).toBe(204);
    expect(await titles("books", { title_ilike: "hobbit" })).toEqual(["The Hobbit", "Hobbit Tales", "Elvish Hobbitry"]);
    expect(await titles("books", { title_ilike: "cookbook" })).toEqual(["A Cookbook"]);
    if (engine === "sqlite") expect(await indexed("books", "title", "hobbit")).toEqual([1, 3, bulk[1].id]);
  });

  if (engine === "sqlite") {
    it("reads go through the index: a row it lacks is not found by a long value, but is by a short one", async () => {
      await useBooks(true);
      const { udb, tables } = await userDb();
      const fts = searchTableName(tables.get("books")!.id, "title");
      await sql`DELETE FROM ${sql.id(fts)} WHERE rowid = 2`.execute(udb.db);
      expect(await titles("books", { title_ilike: "dune" })).toEqual([]);
      expect(await titles("books", { title_ilike: "du" })).toEqual(["Dune"]);
      // Inside an `_or` group too: the index answers for the long value, the other filter still ORs in its rows.
      expect(await titles("books", { _or: "title_ilike=dune&title=Neuromancer" })).toEqual(["Neuromancer"]);
      await sql`INSERT INTO ${sql.id(fts)} (rowid, v) VALUES (2, 'Dune')`.execute(udb.db);
      expect(await titles("books", { title_ilike: "dune" })).toEqual(["Dune"]);
      expect(await titles("books", { _or: "title_ilike=dune&title=Neuromancer" })).toEqual(["Dune", "Neuromancer"]);
    });

    it("in id order the index drives the read: its matches are walked in rowid order up to the page's end, nothing sorted", async () => {
      await useBooks(false);
      // Enough rows that a plan sorting all matches would be chosen if the statement allowed it.
      const created = await ctx.h.request("POST", api("/tables"), { body: { name: "shelf", columns: [{ name: "title", type: "varchar", length: 100, searchable: true }] } });
      expect(created.status, created.text).toBe(201);
      const { udb, tables } = await userDb();
      await sql`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000)
        INSERT INTO shelf (title, created_at, updated_at) SELECT 'volume ' || x, '2024-01-01 00:00:00.000', '2024-01-01 00:00:00.000' FROM c`.execute(udb.db);
      const inIdOrder = await list(ctx.h, `/v1/${instance}/shelf?title_ilike=volume%201`);
      const titlesFrom = (n: number) => Array.from({ length: n }, (_, i) => `volume ${i + 1}`);
      expect(inIdOrder.map((r) => r.title)).toEqual(titlesFrom(20000).filter((t) => t.includes("volume 1")).slice(0, 50));
      const byTitle = await list(ctx.h, `/v1/${instance}/shelf?title_ilike=volume%2019999&_sort=-title`);
      expect(byTitle.map((r) => r.title)).toEqual(["volume 19999"]);
      const shapes = [...indexTable(tables.get("shelf")!).sqlText.entries()];
      const driven = shapes.filter(([shape]) => shape === "search@0|page|title:ilike:plain||*|");
      expect(driven, shapes.map(([shape]) => shape).join(", ")).toHaveLength(1);
      const plan = async (text: string) =>
        (await udb.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${text}`, ['"volume 1"', "%volume 1%", 51, 0]))).rows.map((r) => r.detail);
      const steps = await plan(driven[0][1].sql);
      expect(steps[0]).toMatch(/^SCAN .*VIRTUAL TABLE INDEX \d+:M/);
      expect(steps.join("\n")).not.toMatch(/TEMP B-TREE/);
      // Sorted by another column the read keeps `id IN (matches)`: every match is read and sorted anyway.
      expect(shapes.some(([shape, q]) => !shape.startsWith("search@") && shape.includes(":search") && q.sql.includes(" IN (SELECT rowid"))).toBe(true);
      expect((await ctx.h.request("DELETE", api("/tables/shelf"))).status).toBe(204);
    });

    it("follows renames and type changes, and writes after them are indexed", async () => {
      await useBooks(true);
      const before = await titles("books", { title_ilike: "hobbit" });
      expect((await ctx.h.request("PATCH", api("/tables/books"), { body: { name: "novels" } })).status).toBe(200);
      expect((await ctx.h.request("PATCH", api("/tables/novels/columns/title"), { body: { name: "name" } })).status).toBe(200);
      expect((await ctx.h.request("PATCH", api("/tables/novels/columns/name"), { body: { type: "text", nullable: false } })).status).toBe(200);
      const id = (await userDb()).tables.get("novels")!.id;
      expect(await searchTables()).toEqual([searchTableName(id, "name")]);
      const added = await insert(ctx.h, `/v1/${instance}/novels`, { name: "Hobbit Maps", pages: 3 });
      const names = (await list(ctx.h, `/v1/${instance}/novels?${qs({ name_ilike: "hobbit", _sort: "id" })}`)).map((r) => r.name);
      expect(names).toEqual([...before, "Hobbit Maps"]);
      expect(await indexed("novels", "name", "hobbit maps")).toEqual([added.id]);
      // A change to another column of the table leaves the index answering.
      expect((await ctx.h.request("PATCH", api("/tables/novels/columns/pages"), { body: { type: "bigint" } })).status).toBe(200);
      expect(await indexed("novels", "name", "hobbit maps")).toEqual([added.id]);
    });

    it("is dropped when turned off, when its column is dropped and when its table is dropped", async () => {
      await useBooks(true);
      const id = (await userDb()).tables.get("books")!.id;
      expect(await searchTables()).toEqual([searchTableName(id, "title")]);
      expect((await ctx.h.request("PATCH", api("/tables/books/columns/title"), { body: { searchable: false } })).status).toBe(200);
      expect(await searchTables()).toEqual([]);
      expect(await titles("books", { title_ilike: "hobbit tales" })).toEqual(["Hobbit Tales"]);
      const note = await ctx.h.request("POST", api("/tables/books/columns"), { body: { name: "note", type: "text", searchable: true } });
      expect(note.status, note.text).toBe(201);
      expect(await searchTables()).toEqual([searchTableName(id, "note")]);
      expect((await ctx.h.request("DELETE", api("/tables/books/columns/note"))).status).toBe(204);
      expect(await searchTables()).toEqual([]);
      expect((await ctx.h.request("PATCH", api("/tables/books/columns/title"), { body: { searchable: true } })).status).toBe(200);
      expect(await searchTables()).toEqual([searchTableName(id, "title")]);
      expect((await ctx.h.request("DELETE", api("/tables/books"))).status).toBe(204);
      const { udb } = await userDb();
      const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE name LIKE '\\_tabula\\_search%' ESCAPE '\\'`.execute(udb.db);
      expect(rows).toEqual([]);
    });
  }
});

// The management API (PRODUCT "Management API"): databases with quick create, list, get, rename, delete;
// tables and columns provisioning the data API at once; 422 naming the field; 401 without a key.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expect401, expect422, expectError, insert, list, MATRIX, useHarness } from "./contract-helpers";

const SHOP = {
  name: "My Shop!",
  tables: [
    { name: "authors", columns: [{ name: "name", type: "varchar", nullable: false }, { name: "country", type: "varchar", length: 2 }] },
    {
      name: "books",
      columns: [
        { name: "title", type: "varchar", nullable: false },
        { name: "price", type: "decimal", precision: 10, scale: 2, nullable: false },
        { name: "status", type: "dropdown", options: ["draft", "live"], default: "draft" },
        { name: "author_id", type: "reference", references: "authors" },
      ],
    },
  ],
};

describe.each(MATRIX)("management API on $engine via $adapter", (target) => {
  const ctx = useHarness(target);

  describe("databases", () => {
    let shop: any;

    beforeAll(async () => {
      const reply = await ctx.h.request("POST", "/api/v1/databases", { body: SHOP });
      expect(reply.status, reply.text).toBe(201);
      shop = reply.body;
    });

    it("quick create answers 201 with the instance, the name and every table and column", () => {
      expect(shop.instance).toMatch(/^[a-z][a-z0-9_]{2,62}$/);
      expect(shop.instance).toMatch(/^my_shop_[a-z0-9]+$/);
      expect(shop.name).toBe("My Shop!");
      expect(shop.tables.map((t: { name: string }) => t.name)).toEqual(["authors", "books"]);
      const books = shop.tables.find((t: { name: string }) => t.name === "books");
      expect(books.columns.map((c: { name: string }) => c.name)).toEqual(["title", "price", "status", "author_id"]);
      expect(books.columns[1]).toMatchObject({ name: "price", type: "decimal", precision: 10, scale: 2, nullable: false });
      expect(books.columns[2]).toMatchObject({ name: "status", type: "dropdown", options: ["draft", "live"], default: "draft" });
      expect(books.columns[3]).toMatchObject({ name: "author_id", type: "reference", references: "authors" });
    });

    it("provisions the data API of every table at once, with the reference enforced", async () => {
      const base = `/v1/${shop.instance}`;
      const author = await insert(ctx.h, `${base}/authors`, { name: "Le Guin", country: "US" });
      const book = await insert(ctx.h, `${base}/books`, { title: "Earthsea", price: 9.5, author_id: author.id });
      expect(book).toMatchObject({ title: "Earthsea", price: 9.5, status: "draft", author_id: author.id });
      expect422(await ctx.h.request("POST", `${base}/books`, { body: { title: "Orphan", price: 1, author_id: author.id + 1000 } }), "author_id");
      expectError(await ctx.h.request("DELETE", `${base}/authors/${author.id}`), 409, "conflict");
    });

    it("gives every database its own instance, even with the same name", async () => {
      const twin = await createDatabase(ctx.h, SHOP.name);
      expect(twin).not.toBe(shop.instance);
      expect(twin).toMatch(/^my_shop_[a-z0-9]+$/);
    });

    it("lists the account's databases as a JSON array", async () => {
      const reply = await ctx.h.request("GET", "/api/v1/databases");
      expect(reply.status).toBe(200);
      expect(Array.isArray(reply.body)).toBe(true);
      expect(reply.body).toEqual(expect.arrayContaining([expect.objectContaining({ instance: shop.instance, name: "My Shop!" })]));
    });

    it("gets one database with its tables", async () => {
      const reply = await ctx.h.request("GET", `/api/v1/databases/${shop.instance}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ instance: shop.instance, name: "My Shop!" });
      expect(reply.body.tables).toEqual(shop.tables);
    });

    it("answers 404 for a database that does not exist", async () => {
      expectError(await ctx.h.request("GET", "/api/v1/databases/nosuchdb_x1y2z3"), 404, "not_found");
    });

    it("renames a database (PATCH name); the instance and the data stay", async () => {
      const instance = await createDatabase(ctx.h, "Before rename", [{ name: "notes", columns: [{ name: "text", type: "varchar" }] }]);
      const note = await insert(ctx.h, `/v1/${instance}/notes`, { text: "kept" });
      const reply = await ctx.h.request("PATCH", `/api/v1/databases/${instance}`, { body: { name: "After rename" } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ instance, name: "After rename" });
      expect((await ctx.h.request("GET", `/api/v1/databases/${instance}`)).body.name).toBe("After rename");
      expect((await ctx.h.request("GET", `/v1/${instance}/notes/${note.id}`)).body).toEqual(note);
    });

    it("accepts a free-text display name of up to 80 characters", async () => {
      const name = `Ünïcode & spaces — ${"x".repeat(80)}`.slice(0, 80);
      const reply = await ctx.h.request("PATCH", `/api/v1/databases/${shop.instance}`, { body: { name } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.name).toBe(name);
      expect((await ctx.h.request("PATCH", `/api/v1/databases/${shop.instance}`, { body: { name: "My Shop!" } })).status).toBe(200);
    });

    it.each([
      [{ name: "" }, "name"],
      [{ name: "x".repeat(81) }, "name"],
      [{ name: 42 }, "name"],
      [{ name: "ok", instance: "other" }, "instance"],
    ])("refuses the rename %j with 422 naming %s", async (body, field) => {
      expect422(await ctx.h.request("PATCH", `/api/v1/databases/${shop.instance}`, { body }), field);
      expect((await ctx.h.request("GET", `/api/v1/databases/${shop.instance}`)).body.name).toBe("My Shop!");
    });

    it("deletes a database: 204, then 404 in the management API and the data API", async () => {
      const instance = await createDatabase(ctx.h, "Doomed", [{ name: "notes", columns: [{ name: "text", type: "varchar" }] }]);
      await insert(ctx.h, `/v1/${instance}/notes`, { text: "bye" });
      const reply = await ctx.h.request("DELETE", `/api/v1/databases/${instance}`);
      expect(reply.status).toBe(204);
      expect(reply.text).toBe("");
      expectError(await ctx.h.request("GET", `/api/v1/databases/${instance}`), 404, "not_found");
      expectError(await ctx.h.request("GET", `/v1/${instance}/notes`), 404, "not_found");
      const listed = (await ctx.h.request("GET", "/api/v1/databases")).body;
      expect(listed.map((d: { instance: string }) => d.instance)).not.toContain(instance);
    });

    it("serves its own OpenAPI 3.1 document at /api/v1/openapi.json", async () => {
      const reply = await ctx.h.request("GET", "/api/v1/openapi.json");
      expect(reply.status).toBe(200);
      expect(reply.body.openapi).toMatch(/^3\.1\./);
      expect(Object.keys(reply.body.paths)).toEqual(expect.arrayContaining(["/databases", "/keys"]));
    });

    it("answers a verb the path does not accept with 405 and Allow", async () => {
      const reply = await ctx.h.request("PUT", "/api/v1/databases", { body: {} });
      expectError(reply, 405, "method_not_allowed");
      expect((reply.headers.get("allow") ?? "").split(",").map((v) => v.trim())).toEqual(expect.arrayContaining(["GET", "POST"]));
    });

    it.each([
      ["GET", "/api/v1/databases", undefined],
      ["POST", "/api/v1/databases", { name: "No key" }],
      ["GET", "/api/v1/keys", undefined],
    ])("answers 401 to %s %s without a key", async (method, path, body) => {
      expect401(await ctx.h.request(method, path, { key: null, body }));
    });
  });

  describe("create refuses bad input with 422 naming the field, and creates nothing", () => {
    const table = (columns: unknown[], name = "things") => ({ name, columns });
    it.each([
      ["no name", {}, "name"],
      ["an empty name", { name: "" }, "name"],
      ["a name over 80 characters", { name: "x".repeat(81) }, "name"],
      ["an unknown property", { name: "ok", colour: "red" }, "colour"],
      ["tables that is not an array", { name: "ok", tables: {} }, "tables"],
      ["an unknown column type", { name: "ok", tables: [table([{ name: "a", type: "varchar" }, { name: "b", type: "nosuchtype" }])] }, "tables[0].columns[1].type"],
      ["a column without a type", { name: "ok", tables: [table([{ name: "a" }])] }, "tables[0].columns[0].type"],
      ["an upper-case table name", { name: "ok", tables: [table([], "Books")] }, "tables[0].name"],
      ["a column name with a space", { name: "ok", tables: [table([{ name: "first name", type: "varchar" }])] }, "tables[0].columns[0].name"],
      ["a reference to a table that does not exist", { name: "ok", tables: [table([{ name: "owner_id", type: "reference", references: "ghosts" }])] }, "tables[0].columns[0].references"],
      ["a reference without a target", { name: "ok", tables: [table([{ name: "owner_id", type: "reference" }])] }, "tables[0].columns[0].references"],
      ["a dropdown without options", { name: "ok", tables: [table([{ name: "status", type: "dropdown" }])] }, "tables[0].columns[0].options"],
      ["a dropdown with a repeated option", { name: "ok", tables: [table([{ name: "status", type: "dropdown", options: ["a", "a"] }])] }, "tables[0].columns[0].options[1]"],
      ["a varchar length of 0", { name: "ok", tables: [table([{ name: "code", type: "varchar", length: 0 }])] }, "tables[0].columns[0].length"],
      ["a scale larger than the precision", { name: "ok", tables: [table([{ name: "p", type: "decimal", precision: 4, scale: 6 }])] }, "tables[0].columns[0].scale"],
      ["a default of the wrong type", { name: "ok", tables: [table([{ name: "n", type: "int", default: "five" }])] }, "tables[0].columns[0].default"],
      ["nullable that is not a boolean", { name: "ok", tables: [table([{ name: "n", type: "int", nullable: "no" }])] }, "tables[0].columns[0].nullable"],
      ["a duplicate column name", { name: "ok", tables: [table([{ name: "a", type: "int" }, { name: "a", type: "int" }])] }, "tables[0].columns[1].name"],
      ["a duplicate table name", { name: "ok", tables: [table([]), table([])] }, "tables[1].name"],
      ["an unknown column property", { name: "ok", tables: [table([{ name: "a", type: "int", colour: "red" }])] }, "tables[0].columns[0].colour"],
    ])("%s", async (_label, body, field) => {
      const before = (await ctx.h.request("GET", "/api/v1/databases")).body.length;
      expect422(await ctx.h.request("POST", "/api/v1/databases", { body }), field);
      expect((await ctx.h.request("GET", "/api/v1/databases")).body.length).toBe(before);
    });

    it("answers a definition MySQL cannot hold (rows over 65,535 bytes) with a client error, never 500, and creates nothing", async () => {
      const before = (await ctx.h.request("GET", "/api/v1/databases")).body.length;
      const columns = Array.from({ length: 10 }, (_, i) => ({ name: `c${i}`, type: "varchar", length: 16000 }));
      const reply = await ctx.h.request("POST", "/api/v1/databases", { body: { name: "Too wide", tables: [{ name: "wide", columns }] } });
      expect(reply.status, reply.text).toBeLessThan(500);
      if (reply.status !== 201) {
        expectError(reply, 422, "validation_failed", []);
        expect((await ctx.h.request("GET", "/api/v1/databases")).body.length).toBe(before);
      }
    });

    it("lists every problem of one definition", async () => {
      const reply = await ctx.h.request("POST", "/api/v1/databases", {
        body: { name: "", tables: [{ name: "Bad", columns: [{ name: "x", type: "nope" }, { name: "Y", type: "int" }] }] },
      });
      expect422(reply, "name", "tables[0].name", "tables[0].columns[0].type", "tables[0].columns[1].name");
    });

    it("lists every structural problem with its field and code: unknown property, wrong type, missing, out of range", async () => {
      const reply = await ctx.h.request("POST", "/api/v1/databases", {
        body: { name: "ok", colour: "red", tables: [{ name: "t", columns: [{ name: "a", type: "int", nullable: "no" }, { type: "varchar", length: 0 }] }] },
      });
      expect422(reply);
      expect(reply.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]).sort()).toEqual(
        [
          ["colour", "unknown_property"],
          ["tables[0].columns[0].nullable", "invalid_type"],
          ["tables[0].columns[1].name", "required"],
          ["tables[0].columns[1].length", "out_of_range"],
        ].sort(),
      );
      expect(reply.body.message).toBe(`${reply.body.errors.length} problems: ${reply.body.errors[0].message} (and more)`);
    });

    it("keeps the services' own codes for names: invalid_name and reserved_name", async () => {
      const reply = await ctx.h.request("POST", "/api/v1/databases", {
        body: { name: "ok", tables: [{ name: "auth", columns: [{ name: "id", type: "int" }, { name: "Bad", type: "int" }] }] },
      });
      expect(reply.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
        ["tables[0].name", "reserved_name"],
        ["tables[0].columns[0].name", "reserved_name"],
        ["tables[0].columns[1].name", "invalid_name"],
      ]);
    });

    it.each([
      ["GET", "/api/v1/databases?scope=everything", undefined, "scope", "invalid_value"],
      ["POST", "/api/v1/keys", { name: 5 }, "name", "invalid_type"],
      ["PATCH", "/api/v1/settings", { signup: "maybe" }, "signup", "invalid_value"],
      ["POST", "/api/v1/databases", [], "body", "invalid_type"],
    ])("%s %s answers 422 naming %s", async (method, path, body, field, code) => {
      const reply = await ctx.h.request(method, path, { body });
      expectError(reply, 422, "validation_failed", [field]);
      expect(reply.body.errors[0]).toMatchObject({ field, code });
    });

    it("refuses malformed JSON with 422", async () => {
      expectError(await ctx.h.request("POST", "/api/v1/databases", { rawBody: '{"name": "x"' }), 422, "validation_failed", []);
    });
  });

  describe("tables and columns", () => {
    let instance = "";
    let base = "";

    beforeAll(async () => {
      instance = await createDatabase(ctx.h, "Schema edits", [{ name: "posts", columns: [{ name: "title", type: "varchar", nullable: false }] }]);
      base = `/v1/${instance}`;
      await insert(ctx.h, `${base}/posts`, [{ title: "first" }, { title: "second" }]);
    });

    it("adds a table: 201, and its data API works at once", async () => {
      const reply = await ctx.h.request("POST", `/api/v1/databases/${instance}/tables`, {
        body: { name: "comments", columns: [{ name: "body", type: "text" }, { name: "post_id", type: "reference", references: "posts" }] },
      });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ name: "comments" });
      const post = (await list(ctx.h, `${base}/posts?title=first`))[0];
      const comment = await insert(ctx.h, `${base}/comments`, { body: "nice", post_id: post.id });
      expect(comment).toMatchObject({ body: "nice", post_id: post.id });
      expect((await ctx.h.request("GET", `/api/v1/databases/${instance}/tables`)).body.map((t: { name: string }) => t.name)).toEqual(
        expect.arrayContaining(["posts", "comments"]),
      );
    });

    it("refuses a second table with an existing name with 409", async () => {
      expectError(await ctx.h.request("POST", `/api/v1/databases/${instance}/tables`, { body: { name: "posts", columns: [] } }), 409, "conflict");
    });

    it("adds a column: 201, writable and filterable through the data API at once", async () => {
      const reply = await ctx.h.request("POST", `/api/v1/databases/${instance}/tables/posts/columns`, { body: { name: "views", type: "int" } });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ name: "views", type: "int", nullable: true });
      const existing = await list(ctx.h, `${base}/posts`);
      expect(existing.every((p) => p.views === null)).toBe(true);
      const created = await insert(ctx.h, `${base}/posts`, { title: "third", views: 42 });
      expect(created.views).toBe(42);
      expect((await list(ctx.h, `${base}/posts?views_gte=40`)).map((p) => p.title)).toEqual(["third"]);
      expect((await list(ctx.h, `${base}/posts?_sort=-views`))[0].title).toBe("third");
      expect422(await ctx.h.request("POST", `${base}/posts`, { body: { title: "x", views: "many" } }), "views");
    });

    it("refuses a bad column with 422 naming the field", async () => {
      expect422(await ctx.h.request("POST", `/api/v1/databases/${instance}/tables/posts/columns`, { body: { name: "score", type: "number" } }), "type");
      expect422(await ctx.h.request("POST", `/api/v1/databases/${instance}/tables/posts/columns`, { body: { name: "Score", type: "int" } }), "name");
    });

    it("removes a column: 204, then writing or filtering it is 422", async () => {
      await ctx.h.request("POST", `/api/v1/databases/${instance}/tables/posts/columns`, { body: { name: "temp", type: "varchar" } });
      const reply = await ctx.h.request("DELETE", `/api/v1/databases/${instance}/tables/posts/columns/temp`);
      expect(reply.status, reply.text).toBe(204);
      expect422(await ctx.h.request("POST", `${base}/posts`, { body: { title: "x", temp: "y" } }), "temp");
      expect422(await ctx.h.request("GET", `${base}/posts?temp=y`), "temp");
      expect((await list(ctx.h, `${base}/posts`)).every((p) => !("temp" in p))).toBe(true);
    });

    it("renames a table (PATCH name): the old path is 404, the new one serves the same rows", async () => {
      await ctx.h.request("POST", `/api/v1/databases/${instance}/tables`, { body: { name: "drafts", columns: [{ name: "text", type: "varchar" }] } });
      const row = await insert(ctx.h, `${base}/drafts`, { text: "moving" });
      const reply = await ctx.h.request("PATCH", `/api/v1/databases/${instance}/tables/drafts`, { body: { name: "archive" } });
      expect(reply.status, reply.text).toBe(200);
      expectError(await ctx.h.request("GET", `${base}/drafts`), 404, "not_found");
      expect((await ctx.h.request("GET", `${base}/archive/${row.id}`)).body).toEqual(row);
    });

    it("drops a table: 204, then its data path is 404", async () => {
      await ctx.h.request("POST", `/api/v1/databases/${instance}/tables`, { body: { name: "scratch", columns: [{ name: "n", type: "int" }] } });
      await insert(ctx.h, `${base}/scratch`, { n: 1 });
      const reply = await ctx.h.request("DELETE", `/api/v1/databases/${instance}/tables/scratch`);
      expect(reply.status, reply.text).toBe(204);
      expectError(await ctx.h.request("GET", `${base}/scratch`), 404, "not_found");
    });
  });
});

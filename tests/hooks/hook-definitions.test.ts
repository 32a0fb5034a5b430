// Saving hooks: GET and PUT answer all three actions, every expression is type-checked against the table at
// save (422 naming the step), a column rename rewrites the hooks that use it, a drop of one they use is refused
// with 409 naming the hook, and the table's OpenAPI documents the 500 of the actions that have hooks.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase, expectError, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";
import { getHooks, type Hooks, hooksPath, PRODUCT_HOOKS, putHooks, SHOP_TABLES, SLUG, TOTAL } from "./hooks-fixture";

type Refusal = [what: string, hooks: Hooks, field: string | RegExp, code: string];

const REFUSALS: Refusal[] = [
  ["a syntax error", { insert: [{ set: "slug", expr: "new.title +" }] }, "insert[0].expr", "invalid_expression"],
  ["an unknown variable", { insert: [{ set: "slug", expr: "row.title" }] }, "insert[0].expr", "invalid_expression"],
  ["an unknown function", { insert: [{ set: "slug", expr: "slugify(new.title)" }] }, "insert[0].expr", "invalid_expression"],
  ["an int added to a string", { insert: [{ set: "slug", expr: "new.title + 1" }] }, "insert[0].expr", "invalid_expression"],
  ["a set of an unknown column", { insert: [{ set: "nope", expr: '"x"' }] }, "insert[0].set", "unknown_column"],
  ["a set of the automatic id", { insert: [{ set: "id", expr: "1" }] }, "insert[0].set", "unknown_column"],
  ["a set of the automatic created_at", { update: [{ set: "created_at", expr: '"2024-01-01T00:00:00Z"' }] }, "update[0].set", "unknown_column"],
  ["a string into an int column", { insert: [{ set: "quantity", expr: '"many"' }] }, "insert[0].expr", "type_mismatch"],
  // Nullable only means null may be stored; a decimal column still holds numbers.
  ["a string into a nullable decimal column", { insert: [{ set: "total", expr: '"lots"' }] }, "insert[0].expr", "type_mismatch"],
  ["a bool into a nullable varchar column", { update: [{ set: "slug", expr: "new.price > 1.0" }] }, "update[0].expr", "type_mismatch"],
  ["a non-bool assert, at its index", { update: [{ set: "slug", expr: SLUG }, { assert: "new.price", message: "m" }] }, "update[1].assert", "type_mismatch"],
];

describe.each(ENGINES)("saving pre hooks (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";

  beforeAll(async () => {
    db = await createDatabase(ctx.h, "hook defs", SHOP_TABLES);
  });

  it("GET answers empty arrays for a table without hooks", async () => {
    // A database of its own: the shared one's products table holds the hooks other cases saved.
    const fresh = await createDatabase(ctx.h, "hook defs fresh", SHOP_TABLES);
    expect(await getHooks(ctx.h, fresh, "products")).toEqual({ insert: [], update: [], delete: [] });
  });

  it("PUT answers the hooks with all three arrays, and GET returns them", async () => {
    await putHooks(ctx.h, db, "products", { insert: PRODUCT_HOOKS.insert });
    expect(await getHooks(ctx.h, db, "products")).toEqual({ insert: PRODUCT_HOOKS.insert, update: [], delete: [] });
    await putHooks(ctx.h, db, "products", PRODUCT_HOOKS);
    expect(await getHooks(ctx.h, db, "products")).toEqual(PRODUCT_HOOKS);
  });

  it("GET and PUT answer 404 for a table that does not exist", async () => {
    expectError(await ctx.h.request("GET", hooksPath(db, "ghosts")), 404, "not_found");
    expectError(await ctx.h.request("PUT", hooksPath(db, "ghosts"), { body: { insert: [] } }), 404, "not_found");
  });

  describe("type-checks every expression at save", () => {
    // Each case starts from the same saved hooks, so one wrongly accepted save does not spill into the next.
    beforeEach(async () => {
      await putHooks(ctx.h, db, "products", PRODUCT_HOOKS);
    });

    it.each(REFUSALS)("refuses %s with 422 naming the step, keeping the saved hooks", async (_what, hooks, field, code) => {
      const reply = await ctx.h.request("PUT", hooksPath(db, "products"), { body: hooks });
      expectError(reply, 422, "validation_failed");
      // Only the bad step is named; its entry may carry the position in the expression.
      expect(reply.body.errors, reply.text).toHaveLength(1);
      expect(reply.body.errors[0]).toMatchObject({ field: typeof field === "string" ? field : expect.stringMatching(field), code, message: expect.any(String) });
      const extra = Object.keys(reply.body.errors[0]).filter((k) => !["field", "code", "message", "position"].includes(k));
      expect(extra).toEqual([]);
      expect(await getHooks(ctx.h, db, "products")).toEqual(PRODUCT_HOOKS);
    });

    it("a syntax error carries the position where parsing stopped", async () => {
      const reply = await ctx.h.request("PUT", hooksPath(db, "products"), { body: { insert: [{ set: "slug", expr: "new.title + + )" }] } });
      expectError(reply, 422, "validation_failed");
      expect(reply.body.errors[0]).toMatchObject({ field: "insert[0].expr", code: "invalid_expression" });
      expect(reply.body.errors[0].position).toBeTypeOf("number");
      expect(reply.body.errors[0].position).toBeGreaterThan(0);
    });

    it.each([
      ["an action that is not a list", { insert: "new.price > 0" }],
      ["an unknown action", { upsert: [] }],
      ["a step that is both a set and an assert", { insert: [{ set: "slug", expr: SLUG, assert: "true", message: "m" }] }],
      ["an assert without a message", { insert: [{ assert: "true" }] }],
      ["a step that is neither", { insert: [{ when: "true" }] }],
    ])("refuses %s with 422", async (_what, body) => {
      expectError(await ctx.h.request("PUT", hooksPath(db, "products"), { body }), 422, "validation_failed");
      expect(await getHooks(ctx.h, db, "products")).toEqual(PRODUCT_HOOKS);
    });

    it("accepts every variable of the contract: new, old, auth and now", async () => {
      const hooks = {
        update: [
          { assert: 'auth.kind == "key" || auth.kind == "user"', message: "who?" },
          { assert: "old.parts >= 0 && new.parts >= 0", message: "parts" },
          { assert: 'now > timestamp("2020-01-01T00:00:00Z")', message: "clock" },
          { set: "label", expr: 'string(now.getFullYear()) + " by " + auth.kind' },
        ],
      };
      await putHooks(ctx.h, db, "shares", hooks);
      const made = await ctx.h.request("POST", `/v1/${db}/shares`, { body: { name: "n", parts: 1 } });
      expect(made.status, made.text).toBe(201);
      const patched = await ctx.h.request("PATCH", `/v1/${db}/shares/${made.body.id}`, { body: { parts: 2 } });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body.label).toBe(`${new Date().getUTCFullYear()} by key`);
      await putHooks(ctx.h, db, "shares", {});
    });
  });

  describe("schema changes", () => {
    const columnPath = (table: string, column: string) => `/api/v1/databases/${db}/tables/${table}/columns/${column}`;

    it("renaming a column rewrites the expressions and the set targets that use it, and the hooks still run", async () => {
      const renameDb = await createDatabase(ctx.h, "hook rename", SHOP_TABLES);
      await putHooks(ctx.h, renameDb, "products", PRODUCT_HOOKS);
      const rename = async (from: string, to: string) => {
        const reply = await ctx.h.request("PATCH", `/api/v1/databases/${renameDb}/tables/products/columns/${from}`, { body: { name: to } });
        expect(reply.status, reply.text).toBe(200);
      };
      await rename("price", "amount");
      await rename("slug", "handle");
      const follow = (s: object) => JSON.parse(JSON.stringify(s).replaceAll("new.price", "new.amount").replaceAll("old.price", "old.amount").replace('"set":"slug"', '"set":"handle"'));
      expect(await getHooks(ctx.h, renameDb, "products")).toEqual({
        insert: PRODUCT_HOOKS.insert.map(follow),
        update: PRODUCT_HOOKS.update.map(follow),
        delete: PRODUCT_HOOKS.delete,
      });
      expect((await getHooks(ctx.h, renameDb, "products")).insert[2]).toEqual({ set: "total", expr: "new.amount * double(new.quantity)" });
      const made = await ctx.h.request("POST", `/v1/${renameDb}/products`, { body: { title: "Tall Glass", amount: 2.5, quantity: 4 } });
      expect(made.status, made.text).toBe(201);
      expect(made.body).toMatchObject({ handle: "tall-glass", total: 10 });
    });

    it("renaming a column no hook uses leaves the hooks as they were", async () => {
      await putHooks(ctx.h, db, "products", PRODUCT_HOOKS);
      const reply = await ctx.h.request("PATCH", columnPath("products", "note"), { body: { name: "remark" } });
      expect(reply.status, reply.text).toBe(200);
      expect(await getHooks(ctx.h, db, "products")).toEqual(PRODUCT_HOOKS);
    });

    it.each([
      ["used in an expression", "quantity", /products\.(insert|update|delete)|(insert|update|delete) hook/],
      ["the target of a set", "slug", /products\.(insert|update)|(insert|update) hook/],
    ])("dropping a column %s is refused with 409 naming the hook; the column stays", async (_what, column, names) => {
      await putHooks(ctx.h, db, "products", PRODUCT_HOOKS);
      const reply = await ctx.h.request("DELETE", columnPath("products", column));
      expectError(reply, 409, "conflict");
      expect(reply.body.message).toContain(column);
      expect(reply.body.message).toMatch(/hook/i);
      expect(reply.body.message).toMatch(names);
      const table = await ctx.h.request("GET", `/api/v1/databases/${db}/tables/products`);
      expect(table.body.columns.map((c: { name: string }) => c.name)).toContain(column);
    });

    it("dropping the column is allowed once no hook uses it", async () => {
      // A database of its own: the other cases' hooks need the shared one's slug column.
      const dropDb = await createDatabase(ctx.h, "hook drop", SHOP_TABLES);
      await putHooks(ctx.h, dropDb, "products", { insert: [{ set: "total", expr: "new.price" }] });
      const reply = await ctx.h.request("DELETE", `/api/v1/databases/${dropDb}/tables/products/columns/slug`);
      expect(reply.status, reply.text).toBe(204);
      await putHooks(ctx.h, dropDb, "products", { insert: [{ set: "total", expr: TOTAL }] });
    });
  });

  describe("OpenAPI", () => {
    type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { responses: Record<string, unknown> } };
    const serverError = (doc: Doc, path: string, method: string) => JSON.stringify(doc.paths[path][method].responses["500"]);

    it("documents PreHookFailed as the 500 of exactly the operations whose action has hooks", async () => {
      const docsDb = await createDatabase(ctx.h, "hook docs", SHOP_TABLES);
      await putHooks(ctx.h, docsDb, "products", { insert: PRODUCT_HOOKS.insert, delete: PRODUCT_HOOKS.delete });
      const reply = await ctx.h.request("GET", `/v1/${docsDb}/openapi.json`);
      expect(reply.status, reply.text).toBe(200);
      const doc = reply.body as Doc;
      expect(serverError(doc, "/products", "post")).toContain("PreHookFailed");
      expect(serverError(doc, "/products/{id}", "delete")).toContain("PreHookFailed");
      // No update hook: PUT and PATCH keep the plain internal error; reads never run hooks; nor does a table without any.
      expect(serverError(doc, "/products/{id}", "patch")).not.toContain("PreHookFailed");
      expect(serverError(doc, "/products/{id}", "put")).not.toContain("PreHookFailed");
      expect(serverError(doc, "/products", "get")).not.toContain("PreHookFailed");
      expect(serverError(doc, "/shares", "post")).not.toContain("PreHookFailed");
      const ref = JSON.parse(serverError(doc, "/products", "post")).$ref as string | undefined;
      if (ref) expect(doc.components.responses[ref.split("/").pop()!], `${ref} should resolve`).toBeDefined();
      expect(serverError(doc, "/products", "post")).not.toBe(serverError(doc, "/shares", "post"));
    });
  });
});

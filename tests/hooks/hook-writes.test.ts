// Pre hooks on the data API's writes: set steps fill columns (a slug and a total) on POST, bulk POST, PUT and
// PATCH (update sees the stored row merged with the body), a false assert refuses with 422 and a runtime error
// with 500, and a refused write leaves the table exactly as it was, for single rows and bulk alike.
import { beforeAll, describe, expect, it } from "vitest";
import { expect422, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";
import { expectHookAssert, expectHookFailed, makeShop, putHooks, readLogs, snapshot } from "./hooks-fixture";

describe.each(ENGINES)("pre hooks on writes (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";
  const products = () => `/v1/${db}/products`;
  const shares = () => `/v1/${db}/shares`;

  beforeAll(async () => {
    db = await makeShop(ctx.h, "hook writes");
  });

  /** Sends a refused request and checks the table is byte-for-byte what it was; returns the reply. */
  const refusedAndUnchanged = async (table: string, method: string, url: string, body?: unknown) => {
    const before = await snapshot(ctx.h, db, table);
    const reply = await ctx.h.request(method, url, { body });
    expect(await snapshot(ctx.h, db, table)).toBe(before);
    return reply;
  };

  describe("set steps", () => {
    it("POST fills the slug and the total computed from the body", async () => {
      const reply = await ctx.h.request("POST", products(), { body: { title: "Blue Denim Jacket", price: 12.25, quantity: 3 } });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ title: "Blue Denim Jacket", slug: "blue-denim-jacket", price: 12.25, quantity: 3, total: 36.75 });
      const stored = await ctx.h.request("GET", `${products()}/${reply.body.id}`);
      expect(stored.body).toMatchObject({ slug: "blue-denim-jacket", total: 36.75 });
    });

    it("a set step overrides what the client sent for that column", async () => {
      const reply = await ctx.h.request("POST", products(), { body: { title: "Red Cap", slug: "whatever-i-like", price: 2.5, quantity: 2, total: 999 } });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ slug: "red-cap", total: 5 });
    });

    it("a bulk POST runs the hook for every row", async () => {
      const reply = await ctx.h.request("POST", products(), {
        body: [
          { title: "One Thing", price: 1.5, quantity: 2 },
          { title: "Two Things", price: 0.25, quantity: 8 },
        ],
      });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.map((r: Record<string, unknown>) => [r.slug, r.total])).toEqual([
        ["one-thing", 3],
        ["two-things", 2],
      ]);
    });

    it("PATCH runs the update hook on the stored row merged with the body (total from the stored price)", async () => {
      const made = await ctx.h.request("POST", products(), { body: { title: "Green Scarf", price: 4.5, quantity: 1 } });
      expect(made.status, made.text).toBe(201);
      const patched = await ctx.h.request("PATCH", `${products()}/${made.body.id}`, { body: { quantity: 4 } });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body).toMatchObject({ title: "Green Scarf", slug: "green-scarf", price: 4.5, quantity: 4, total: 18 });
      const renamed = await ctx.h.request("PATCH", `${products()}/${made.body.id}`, { body: { title: "Dark Green Scarf" } });
      expect(renamed.body).toMatchObject({ slug: "dark-green-scarf", total: 18 });
    });

    it("PUT runs the update hook on the replacement", async () => {
      const made = await ctx.h.request("POST", products(), { body: { title: "Old Name", price: 1, quantity: 1 } });
      const put = await ctx.h.request("PUT", `${products()}/${made.body.id}`, { body: { title: "New Name", price: 1.75, quantity: 4 } });
      expect(put.status, put.text).toBe(200);
      expect(put.body).toMatchObject({ title: "New Name", slug: "new-name", price: 1.75, quantity: 4, total: 7 });
    });

    it("a set value is validated like a client value: a slug longer than varchar(40) is refused, nothing written", async () => {
      const title = "A Title That Is Fine As A Title But Far Too Long For The Slug";
      const reply = await refusedAndUnchanged("products", "POST", products(), { title, price: 1, quantity: 1 });
      expect422(reply);
      expect(reply.body.errors.map((e: { code: string }) => e.code)).toContain("too_long");
    });
  });

  describe("asserts", () => {
    it("a false assert refuses a POST with 422, the step's message, field hook.insert[1], writing nothing", async () => {
      const reply = await refusedAndUnchanged("products", "POST", products(), { title: "Free Lunch", price: 0, quantity: 1 });
      expectHookAssert(reply, "hook.insert[1]", "price must be positive");
    });

    it("a false assert on update sees old: doubling the price twice over is refused, the row unchanged", async () => {
      const made = await ctx.h.request("POST", products(), { body: { title: "Lamp", price: 10, quantity: 1 } });
      const reply = await refusedAndUnchanged("products", "PATCH", `${products()}/${made.body.id}`, { price: 25 });
      expectHookAssert(reply, "hook.update[1]", "price may at most double");
      const allowed = await ctx.h.request("PATCH", `${products()}/${made.body.id}`, { body: { price: 20 } });
      expect(allowed.status, allowed.text).toBe(200);
      expect(allowed.body).toMatchObject({ price: 20, total: 20 });
    });

    it("a delete assert refuses deleting a product in stock and allows a sold-out one", async () => {
      const made = await ctx.h.request("POST", products(), { body: { title: "Vase", price: 3, quantity: 2 } });
      const reply = await refusedAndUnchanged("products", "DELETE", `${products()}/${made.body.id}`);
      expectHookAssert(reply, "hook.delete[0]", "only sold-out products can be deleted");
      expect((await ctx.h.request("PATCH", `${products()}/${made.body.id}`, { body: { quantity: 0 } })).status).toBe(200);
      expect((await ctx.h.request("DELETE", `${products()}/${made.body.id}`)).status).toBe(204);
      expect((await ctx.h.request("GET", `${products()}/${made.body.id}`)).status).toBe(404);
    });
  });

  describe("all or nothing", () => {
    const okRow = (i: number) => ({ title: `Bulk Row ${i}`, price: 1, quantity: i });

    it("a bulk POST whose row 3 fails an assert writes none of the rows", async () => {
      const reply = await refusedAndUnchanged("products", "POST", products(), [okRow(1), okRow(2), { title: "Bad Row", price: -1, quantity: 1 }, okRow(4)]);
      // The contract names the step; a bulk write may prefix the row as the body validation does ("[2].").
      expectHookAssert(reply, /^(\[2\]\.)?hook\.insert\[1\]$/, "price must be positive");
    });

    it("a bulk POST whose row 3 fails at run time answers 500 and writes none of the rows", async () => {
      const rows = [{ name: "a", parts: 1 }, { name: "b", parts: 2 }, { name: "c", parts: 0 }];
      const reply = await refusedAndUnchanged("shares", "POST", shares(), rows);
      expectHookFailed(reply, "shares.insert", 1);
    });

    it("a runtime error (division by zero) answers 500 naming hook and step, writes nothing, and is logged with its error", async () => {
      const reply = await refusedAndUnchanged("shares", "POST", shares(), { name: "zero", parts: 0 });
      expectHookFailed(reply, "shares.insert", 1);
      expect(reply.text).not.toMatch(/at .+\.(ts|js):\d+/);
      const [latest] = await readLogs(ctx.h, db, "table=shares&status=failed&_limit=1");
      expect(latest).toMatchObject({ table: "shares", action: "insert", status: "failed" });
      expect(latest.steps[0]).toEqual({ index: 0, result: "ZERO" });
      expect(latest.steps[1]).toEqual({ index: 1, error: expect.stringMatching(/division|zero/i) });
    });

    it("the same hook allows a row it can compute", async () => {
      const reply = await ctx.h.request("POST", shares(), { body: { name: "quarter", parts: 4 } });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ label: "QUARTER", share: 250 });
    });
  });

  describe("hooks are per table and can be removed", () => {
    it("emptying the insert hook stops it: the slug stays as sent", async () => {
      await putHooks(ctx.h, db, "shares", { insert: [] });
      const reply = await ctx.h.request("POST", shares(), { body: { name: "plain", parts: 0 } });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ label: null, share: null });
    });
  });
});

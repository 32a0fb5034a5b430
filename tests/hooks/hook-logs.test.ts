// Every hook run is logged (ok, rejected, failed; also when the write rolled back), newest first, filtered by
// table and status and limited; password values never reach the log. Trying a hook on a sample row answers
// what the write would do without writing or logging anything.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expectError, ISO_UTC, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";
import { hooksPath, type LogEntry, PRODUCT_HOOKS, putHooks, readLogs, SHARE_HOOKS, SHOP_TABLES, snapshot } from "./hooks-fixture";

const PASSWORD = "hunter2-very-secret-pass";

describe.each(ENGINES)("pre hook logs and try (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";

  beforeAll(async () => {
    db = await createDatabase(ctx.h, "hook logs", [
      ...SHOP_TABLES,
      { name: "members", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
    ]);
    await putHooks(ctx.h, db, "products", PRODUCT_HOOKS);
    await putHooks(ctx.h, db, "shares", SHARE_HOOKS);
    await putHooks(ctx.h, db, "members", {
      insert: [
        { set: "email", expr: "new.email.lowerAscii()" },
        { assert: 'new.email.endsWith("@example.com")', message: "members must use an example.com address" },
      ],
      update: [{ set: "email", expr: "new.email.lowerAscii()" }],
    });
  });

  describe("logs", () => {
    let all: LogEntry[] = [];

    beforeAll(async () => {
      const post = (path: string, body: unknown) => ctx.h.request("POST", `/v1/${db}/${path}`, { body });
      expect((await post("products", { title: "Ok One", price: 2, quantity: 1 })).status).toBe(201);
      expect((await post("products", { title: "Refused", price: 0, quantity: 1 })).status).toBe(422);
      expect((await post("shares", { name: "broken", parts: 0 })).status).toBe(500);
      expect((await post("members", { email: "Ann@Example.com", password: PASSWORD })).status).toBe(201);
      expect((await post("members", { email: "eve@elsewhere.org", password: PASSWORD })).status).toBe(422);
      all = await readLogs(ctx.h, db);
    });

    it("logs every run, newest first, each with the contract's fields", () => {
      expect(all.map((e) => [e.table, e.status])).toEqual([
        ["members", "rejected"],
        ["members", "ok"],
        ["shares", "failed"],
        ["products", "rejected"],
        ["products", "ok"],
      ]);
      for (const entry of all) {
        expect(entry).toEqual({
          id: expect.any(Number),
          table: expect.any(String),
          action: "insert",
          status: expect.any(String),
          duration_ms: expect.any(Number),
          input: expect.anything(),
          steps: expect.any(Array),
          created_at: expect.stringMatching(ISO_UTC),
        });
        expect(entry.duration_ms).toBeGreaterThanOrEqual(0);
      }
      const ids = all.map((e) => e.id);
      expect(ids).toEqual([...ids].sort((x, y) => y - x));
    });

    it("records each step's result, and where a run stopped, the failing step's error", () => {
      const [, , failed, rejected, ok] = all;
      expect(ok.steps).toEqual([
        { index: 0, result: "ok-one" },
        { index: 1, result: true },
        { index: 2, result: 2 },
      ]);
      expect(rejected.steps).toEqual([
        { index: 0, result: "refused" },
        { index: 1, result: false },
      ]);
      expect(failed.steps).toEqual([
        { index: 0, result: "BROKEN" },
        { index: 1, error: expect.stringMatching(/division|zero/i) },
      ]);
      expect(JSON.stringify(ok.input)).toContain("Ok One");
    });

    it("never logs a password value: the input shows [redacted], for a run that wrote and one that was refused", async () => {
      const members = await readLogs(ctx.h, db, "table=members");
      expect(members).toHaveLength(2);
      for (const entry of members) {
        const input = JSON.stringify(entry.input);
        expect(input).toContain('"password":"[redacted]"');
        expect(input).not.toContain(PASSWORD);
      }
      expect(JSON.stringify(members[1].input)).toContain("Ann@Example.com");
      const text = (await ctx.h.request("GET", `/api/v1/databases/${db}/hooks/logs`)).text;
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toMatch(/\$2[aby]\$/);
    });

    it.each([
      ["table=products", ["products", "products"], ["rejected", "ok"]],
      ["status=rejected", ["members", "products"], ["rejected", "rejected"]],
      ["status=failed", ["shares"], ["failed"]],
      ["table=members&status=ok", ["members"], ["ok"]],
      ["_limit=2", ["members", "members"], ["rejected", "ok"]],
      ["table=products&_limit=1", ["products"], ["rejected"]],
      ["table=nothing", [], []],
    ])("filters by %s", async (query, tables, statuses) => {
      const entries = await readLogs(ctx.h, db, query);
      expect(entries.map((e) => e.table)).toEqual(tables);
      expect(entries.map((e) => e.status)).toEqual(statuses);
    });

    it("refuses an unknown status with 422", async () => {
      expectError(await ctx.h.request("GET", `/api/v1/databases/${db}/hooks/logs?status=maybe`), 422, "validation_failed");
    });

    it("keeps logs to the database: another account cannot read them", async () => {
      const other = await ctx.h.createAccount();
      const reply = await ctx.h.request("GET", `/api/v1/databases/${db}/hooks/logs`, { key: other.key });
      expect([403, 404]).toContain(reply.status);
      expect(reply.text).not.toContain("Ok One");
    });
  });

  describe("try on a sample row", () => {
    const tryHook = (table: string, body: unknown) => ctx.h.request("POST", `${hooksPath(db, table)}/try`, { body });

    /** Runs the try and checks it wrote nothing and logged nothing. */
    const tryWithoutEffects = async (table: string, body: unknown) => {
      const before = await snapshot(ctx.h, db, table);
      const logs = (await readLogs(ctx.h, db)).length;
      const reply = await tryHook(table, body);
      expect(reply.status, reply.text).toBe(200);
      expect(await snapshot(ctx.h, db, table)).toBe(before);
      expect((await readLogs(ctx.h, db)).length).toBe(logs);
      expect(reply.body.duration_ms).toBeTypeOf("number");
      return reply.body;
    };

    it("ok: answers the row after the sets and each step's result", async () => {
      const body = await tryWithoutEffects("products", { action: "insert", row: { title: "Sample Mug", price: 3.5, quantity: 2 } });
      expect(body).toMatchObject({ status: "ok", row: { title: "Sample Mug", slug: "sample-mug", price: 3.5, quantity: 2, total: 7 } });
      expect(body.steps.map((s: { index: number }) => s.index)).toEqual([0, 1, 2]);
      expect(body.message).toBeUndefined();
    });

    it("rejected: answers the assert's message and stops at it", async () => {
      const body = await tryWithoutEffects("products", { action: "insert", row: { title: "Gift", price: 0, quantity: 1 } });
      expect(body).toMatchObject({ status: "rejected", message: "price must be positive" });
      expect(body.steps).toHaveLength(2);
      expect(body.steps[1]).toEqual({ index: 1, result: false });
    });

    it("failed: answers the runtime error on its step", async () => {
      const body = await tryWithoutEffects("shares", { action: "insert", row: { name: "none", parts: 0 } });
      expect(body.status).toBe("failed");
      expect(body.steps[1]).toEqual({ index: 1, error: expect.stringMatching(/division|zero/i) });
    });

    it("update: uses the given old row, merged under the new one", async () => {
      const old = { title: "Lamp", slug: "lamp", price: 10, quantity: 1, total: 10 };
      const ok = await tryWithoutEffects("products", { action: "update", old, row: { ...old, quantity: 3 } });
      expect(ok).toMatchObject({ status: "ok", row: { slug: "lamp", total: 30 } });
      const refused = await tryWithoutEffects("products", { action: "update", old, row: { ...old, price: 30 } });
      expect(refused).toMatchObject({ status: "rejected", message: "price may at most double" });
    });

    it("refuses an unknown action with 422", async () => {
      expectError(await tryHook("products", { action: "upsert", row: {} }), 422, "validation_failed");
    });
  });
});

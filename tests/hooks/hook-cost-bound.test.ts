// The pre-hook cost bound: a hook whose cost cannot be bounded is refused at save; one that got in
// before the bound existed, or meets a large row, fails fast with 500 without building a value over 1 MiB or
// holding the server: a GET /healthz sent while it runs is answered at once. Log rows stay small.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expectError, useHarness } from "../contract/contract-helpers";
import { ENGINES, type Harness } from "../helpers/harness";
import { expectHookFailed, hooksPath, putHooks, readLogs, snapshot } from "./hooks-fixture";

const NAMES = "abcdefghij";

/** `n` cel.bind doublings of the row's note (a = note + note, b = a + a, …) around `body`. */
const doubling = (n: number, body: string) => {
  let expr = body;
  for (let i = n - 1; i >= 0; i--) expr = `cel.bind(${NAMES[i]}, ${i === 0 ? "new.note + new.note" : `${NAMES[i - 1]} + ${NAMES[i - 1]}`}, ${expr})`;
  return expr;
};
const sizes = (name: string, n: number) => Array.from({ length: n }, () => `size(${name})`).join(" + ");

/** A hook whose cost cannot be bounded: ten doublings (64 M characters from 60 KB) and sixteen size() calls. */
const UNBOUNDED_HOOK = { assert: `${doubling(10, `${sizes("j", 16)} > 0`)}`, message: "never" };
/** Four doublings stay under 1 MiB (960,000 characters); forty searches then walk it for ~0.6 s. */
const WALKING_HOOK = { assert: doubling(4, Array.from({ length: 40 }, () => 'd.contains("nnx")').join(" || ")), message: "never" };
const NOTE = "n".repeat(60_000);

/** Stores steps as a version without the save-time bound would have (PUT refuses them now). */
const storeUnchecked = async (h: Harness, db: string, steps: object[]) => {
  await putHooks(h, db, "things", { insert: [{ assert: "true", message: "placeholder" }] });
  const meta = h.app.engine.meta;
  const { id } = await meta.selectFrom("databases").select("id").where("instance", "=", db).executeTakeFirstOrThrow();
  await meta.updateTable("table_hooks").set({ hooks: JSON.stringify({ insert: steps, update: [], delete: [] }) }).where("database_id", "=", id).execute();
  h.app.schemas.delete(db);
  return id;
};

/** Sends the write, and 20 ms later a GET /healthz; returns both replies and how late the health answer was. */
const writeWithHealthCheck = async (h: Harness, path: string, body: unknown) => {
  const started = performance.now();
  const write = h.request("POST", path, { body });
  const health = new Promise<{ status: number; lateMs: number }>((resolve) => {
    setTimeout(async () => {
      const reply = await h.request("GET", "/healthz", { key: null });
      resolve({ status: reply.status, lateMs: performance.now() - (started + 20) });
    }, 20);
  });
  const [reply, healthz] = await Promise.all([write, health]);
  return { reply, healthz, ms: performance.now() - started };
};

/** Bytes of the newest hook log row of a database as stored in the metadata store. */
const newestLogRowBytes = async (h: Harness, databaseId: number) => {
  const row = await h.app.engine.meta.selectFrom("hook_logs").select(["input", "steps"]).where("database_id", "=", databaseId).orderBy("id", "desc").executeTakeFirstOrThrow();
  return Buffer.byteLength(row.input) + Buffer.byteLength(row.steps);
};

describe.each(ENGINES)("pre hook cost bound (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";
  const things = () => `/v1/${db}/things`;

  beforeAll(async () => {
    db = await createDatabase(ctx.h, "hook cost", [{ name: "things", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "note", type: "text" }, { name: "data", type: "json" }] }]);
  });

  describe("at save", () => {
    it("refuses an unbounded hook (ten doublings, sixteen size() calls) with 422 naming the step", async () => {
      const reply = await ctx.h.request("PUT", hooksPath(db, "things"), { body: { insert: [{ set: "title", expr: "new.title" }, UNBOUNDED_HOOK] } });
      expectError(reply, 422, "validation_failed");
      expect(reply.body.errors).toEqual([{ field: "insert[1].assert", code: "cost_unbounded", message: expect.stringMatching(/cannot be bounded/) }]);
    });

    it("accepts steps that walk the row's text a bounded number of times", async () => {
      await putHooks(ctx.h, db, "things", {
        insert: [
          { assert: "cel.bind(a, new.note + new.note, size(a) >= 0)", message: "m" },
          { set: "title", expr: 'new.note.lowerAscii().split(" ").join("-")' },
        ],
      });
    });

    it("size() still counts code points (an emoji is one), as CEL does", async () => {
      await putHooks(ctx.h, db, "things", { insert: [{ set: "title", expr: "string(size(new.note))" }] });
      const reply = await ctx.h.request("POST", things(), { body: { title: "t", note: "é😀x" } });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.title).toBe("3");
    });

    it.each([
      ["a list macro hidden behind a comment", "[1, 2].//x\nmap(x, x * 2) == [2, 4]"],
      ["matches() hidden behind a comment", 'new.title.//x\nmatches("a+")'],
    ])("refuses %s (422 invalid_expression)", async (_what, expr) => {
      const reply = await ctx.h.request("PUT", hooksPath(db, "things"), { body: { insert: [{ assert: expr, message: "m" }] } });
      expectError(reply, 422, "validation_failed");
      expect(reply.body.errors).toEqual([expect.objectContaining({ field: "insert[0].assert", code: "invalid_expression" })]);
    });
  });

  describe("while a hook runs", () => {
    it("an unbounded hook, stored before the bound, stops at 1 MiB: 500 at once, /healthz answered meanwhile", async () => {
      const databaseId = await storeUnchecked(ctx.h, db, [UNBOUNDED_HOOK]);
      const before = await snapshot(ctx.h, db, "things");
      const { reply, healthz, ms } = await writeWithHealthCheck(ctx.h, things(), { title: "t", note: NOTE });
      expectHookFailed(reply, "things.insert", 0);
      expect(reply.body.message).toMatch(/larger than 1048576/);
      expect(healthz.status).toBe(200);
      expect(healthz.lateMs, "GET /healthz waited behind the hook").toBeLessThan(250);
      expect(ms).toBeLessThan(1000);
      expect(await snapshot(ctx.h, db, "things")).toBe(before);
      expect(await newestLogRowBytes(ctx.h, databaseId), "the stored log row").toBeLessThan(8_000);
    });

    it("a hook that walks large values is stopped by its 50 ms budget while it runs; /healthz answered meanwhile", async () => {
      await storeUnchecked(ctx.h, db, [WALKING_HOOK]);
      const { reply, healthz } = await writeWithHealthCheck(ctx.h, things(), { title: "t", note: NOTE });
      expectHookFailed(reply, "things.insert", 0);
      expect(reply.body.message).toMatch(/50 ms budget/);
      expect(healthz.status).toBe(200);
      expect(healthz.lateMs, "GET /healthz waited behind the hook").toBeLessThan(250);
      const [logged] = await readLogs(ctx.h, db, "table=things&_limit=1");
      expect(logged).toMatchObject({ status: "failed", steps: [{ index: 0, error: "time budget of 50 ms exceeded" }] });
      expect(logged.duration_ms).toBeLessThan(100);
    });

    it.each([
      ["split", `${doubling(3, 'c.split("").size() > 0')}`, "split()"],
      ["join with a long separator", `${doubling(2, '[b, b, b, b, b].join(b + b) != ""')}`, "join()"],
      ["a list literal", `${doubling(3, "[c, c, c, c, c].size() > 0")}`, "a list"],
      ["a map literal", `${doubling(3, '{"x": c, "y": c, "z": c, "w": c, "v": c}.size() > 0')}`, "a map"],
      ["upperAscii of non-ASCII text (ß becomes SS)", `${doubling(4, 'd.upperAscii() != ""')}`, "upperAscii()"],
    ])("%s past 1 MiB fails the step before the value is built (stored before the bound; note of 30,000 ß)", async (_what, assert, what) => {
      await storeUnchecked(ctx.h, db, [{ assert, message: "never" }]);
      const reply = await ctx.h.request("POST", things(), { body: { title: "t", note: "ß".repeat(30_000) } });
      expectHookFailed(reply, "things.insert", 0);
      expect(reply.body.message).toContain(`${what === "a list" || what === "a map" ? what : `the result of ${what}`} would be larger than 1048576`);
    });

    it("a saved step whose result would pass 1 MiB fails with 500 before building it; under 1 MiB it is written", async () => {
      // A json column reaches CEL as its JSON text, so this doubles the text of the value.
      await putHooks(ctx.h, db, "things", { insert: [{ set: "note", expr: "new.data + new.data" }] });
      const before = await snapshot(ctx.h, db, "things");
      const refused = await ctx.h.request("POST", things(), { body: { title: "big", data: "x".repeat(600_000) } });
      expectHookFailed(refused, "things.insert", 0);
      expect(refused.body.message).toContain(": the result of + would be larger than 1048576 (1 MiB), the limit of any value a hook builds.");
      expect(await snapshot(ctx.h, db, "things")).toBe(before);
      const allowed = await ctx.h.request("POST", things(), { body: { title: "small", data: "xy" } });
      expect(allowed.status, allowed.text).toBe(201);
      expect(allowed.body.note).toBe('"xy""xy"');
    });
  });
});

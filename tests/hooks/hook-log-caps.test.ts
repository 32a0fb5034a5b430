// Hook logs stay small: a logged input, step result or error over 2 KB is cut to its first 2 KB of
// JSON and marked, a whole entry's results stay under 8 KB, and each database keeps at most its newest 1,000
// entries (oldest dropped first) without touching another database's.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, useHarness } from "../contract/contract-helpers";
import { ENGINES, type Harness } from "../helpers/harness";
import { putHooks, readLogs } from "./hooks-fixture";

const BIG = "b".repeat(60_000);
const TABLES = [{ name: "things", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "note", type: "text" }, { name: "data", type: "json" }] }];

const databaseIdOf = async (h: Harness, instance: string) =>
  (await h.app.engine.meta.selectFrom("databases").select("id").where("instance", "=", instance).executeTakeFirstOrThrow()).id;

/** The stored log rows of a database, newest first, with their size in bytes as the metadata store holds them. */
const storedRows = async (h: Harness, instance: string) => {
  await readLogs(h, instance, "_limit=1"); // flushes the queue
  const rows = await h.app.engine.meta.selectFrom("hook_logs").select(["id", "input", "steps"]).where("database_id", "=", await databaseIdOf(h, instance)).orderBy("id", "desc").execute();
  return rows.map((r) => ({ id: r.id, bytes: Buffer.byteLength(r.input) + Buffer.byteLength(r.steps) }));
};

describe.each(ENGINES)("pre hook log caps (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";
  const things = () => `/v1/${db}/things`;

  beforeAll(async () => {
    db = await createDatabase(ctx.h, "hook log caps", TABLES);
  });

  it("an input over 2 KB is logged as its first 2 KB of JSON, marked; a small one whole", async () => {
    await putHooks(ctx.h, db, "things", { insert: [{ set: "title", expr: "new.title.upperAscii()" }] });
    expect((await ctx.h.request("POST", things(), { body: { title: "big", note: BIG } })).status).toBe(201);
    expect((await ctx.h.request("POST", things(), { body: { title: "small", note: "n" } })).status).toBe(201);
    const [small, big] = await readLogs(ctx.h, db, "_limit=2");
    expect(small).toMatchObject({ input: { title: "small", note: "n" }, steps: [{ index: 0, result: "SMALL" }] });
    expect(small).not.toHaveProperty("input_truncated");
    expect(big).toMatchObject({ input_truncated: true, steps: [{ index: 0, result: "BIG" }] });
    expect(big.input).toHaveLength(2048);
    expect(big.input).toMatch(/^\{"title":"big","note":"bbbb/);
  });

  it("a step result over 2 KB is cut and marked, while the row is written whole", async () => {
    await putHooks(ctx.h, db, "things", { insert: [{ set: "note", expr: 'new.note + "!"' }, { set: "title", expr: '"t"' }] });
    const reply = await ctx.h.request("POST", things(), { body: { title: "x", note: BIG } });
    expect(reply.status, reply.text.slice(0, 200)).toBe(201);
    expect(reply.body.note).toHaveLength(60_001);
    const [entry] = await readLogs(ctx.h, db, "_limit=1");
    expect(entry.steps).toEqual([
      { index: 0, result: `"${"b".repeat(2047)}`, truncated: true },
      { index: 1, result: "t" },
    ]);
  });

  it("five large results together stay under 8 KB: later ones get what is left", async () => {
    const steps = Array.from({ length: 5 }, () => ({ set: "note", expr: 'new.note + "+"' }));
    await putHooks(ctx.h, db, "things", { insert: steps });
    expect((await ctx.h.request("POST", things(), { body: { title: "x", note: BIG } })).status).toBe(201);
    const [entry] = await readLogs(ctx.h, db, "_limit=1");
    expect(entry.steps.map((s) => ("result" in s ? String(s.result).length : -1))).toEqual([2048, 2048, 2048, 2048, 0]);
    expect(entry.steps.every((s) => (s as { truncated?: boolean }).truncated)).toBe(true);
    const [row] = await storedRows(ctx.h, db);
    expect(row.bytes).toBeLessThan(11_000);
  });

  it("a set step whose ~1 MB result the column refuses (422) leaves a small log row", async () => {
    await putHooks(ctx.h, db, "things", { insert: [{ set: "note", expr: "new.data + new.data" }] });
    const reply = await ctx.h.request("POST", things(), { body: { title: "x", data: "d".repeat(500_000) } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors[0]).toMatchObject({ field: "note", code: "too_long" });
    const [row] = await storedRows(ctx.h, db);
    expect(row.bytes, "one request's log row").toBeLessThan(5_000);
  });

  it("keeps each database's newest 1,000 entries, dropping the oldest, and leaves other databases alone", async () => {
    const other = await createDatabase(ctx.h, "hook log caps other", TABLES);
    const hook = { insert: [{ set: "title", expr: "new.title" }] };
    await putHooks(ctx.h, db, "things", hook);
    await putHooks(ctx.h, other, "things", hook);
    for (const n of [1, 2]) expect((await ctx.h.request("POST", `/v1/${other}/things`, { body: { title: `other ${n}` } })).status).toBe(201);
    const first = Array.from({ length: 1000 }, (_, i) => ({ title: `bulk ${i}` }));
    expect((await ctx.h.request("POST", things(), { body: first })).status).toBe(201);
    const afterBulk = await storedRows(ctx.h, db);
    expect(afterBulk).toHaveLength(1000);
    const more = Array.from({ length: 5 }, (_, i) => ({ title: `late ${i}` }));
    expect((await ctx.h.request("POST", things(), { body: more })).status).toBe(201);
    const rows = await storedRows(ctx.h, db);
    expect(rows).toHaveLength(1000);
    expect(rows.at(-1)!.id, "the five oldest are gone").toBe(afterBulk.at(-1)!.id + 5);
    expect((await readLogs(ctx.h, db, "_limit=1"))[0].input).toEqual({ title: "late 4" });
    expect(await storedRows(ctx.h, other)).toHaveLength(2);
  });

  it("a write by filter over 5,000 rows with an update hook still logs its newest 1,000 runs", async () => {
    const many = await createDatabase(ctx.h, "hook log caps many", TABLES);
    for (let i = 0; i < 5; i++) {
      const rows = Array.from({ length: 1000 }, (_, n) => ({ title: `row ${i * 1000 + n}` }));
      expect((await ctx.h.request("POST", `/v1/${many}/things`, { body: rows })).status).toBe(201);
    }
    await putHooks(ctx.h, many, "things", { update: [{ set: "note", expr: "new.title" }] });
    const patched = await ctx.h.request("PATCH", `/v1/${many}/things?id_gt=0`, { body: { note: "x" } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toEqual({ affected: 5000 });
    const rows = await storedRows(ctx.h, many);
    expect(rows, "the newest 1,000 of the 5,000 runs").toHaveLength(1000);
  }, 60_000);
});

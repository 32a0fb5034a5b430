// Backups over real HTTP: an archive taken while four writers insert and update restores (same engine and
// across engines) to the source as it was at the backup's event id, every column type value for value; and a
// restored database works (its users sign in with their kept password hashes, its hooks and policies apply).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvents } from "../../lib/events/outbox/read-events";
import { loadSchema } from "../../lib/meta/load-schema";
import type { EngineKind } from "../../lib/config";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { BIG_BEYOND_DOUBLE, download, dumpRows, makeKindsDatabase, restore, takeBackup } from "./backup-fixture";

const harnesses = new Map<EngineKind, Harness>();
const sources = new Map<EngineKind, { db: string; archive: Buffer; eventId: number; final: Record<string, unknown[]>; atBackup: Record<string, unknown[]> }>();

/** Four writers inserting and updating `items` until stopped. */
const startWriters = (h: Harness, db: string) => {
  let running = true;
  let writes = 0;
  const writer = async (w: number) => {
    const mine: number[] = [];
    for (let i = 0; running; i++) {
      if (mine.length && i % 2 === 1) {
        const id = mine[i % mine.length];
        const r = await h.request("PATCH", `/v1/${db}/items/${id}`, { body: { label: `w${w}-u${i}`, at: new Date().toISOString() } });
        expect(r.status, r.text).toBe(200);
      } else {
        const r = await h.request("POST", `/v1/${db}/items`, { body: { n: w * 1_000_000 + i, label: `w${w}-i${i}` } });
        expect(r.status, r.text).toBe(201);
        mine.push(r.body.id);
      }
      writes++;
    }
  };
  const all = Promise.all([0, 1, 2, 3].map(writer));
  return { stop: async () => ((running = false), await all), writes: () => writes };
};

/** Rows of `items` as they were at `eventId`: the final rows with every event after it undone, newest first. */
const itemsAt = async (h: Harness, db: string, final: Record<string, unknown>[], eventId: number) => {
  const schema = (await loadSchema(h.app, db))!;
  const events = await readEvents(h.app.engine.userDb(schema.physical), db, eventId, 1_000_000);
  const rows = new Map(final.map((r) => [r.id as number, r]));
  for (const e of events.reverse()) {
    if (e.table !== "items") continue;
    const event = e.event as unknown as { action: string; record: Record<string, unknown>; old_record?: Record<string, unknown> };
    const id = event.record.id as number;
    if (event.action === "insert") rows.delete(id);
    else rows.set(id, event.old_record!);
  }
  return { rows: [...rows.values()].sort((a, b) => (a.id as number) - (b.id as number)), undone: events.length };
};

beforeAll(async () => {
  for (const engine of ENGINES) {
    const h = await startHarness(engine, "node");
    harnesses.set(engine, h);
    const db = await makeKindsDatabase(h, `kinds ${engine}`);
    await h.request("POST", `/v1/${db}/items`, { body: Array.from({ length: 300 }, (_, i) => ({ n: i, label: `seed ${i}` })) });
    const writers = startWriters(h, db);
    while (writers.writes() < 40) await new Promise((r) => setTimeout(r, 10));
    const backup = await takeBackup(h, db);
    const before = writers.writes();
    while (writers.writes() < before + 40) await new Promise((r) => setTimeout(r, 10));
    await writers.stop();
    expect(backup).toMatchObject({ status: "done", tables: 4, error: null });
    const final = (await dumpRows(h, db)).rows;
    const archive = await download(h, db, backup.id);
    expect(archive.length).toBe(backup.size);
    sources.set(engine, { db, archive, eventId: backup.event_id, final, atBackup: {} });
  }
}, 120_000);

afterAll(async () => {
  for (const h of harnesses.values()) await h.close();
});

const pairs = ENGINES.flatMap((from) => ENGINES.map((to) => [from, to] as const));

describe.each(pairs)("a backup taken on %s under concurrent writes, restored on %s", (from, to) => {
  let restored: { rows: Record<string, unknown[]> };
  let instance: string;

  beforeAll(async () => {
    const { archive } = sources.get(from)!;
    const reply = await restore(harnesses.get(to)!, `restored from ${from}`, archive);
    expect(reply.status, reply.text).toBe(201);
    instance = reply.body.instance;
    restored = await dumpRows(harnesses.get(to)!, instance);
  }, 60_000);

  it("holds items exactly as they were at the backup's event id (the events after it undone from the final rows)", async () => {
    const source = sources.get(from)!;
    const { rows, undone } = await itemsAt(harnesses.get(from)!, source.db, source.final.items as Record<string, unknown>[], source.eventId);
    expect(undone).toBeGreaterThan(0);
    expect(restored.rows.items.length).toBeGreaterThan(300);
    expect(restored.rows.items).toEqual(rows);
    expect(restored.rows.items).not.toEqual(source.final.items);
  });

  it("keeps every column type of every row value for value, password hashes included", () => {
    const source = sources.get(from)!;
    for (const table of ["users", "authors", "kinds"]) expect(restored.rows[table], table).toEqual(source.final[table]);
    const every = (restored.rows.kinds as Record<string, unknown>[]).find((r) => r.title === "every")!;
    expect(every).toMatchObject({ price: "1234567890.12", big: 9007199254740991, qty: -2147483648, live: true, day: "2024-02-29", at: "2024-05-01T12:34:56.789Z", doc: { a: "x", b: [1, { c: null }] }, status: "live" });
    expect((restored.rows.kinds as Record<string, unknown>[]).find((r) => r.title === "small")!.big).toBe(BIG_BEYOND_DOUBLE);
    expect(String((restored.rows.users as Record<string, unknown>[])[0].password)).toMatch(/^\$2[aby]\$/);
  });

  it("works as a database: the user signs in with the kept hash, the policy and hook apply, the join reads", async () => {
    const h = harnesses.get(to)!;
    const login = await h.request("POST", `/v1/${instance}/auth/login`, { body: { email: "ann@example.com", password: "correct horse battery" }, key: null });
    expect(login.status, login.text).toBe(200);
    const asUser = await h.request("GET", `/v1/${instance}/kinds`, { key: null, headers: { authorization: `Bearer ${login.body.token}` } });
    expect(asUser.status).toBe(200);
    expect(asUser.body).toEqual([]);
    const refused = await h.request("POST", `/v1/${instance}/kinds`, { body: { title: "" } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe("title must not be empty");
    const join = await h.request("GET", `/v1/${instance}/kinds_by_author`);
    expect(join.status).toBe(200);
    expect(join.body).toEqual([{ title: "every", author: "Ünïcode “quotes” 🎉" }]);
    const next = await h.request("POST", `/v1/${instance}/items`, { body: { n: -1 } });
    expect(next.status).toBe(201);
    expect(next.body.id).toBeGreaterThan(Math.max(...(restored.rows.items as { id: number }[]).map((r) => r.id)));
  });

  it("has the source's definition", async () => {
    const h = harnesses.get(to)!;
    const source = await harnesses.get(from)!.request("GET", `/api/v1/databases/${sources.get(from)!.db}/definition`);
    const copy = await h.request("GET", `/api/v1/databases/${instance}/definition`);
    expect(copy.status).toBe(200);
    expect(copy.body).toEqual(source.body);
  });
});

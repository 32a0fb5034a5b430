// The data and management APIs on a Galera cluster: through HAProxy, and from two API nodes on two Galera nodes
// at once: conflicts, schema races, cross-node reads, events across nodes and stepped ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../lib/app";
import { physicalColumns } from "../lib/ddl/physical-columns";
import { API, call, LB, newAccountKey, openNodeApp } from "./cluster-fixture";

let app: App;
let key: string;
let db: string;

const create = async (base: string, name: string, tables: unknown[]) => {
  const reply = await call(base, "POST", "/api/v1/databases", key, { name, tables });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.instance as string;
};

beforeAll(async () => {
  app = await openNodeApp(3);
  key = await newAccountKey(app);
  db = await create(LB, "shop", [
    { name: "items", columns: [{ name: "label", type: "varchar" }, { name: "qty", type: "int", nullable: true }, { name: "code", type: "varchar", unique: true, nullable: true }] },
  ]);
});

afterAll(async () => {
  await app?.close();
});

describe("the data API through HAProxy", () => {
  it("creates, reads, filters, updates and deletes records by the ids the responses carry", async () => {
    const a = await call(LB, "POST", `/v1/${db}/items`, key, { label: "apple", qty: 3 });
    const b = await call(LB, "POST", `/v1/${db}/items`, key, { label: "pear", qty: 5 });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.id).toBeGreaterThan(a.body.id);
    expect((await call(LB, "GET", `/v1/${db}/items/${a.body.id}`, key)).body.label).toBe("apple");
    const filtered = await call(LB, "GET", `/v1/${db}/items?qty_gt=4`, key);
    expect(filtered.body.map((r: { id: number }) => r.id)).toContain(b.body.id);
    expect(filtered.body.map((r: { id: number }) => r.id)).not.toContain(a.body.id);
    expect((await call(LB, "PATCH", `/v1/${db}/items/${a.body.id}`, key, { qty: 4 })).body.qty).toBe(4);
    expect((await call(LB, "DELETE", `/v1/${db}/items/${b.body.id}`, key)).status).toBe(204);
    expect((await call(LB, "GET", `/v1/${db}/items/${b.body.id}`, key)).status).toBe(404);
  });

  it("refuses bad input with 422 naming the field, and a missing key with 401", async () => {
    const bad = await call(LB, "POST", `/v1/${db}/items`, key, { label: "x", qty: "many" });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("qty");
    expect((await call(LB, "GET", `/v1/${db}/items`, null)).status).toBe(401);
  });
});

describe("two API nodes on two Galera nodes at once", () => {
  it("100 concurrent PATCHes of one row answer 200 or 409, never 500, and the row holds one of them", async () => {
    const row = await call(API[0], "POST", `/v1/${db}/items`, key, { label: "hot", qty: 0 });
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call(API[i % 2], "PATCH", `/v1/${db}/items/${row.body.id}`, key, { qty: i + 1 })),
    );
    const statuses = new Set(replies.map((r) => r.status));
    expect([...statuses].filter((s) => s !== 200 && s !== 409), replies.find((r) => r.status >= 500)?.text).toEqual([]);
    const final = (await call(API[1], "GET", `/v1/${db}/items/${row.body.id}`, key)).body.qty;
    const written = replies.filter((r) => r.status === 200).map((r) => r.body.qty);
    expect(written).toContain(final);
  });

  it("40 races for one unique value give one 201 and 409s, never 500", async () => {
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(API[i % 2], "POST", `/v1/${db}/items`, key, { label: `dup ${i}`, code: "SAME" })),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect(replies.filter((r) => r.status !== 201).every((r) => r.status === 409), replies.find((r) => r.status !== 201 && r.status !== 409)?.text).toBe(true);
    const found = await call(API[0], "GET", `/v1/${db}/items?code=SAME`, key);
    expect(found.body).toHaveLength(1);
  });

  it("a read through one node right after a write through the other sees it (200 of 200)", async () => {
    let misses = 0;
    for (let i = 0; i < 100; i++) {
      const created = await call(API[i % 2], "POST", `/v1/${db}/items`, key, { label: `ryw ${i}`, qty: i });
      const read = await call(API[(i + 1) % 2], "GET", `/v1/${db}/items/${created.body.id}`, key);
      if (read.status !== 200) misses++;
      const patched = await call(API[i % 2], "PATCH", `/v1/${db}/items/${created.body.id}`, key, { qty: i + 1000 });
      const reread = await call(API[(i + 1) % 2], "GET", `/v1/${db}/items/${created.body.id}`, key);
      if (patched.status !== 200 || reread.body?.qty !== i + 1000) misses++;
    }
    expect(misses).toBe(0);
  });

  it("a table created through one API node is usable through the other within 1 s (the Redis events cross)", async () => {
    for (const base of API) expect((await call(base, "GET", "/readyz", null)).body.events).toBe("redis");
    // Three tables, each under 300 ms: the 1 s version poll alone (different channels) would rarely make all three.
    for (const name of ["fresh1", "fresh2", "fresh3"]) {
      expect((await call(API[1], "GET", `/v1/${db}/${name}`, key)).status).toBe(404); // node 2 caches the schema without it
      const made = await call(API[0], "POST", `/api/v1/databases/${db}/tables`, key, { name, columns: [{ name: "n", type: "int" }] });
      expect(made.status, made.text).toBe(201);
      const started = performance.now();
      let reply = await call(API[1], "POST", `/v1/${db}/${name}`, key, { n: 1 });
      while (reply.status !== 201 && performance.now() - started < 1_000) reply = await call(API[1], "POST", `/v1/${db}/${name}`, key, { n: 1 });
      expect(reply.status, reply.text).toBe(201);
      expect(performance.now() - started, name).toBeLessThan(300);
    }
  });

  it("column adds and drops from two nodes at once leave the metadata equal to information_schema", async () => {
    const made = await call(LB, "POST", `/api/v1/databases/${db}/tables`, key, { name: "wide", columns: [{ name: "base", type: "int", nullable: true }] });
    expect(made.status).toBe(201);
    const adds = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call(API[i % 2], "POST", `/api/v1/databases/${db}/tables/wide/columns`, key, { name: `c${i}`, type: "int", nullable: true })),
    );
    // Each add lands, or (retries spent) is a retryable 409 that wrote nothing; never a 500.
    const lostRace = (r: { status: number; body: any }) => r.status === 409 && r.body?.error === "write_conflict" && r.body?.retryable === true;
    expect(adds.filter((r) => r.status !== 201 && !lostRace(r)).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    const added = adds.flatMap((r, i) => (r.status === 201 ? [`c${i}`] : []));
    expect(added.length).toBeGreaterThan(6);
    const dropping = added.filter((_, i) => i % 2 === 0);
    const drops = await Promise.all(dropping.map((c, i) => call(API[i % 2], "DELETE", `/api/v1/databases/${db}/tables/wide/columns/${c}`, key)));
    expect(drops.filter((r) => r.status !== 204 && !lostRace(r)).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    const dropped = dropping.filter((_, i) => drops[i].status === 204);
    const row = await app.engine.meta.selectFrom("tables").innerJoin("databases", "databases.id", "tables.database_id")
      .select(["tables.columns", "databases.physical"]).where("databases.instance", "=", db).where("tables.name", "=", "wide").executeTakeFirstOrThrow();
    const meta = (JSON.parse(row.columns) as { name: string }[]).map((c) => c.name).sort();
    const physical = [...(await physicalColumns(app.engine.userDb(row.physical), row.physical, "wide"))!].filter((c) => !["id", "created_at", "updated_at"].includes(c)).sort();
    expect(physical).toEqual(meta);
    expect(meta).toEqual(["base", ...added.filter((c) => !dropped.includes(c))].sort());
    // Adding a column that exists is a clean 409 (not 1060 duplicate column, 500, as after a drift).
    expect((await call(LB, "POST", `/api/v1/databases/${db}/tables/wide/columns`, key, { name: meta[1], type: "int", nullable: true })).body.error).toBe("conflict");
  });
});

describe("ids on a cluster", () => {
  it("an AI build's seed rows reference the ids their inserts got (ids step by 3 here)", async () => {
    const build = await call(LB, "POST", "/api/v1/ai/builds", key, { prompt: "A shop: customers, products with a price, and orders of customers", apply: true });
    expect(build.status, build.text).toBe(201);
    expect(build.body.status, build.text).toBe("applied");
    const instance = build.body.database;
    const customers = (await call(LB, "GET", `/v1/${instance}/customers`, key)).body as { id: number }[];
    const orders = (await call(LB, "GET", `/v1/${instance}/orders`, key)).body as { customer_id: number }[];
    expect(customers.length).toBeGreaterThan(1);
    expect(customers[1].id - customers[0].id).not.toBe(1); // not consecutive: the case would pass on one server
    const ids = new Set(customers.map((c) => c.id));
    expect(orders.length).toBeGreaterThan(0);
    for (const order of orders) expect(ids).toContain(order.customer_id);
  });
});

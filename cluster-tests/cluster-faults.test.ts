// Node loss on a Galera cluster: a node without quorum, a Galera node killed and restarted, an API node killed,
// all under a write burst; and N processes migrating a fresh install on N nodes at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import mysql from "mysql2/promise";
import type { App } from "../lib/app";
import { API, call, clusterScript, GALERA_PORTS, LB, newAccountKey, openNodeApp, sleep, waitFor } from "./cluster-fixture";

let app: App;
let key: string;
let db: string;

beforeAll(async () => {
  app = await openNodeApp(3);
  key = await newAccountKey(app);
  const made = await call(LB, "POST", "/api/v1/databases", key, { name: "burst", tables: [{ name: "events", columns: [{ name: "seq", type: "int", unique: true }] }] });
  expect(made.status, made.text).toBe(201);
  db = made.body.instance;
});

afterAll(async () => {
  await app?.close();
});

const onNode = async <T>(node: number, run: (c: mysql.Connection) => Promise<T>) => {
  const conn = await mysql.createConnection({ host: "127.0.0.1", port: GALERA_PORTS[node - 1], user: "root" });
  try {
    return await run(conn);
  } finally {
    await conn.end();
  }
};

const synced = (node: number) =>
  onNode(node, async (c) => ((await c.query("SHOW STATUS LIKE 'wsrep_local_state_comment'")) as any)[0][0]?.Value === "Synced").catch(() => false);

/** Writes `seq` values through HAProxy, 4 at a time, until `stop()`; returns the acknowledged and the unanswered ones. */
const burst = (from: number) => {
  let running = true;
  let next = from;
  const acked: number[] = [];
  const failed: number[] = [];
  const unexpected: string[] = [];
  const worker = async () => {
    while (running) {
      const seq = next++;
      const reply = await call(LB, "POST", `/v1/${db}/events`, key, { seq });
      if (reply.status === 201) acked.push(seq);
      else {
        failed.push(seq);
        // Refused or cut off (the connection, HAProxy, a node without its database) — never a 500.
        if (![0, 409, 502, 503, 504].includes(reply.status)) unexpected.push(`seq ${seq}: ${reply.status} ${reply.text}`);
        await sleep(20);
      }
    }
  };
  const workers = Array.from({ length: 4 }, worker);
  return { acked, failed, unexpected, stop: async () => ((running = false), await Promise.all(workers)) };
};

/** Every acknowledged row is there exactly once; nothing is there twice. */
const expectRows = async (acked: number[]) => {
  const rows = await sql<{ seq: number; n: number }>`SELECT seq, COUNT(*) AS n FROM ${sql.id(await physicalOf(), "events")} GROUP BY seq`.execute(app.engine.meta);
  const counts = new Map(rows.rows.map((r) => [Number(r.seq), Number(r.n)]));
  expect(acked.filter((s) => counts.get(s) !== 1)).toEqual([]);
  expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
};

const physicalOf = async () => (await app.engine.meta.selectFrom("databases").select("physical").where("instance", "=", db).executeTakeFirstOrThrow()).physical;

describe("a Galera node that cannot serve", () => {
  it("an isolated node (no quorum, error 1047) makes its API node answer 503 and /readyz 503, then recovers", async () => {
    await onNode(1, (c) => c.query("SET GLOBAL wsrep_provider_options = 'gmcast.isolate=1'"));
    try {
      await waitFor("node 1 non-primary", async () => (await call(API[0], "GET", "/readyz", null)).status === 503, 20_000);
      const ready = await call(API[0], "GET", "/readyz", null);
      expect(ready.body.error).toBe("unavailable");
      const read = await call(API[0], "GET", `/v1/${db}/events`, key);
      expect(read.status, read.text).toBe(503);
      expect(read.body.error).toBe("unavailable");
      // HAProxy stops sending to it: the cluster still serves through the other API node.
      await waitFor("HAProxy drops API node 1", async () => (await Promise.all([1, 2, 3, 4].map(() => call(LB, "GET", `/v1/${db}/events`, key)))).every((r) => r.status === 200), 15_000);
    } finally {
      await onNode(1, (c) => c.query("SET GLOBAL wsrep_provider_options = 'gmcast.isolate=0'"));
    }
    await waitFor("node 1 Synced again", () => synced(1), 30_000);
    await waitFor("API node 1 ready again", async () => (await call(API[0], "GET", "/readyz", null)).status === 200, 15_000);
  });
});

describe("a write burst through HAProxy", () => {
  it("loses no acknowledged row and duplicates none while Galera node 2 is killed and restarted", async () => {
    const writes = burst(1);
    await sleep(1_000);
    clusterScript("kill-node", "2");
    await sleep(4_000);
    clusterScript("restart-node", "2");
    await sleep(1_000);
    await writes.stop();
    expect(writes.unexpected).toEqual([]);
    expect(writes.acked.length).toBeGreaterThan(20);
    await waitFor("node 2 Synced", () => synced(2), 30_000);
    await expectRows(writes.acked);
    await waitFor("API node 2 ready again", async () => (await call(API[1], "GET", "/readyz", null)).status === 200, 20_000);
  });

  it("loses no acknowledged row and duplicates none while API node 1 is killed and restarted", async () => {
    const writes = burst(100_000);
    await sleep(1_000);
    clusterScript("kill-api", "1");
    await sleep(3_000);
    await writes.stop();
    clusterScript("restart-api", "1");
    expect(writes.unexpected).toEqual([]);
    expect(writes.acked.length).toBeGreaterThan(20);
    await expectRows(writes.acked);
  });
});

describe("first start of a fresh install on three nodes at once", () => {
  it("three processes on three Galera nodes migrate once and all start", async () => {
    const meta = `tabula_mig_${Date.now()}`;
    const apps = await Promise.all([1, 2, 3].map((node) => openNodeApp(node, meta)));
    try {
      const migrated = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.id(meta, "kysely_migration")}`.execute(app.engine.meta);
      expect(Number(migrated.rows[0].n)).toBeGreaterThan(10);
      for (const a of apps) expect((await a.engine.meta.selectFrom("plans").select("name").execute()).length).toBeGreaterThan(0);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
      await sql`DROP DATABASE IF EXISTS ${sql.id(meta)}`.execute(app.engine.meta);
    }
  });
});

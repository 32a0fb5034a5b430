// Two server processes on one MariaDB install and one Redis: each attempt of a webhook delivery is made by one
// process only (claims with FOR UPDATE SKIP LOCKED), and a feed served by one process hears writes made through
// the other at once (Redis wake-up; its own poll is set to 5 s here). MariaDB only: SQLite is one process per file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventsConfig } from "../../lib/events/events-config";
import { createDatabase } from "../contract/contract-helpers";
import { type Harness, startHarness } from "../helpers/harness";
import { type ServerProcess, startServerProcess } from "../helpers/server-process";
import { openFeed } from "./feed-client";
import { startReceiver, waitUntil } from "./receiver";

const REDIS_URL = "redis://127.0.0.1:6379";

describe.skipIf(!process.env.TEST_MYSQL_URL)("change events across two processes on mysql", () => {
  let h: Harness;
  let other: ServerProcess;
  let db: string;

  beforeAll(async () => {
    h = await startHarness("mysql", "node", { config: { redisUrl: REDIS_URL, events: { ...readEventsConfig({} as NodeJS.ProcessEnv), allowPrivate: true, pollMs: 30, retryScale: 0.002 } } });
    db = await createDatabase(h, "two", [{ name: "orders", columns: [{ name: "total", type: "int" }] }]);
    other = await startServerProcess(h, { REDIS_URL, WEBHOOK_ALLOW_PRIVATE: "1", EVENTS_POLL_MS: "5000", WEBHOOK_RETRY_SCALE: "0.002" });
  }, 60_000);
  afterAll(async () => {
    await other?.stop();
    await h?.close();
  });

  it("a feed on process B hears a write through process A within milliseconds (Redis wake-up, not its 5 s poll)", async () => {
    const feed = await openFeed(h, `/v1/${db}/_changes?tables=orders`, { "x-api-key": h.accountKey }, other.base);
    expect(feed.status).toBe(200);
    await feed.waitFor(1, (f) => f.event === undefined && f.comment === undefined);
    await new Promise((r) => setTimeout(r, 300)); // B's subscription to the Redis channel is live
    const lags: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      await h.request("POST", `/v1/${db}/orders`, { body: { total: i } });
      await feed.waitFor(i + 1, undefined, 4000);
      lags.push(Date.now() - started);
    }
    feed.close();
    expect(Math.max(...lags)).toBeLessThan(1000);
  });

  it("every delivery attempt is made by one process only: each event arrives exactly twice (a 500, then a 200)", async () => {
    const receiver = await startReceiver((_id, attempt) => (attempt === 0 ? 500 : 200));
    const { body: hook } = await h.request("POST", `/api/v1/databases/${db}/webhooks`, { body: { url: receiver.url } });
    // Writes through both processes; both dispatchers race for every attempt.
    for (let i = 0; i < 30; i++) {
      const body = JSON.stringify({ total: i });
      const status = i % 2
        ? (await fetch(`${other.base}/v1/${db}/orders`, { method: "POST", headers: { "x-api-key": h.accountKey, "content-type": "application/json" }, body })).status
        : (await h.request("POST", `/v1/${db}/orders`, { body: { total: i } })).status;
      expect(status).toBe(201);
    }
    const counts = () => {
      const byId = new Map<string, number>();
      for (const r of receiver.received) byId.set(r.id, (byId.get(r.id) ?? 0) + 1);
      return byId;
    };
    await waitUntil(() => counts().size === 30 && [...counts().values()].every((n) => n >= 2), 20_000, "every event delivered");
    await new Promise((r) => setTimeout(r, 500)); // any duplicate attempt would land by now
    expect([...counts().values()].filter((n) => n !== 2)).toEqual([]);
    const log = (await h.request("GET", `/api/v1/databases/${db}/webhooks/${hook.id}/deliveries?limit=200`)).body;
    expect(log.map((d: { status: string; attempts: number }) => `${d.status}/${d.attempts}`)).toEqual(Array(30).fill("delivered/2"));
    await receiver.close();
  }, 40_000);
});

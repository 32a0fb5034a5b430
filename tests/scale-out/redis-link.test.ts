// The Redis link of the event bus, between two buses of one install: a publish reaches this process's listeners
// once (its own echo from Redis is ignored) and the other's once (never forwarded again); another install's
// channel and malformed messages are ignored; isLive follows the subscription. And the point of it: while the
// link is live a request makes no metadata version read (on MariaDB, one round trip per request saved).
import Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppEvent, createEventBus } from "../../lib/events/bus";
import { eventChannel, linkBusToRedis, type RedisLink } from "../../lib/events/redis-link";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { hasRedisServer, sleep, startRedis } from "../limits/limits-fixture";

const until = async (check: () => boolean) => {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(20);
  }
};

describe.runIf(hasRedisServer)("the event bus over Redis", () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  const clients: Redis[] = [];
  const links: RedisLink[] = [];

  const node = (install: string) => {
    const bus = createEventBus();
    const seen: AppEvent[] = [];
    bus.subscribe((e) => void seen.push(e));
    let resubscribed = 0;
    const client = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    clients.push(client);
    const link = linkBusToRedis(bus, client, eventChannel(install), () => void resubscribed++);
    links.push(link);
    return { bus, seen, link, resubscribed: () => resubscribed };
  };

  beforeAll(async () => void (redis = await startRedis()));
  afterAll(async () => {
    for (const link of links) link.close();
    for (const client of clients) client.disconnect();
    await redis?.stop();
  });

  it("delivers a publish once here and once in the other process, not in another install", async () => {
    const a = node("mysql:db:3306/tabula");
    const b = node("mysql:db:3306/tabula");
    const other = node("mysql:db:3306/another");
    await until(() => a.link.isLive() && b.link.isLive() && other.link.isLive());
    expect([a.resubscribed(), b.resubscribed()]).toEqual([1, 1]);

    const event: AppEvent = { kind: "schema", databaseId: 7, instance: "shop_abc123", physical: "tabula__7" };
    a.bus.publish(event);
    await until(() => b.seen.length === 1);
    await sleep(200); // time for an echo or a loop to show
    expect(a.seen).toEqual([event]);
    expect(b.seen).toEqual([event]);
    expect(other.seen).toEqual([]);

    const raw = clients[0];
    await raw.publish(eventChannel("mysql:db:3306/tabula"), "not json");
    b.bus.publish({ kind: "keys" });
    await until(() => a.seen.length === 2);
    expect(a.seen.at(-1)).toEqual({ kind: "keys" });
    expect(b.seen).toEqual([event, { kind: "keys" }]);
  });

  it("is not live while Redis is down, and resubscribes (starting from empty caches) once it is back", async () => {
    const a = node("sqlite:/data/x");
    await until(() => a.link.isLive());
    await redis.kill();
    await until(() => !a.link.isLive());
    await redis.start();
    await until(() => a.link.isLive());
    expect(a.resubscribed()).toBe(2);
  });
});

describe.runIf(hasRedisServer)("the metadata version read per request", () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  beforeAll(async () => void (redis = await startRedis()));
  afterAll(async () => void (await redis?.stop()));

  /** Counts the version reads the app makes while serving `n` cached data reads. */
  const versionReadsFor = async (h: Harness, n: number) => {
    const db = await createDatabase(h, "counted", [{ name: "items", columns: [{ name: "label", type: "varchar" }] }]);
    expect((await h.request("GET", `/v1/${db}/items`)).status).toBe(200);
    const engine = h.app.engine;
    const read = engine.metaChanged;
    let reads = 0;
    engine.metaChanged = () => {
      reads++;
      return read();
    };
    try {
      for (let i = 0; i < n; i++) expect((await h.request("GET", `/v1/${db}/items`)).status).toBe(200);
    } finally {
      engine.metaChanged = read;
    }
    return reads;
  };

  it.each(ENGINES)("on %s: one per request without Redis, none while the Redis link is live (bar the 1 s net)", async (engine) => {
    const plain = await startHarness(engine, "node");
    const linked = await startHarness(engine, "node", { config: { redisUrl: redis.url, metaPollMs: 60_000 } });
    try {
      expect(await versionReadsFor(plain, 50)).toBe(50);
      await until(() => linked.app.eventLink() === "redis");
      expect(await versionReadsFor(linked, 50)).toBe(0);
    } finally {
      await plain.close();
      await linked.close();
    }
  });
});

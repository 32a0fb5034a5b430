// The Redis link of the event bus, between two buses of one install: a publish reaches this process's listeners
// once (its own echo from Redis is ignored) and the other's once (never forwarded again); another install's
// channel and malformed messages are ignored; isLive follows the subscription.
import Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppEvent, createEventBus } from "../../lib/events/bus";
import { eventChannel, linkBusToRedis, type RedisLink } from "../../lib/events/redis-link";
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

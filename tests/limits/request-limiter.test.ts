// createRequestLimiter on its own: never more than the rate in one window, in memory and in Redis, where
// several limiters (one per process) share the budget and a process takes its allowance in chunks.
import type Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRedis } from "../../lib/limits/redis";
import { createRequestLimiter, type RateDecision, type RequestLimiter } from "../../lib/limits/request-limiter";
import { freePort, freshWindow, hasRedisServer, sleep, startRedis, times } from "./limits-fixture";

const allowed = (decisions: RateDecision[]) => decisions.filter((d) => d.allowed).length;
const calls = (n: number, limiter: (i: number) => RequestLimiter, account: number, rate: number) =>
  Promise.all(times(n, (i) => limiter(i)(account, rate)));

const ready = async (client: Redis) => {
  if (client.status !== "ready") await new Promise((resolve) => client.once("ready", resolve));
  return client;
};

describe("request limiter in memory", () => {
  it("allows exactly the rate in a window, counting remaining down, and again in the next window", async () => {
    const limit = createRequestLimiter();
    const decisions = await calls(15, () => limit, 1, 5);
    expect(allowed(decisions)).toBe(5);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, ...times(10, () => 0)]);
    expect(decisions.every((d) => d.limit === 5 && d.reset === 1)).toBe(true);
    await freshWindow();
    expect(allowed(await calls(15, () => limit, 1, 5))).toBe(5);
  });

  it("allows exactly 1000 of 1500 at 1000 per second", async () => {
    const limit = createRequestLimiter();
    expect(allowed(await calls(1500, () => limit, 1, 1000))).toBe(1000);
  });

  it("gives each account its own budget", async () => {
    const limit = createRequestLimiter();
    expect(allowed(await calls(8, () => limit, 1, 5))).toBe(5);
    expect(allowed(await calls(8, () => limit, 2, 5))).toBe(5);
  });

  it("takes a new rate for an account at the next call, up or down", async () => {
    const limit = createRequestLimiter();
    expect(allowed(await calls(8, () => limit, 1, 5))).toBe(5);
    expect(allowed(await calls(8, () => limit, 1, 50))).toBe(8);
    expect(allowed(await calls(8, () => limit, 1, 2))).toBe(2);
  });
});

// Needs a redis-server binary: these tests start their own (and the process suite kills it).
describe.runIf(hasRedisServer)("request limiter in Redis", () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let clients: Redis[];
  let a: RequestLimiter;
  let b: RequestLimiter;
  let account = 100;

  beforeAll(async () => {
    redis = await startRedis();
    clients = await Promise.all([openRedis(redis.url), openRedis(redis.url)].map(ready));
    // Two limiters with their own connections: two processes.
    a = createRequestLimiter(clients[0]);
    b = createRequestLimiter(clients[1]);
  });

  afterAll(async () => {
    for (const client of clients ?? []) client.disconnect();
    await redis?.stop();
  });

  it("shares a small rate between two processes: 5 of 16, remaining counted across both", async () => {
    const decisions = await calls(16, (i) => (i % 2 ? a : b), ++account, 5);
    expect(allowed(decisions)).toBe(5);
    expect(decisions.filter((d) => d.allowed).map((d) => d.remaining).sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it("never passes a high rate across two processes in one window, and uses nearly all of it", async () => {
    const id = ++account;
    let total = 0;
    // Ten rounds within about half a second: all in the window the first call opened.
    for (let round = 0; round < 10; round++) {
      total += allowed(await calls(300, (i) => (i % 2 ? a : b), id, 1000));
      await sleep(30);
    }
    expect(total).toBeLessThanOrEqual(1000);
    expect(total).toBeGreaterThanOrEqual(900);
  });

  it("lets a second process use what the first left: a burst takes only what it serves", async () => {
    const id = ++account;
    expect(allowed(await calls(100, () => a, id, 1000))).toBe(100);
    // Process a holds at most one unused chunk (50); the other 850 are b's to take.
    expect(allowed(await calls(850, () => b, id, 1000))).toBeGreaterThanOrEqual(850 - 50);
  });

  it("falls back to memory when Redis cannot be reached, still at the rate", async () => {
    const client = openRedis(`redis://127.0.0.1:${await freePort()}`);
    try {
      const limit = createRequestLimiter(client);
      expect(allowed(await calls(15, () => limit, ++account, 5))).toBe(5);
      expect(allowed(await calls(1500, () => limit, ++account, 1000))).toBe(1000);
    } finally {
      client.disconnect();
    }
  });
});

// The rate limit across processes: two Tabula servers (child processes on one install) with one REDIS_URL share
// an account's budget; with Redis down each keeps serving and limits in its own memory, and shares again once
// Redis is back. Needs a redis-server binary: the suite runs its own on a free port so it can kill it.
import Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, type Reply, startHarness } from "../helpers/harness";
import {
  burst,
  type ChildServer,
  createOwner,
  expectAllowed,
  expectRateLimited,
  freshWindow,
  hasRedisServer,
  type Owner,
  putPlan,
  sleep,
  startChildServer,
  startRedis,
  statuses,
  times,
} from "./limits-fixture";

/** Waits until `count` other clients (the servers) are connected to Redis again, then for their ready check. */
const waitForClients = async (url: string, count: number) => {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await probe.connect();
    const deadline = Date.now() + 15_000;
    for (;;) {
      const list = (await probe.client("LIST")) as string;
      if (list.trim().split("\n").length >= count + 1) break;
      if (Date.now() > deadline) throw new Error(`Redis clients did not come back:\n${list}`);
      await sleep(100);
    }
    await sleep(200);
  } finally {
    probe.disconnect();
  }
};

describe.runIf(hasRedisServer)("rate limit across processes", () => {
  describe.each(ENGINES)("on %s", (engine) => {
    let redis: Awaited<ReturnType<typeof startRedis>>;
    let h: Harness;
    let owner: Owner;
    let servers: ChildServer[] = [];
    const split = (n: number) => times(n, (i) => () => servers[i % 2].request("GET", `/v1/${owner.dbs[0]}/items`, owner.key));
    const expectShared = (replies: Reply[]) => {
      expect(statuses(replies)).toEqual({ 200: 5, 429: replies.length - 5 });
      const remaining = replies.filter((r) => r.status === 200).map((r) => expectAllowed(r, 5));
      expect(remaining.sort()).toEqual([0, 1, 2, 3, 4]);
      for (const reply of replies.filter((r) => r.status === 429)) expectRateLimited(reply, 5);
    };

    beforeAll(async () => {
      redis = await startRedis();
      h = await startHarness(engine, "node");
      await putPlan(h, "five", 5);
      owner = await createOwner(h, { plan: "five" });
      servers = await Promise.all([startChildServer(h, redis.url), startChildServer(h, redis.url)]);
    });

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await h?.close();
      await redis?.stop();
    });

    it("two processes share one budget: 5 of 16 requests split across them", async () => {
      await freshWindow();
      expectShared(await burst(split(16)));
      await freshWindow();
      for (let i = 0; i < 5; i++) expectAllowed(await servers[0].request("GET", `/v1/${owner.dbs[0]}/items`, owner.key), 5);
      expectRateLimited(await servers[1].request("GET", `/v1/${owner.dbs[0]}/items`, owner.key), 5);
    });

    it("with Redis down each process keeps serving and limits in its own memory; once it is back they share again", async () => {
      await redis.kill();
      await freshWindow();
      const replies = await burst(split(24));
      const per = [0, 1].map((p) => replies.filter((_, i) => i % 2 === p));
      for (const own of per) {
        expect(statuses(own)).toEqual({ 200: 5, 429: 7 });
        for (const reply of own.filter((r) => r.status === 429)) expectRateLimited(reply, 5);
      }

      await redis.start();
      await waitForClients(redis.url, servers.length);
      await freshWindow();
      expectShared(await burst(split(16)));
    });
  });
});

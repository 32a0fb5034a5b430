// Two real server processes (server.ts, DASHBOARD=off) on one install (one MariaDB metadata schema, or one
// SQLite folder) and, with REDIS_URL, one Redis: a key revoked and a column added through process A hold on
// process B within 1 s, and a plan's rate is one budget across both. With Redis the metadata version read is
// off (META_POLL_MS=60000 takes away its safety net too), so only the Redis events can tell B; without Redis
// (the fallback) B reads the version per request and must refuse at its very next request. If Redis dies,
// both fall back to the version read and keep the guarantees, and go back to Redis once it returns.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, type Reply, startHarness } from "../helpers/harness";
import { type ServerProcess, startServerProcess } from "../helpers/server-process";
import { burst, createOwner, hasRedisServer, putPlan, sleep, startRedis, statuses, times } from "../limits/limits-fixture";

type Mode = "redis" | "version read";
const MODES: Mode[] = hasRedisServer ? ["redis", "version read"] : ["version read"];

const call = async (server: ServerProcess, method: string, urlPath: string, key: string, body?: unknown): Promise<Reply> => {
  const response = await fetch(`${server.base}${urlPath}`, {
    method,
    headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
};

/** Repeats `send` every 10 ms until `done` holds; returns the milliseconds it took (fails past `limitMs`). */
const timeUntil = async (send: () => Promise<Reply>, done: (r: Reply) => boolean, limitMs = 1_000) => {
  const started = performance.now();
  for (;;) {
    const reply = await send();
    const elapsed = performance.now() - started;
    if (done(reply)) return elapsed;
    if (elapsed > limitMs) throw new Error(`not seen within ${limitMs} ms; last reply ${reply.status} ${reply.text}`);
    await sleep(10);
  }
};

const eventLinkOf = async (server: ServerProcess) => (await call(server, "GET", "/readyz", "")).body?.events;

const waitForLink = async (servers: ServerProcess[], link: "redis" | "version-read") => {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const links = await Promise.all(servers.map(eventLinkOf));
    if (links.every((l) => l === link)) return;
    if (Date.now() > deadline) throw new Error(`event links are ${links.join(", ")}, not ${link}`);
    await sleep(100);
  }
};

describe.each(ENGINES)("two server processes on %s", (engine) => {
  describe.each(MODES)("caches told by %s", (mode) => {
    let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
    let h: Harness;
    let a: ServerProcess;
    let b: ServerProcess;
    let db: string;

    beforeAll(async () => {
      redis = mode === "redis" ? await startRedis() : undefined;
      const env: Record<string, string> = redis ? { REDIS_URL: redis.url, META_POLL_MS: "60000" } : { REDIS_URL: "" };
      h = await startHarness(engine, "node", { config: redis ? { redisUrl: redis.url, metaPollMs: 60_000 } : {} });
      db = await createDatabase(h, "scaled", [{ name: "items", columns: [{ name: "label", type: "varchar" }] }]);
      [a, b] = await Promise.all([startServerProcess(h, env), startServerProcess(h, env)]);
      await waitForLink([a, b], mode === "redis" ? "redis" : "version-read");
    });

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await h?.close();
      await redis?.stop();
    });

    const revokeOnASeenOnB = async () => {
      const created = await call(a, "POST", "/api/v1/keys", h.accountKey, { name: "short-lived" });
      expect(created.status, created.text).toBe(201);
      const key: string = created.body.key;
      expect((await call(b, "GET", `/v1/${db}/items`, key)).status).toBe(200); // B has it cached now
      expect((await call(a, "DELETE", `/api/v1/keys/${created.body.id}`, h.accountKey)).status).toBe(204);
      expect((await call(a, "GET", `/v1/${db}/items`, key)).status).toBe(401); // A: at once
      return { key, first: await call(b, "GET", `/v1/${db}/items`, key) };
    };

    it("a key revoked on A is refused by B within 1 s", async () => {
      const { key, first } = await revokeOnASeenOnB();
      const ms = first.status === 401 ? 0 : await timeUntil(() => call(b, "GET", `/v1/${db}/items`, key), (r) => r.status === 401);
      console.log(`[scale-out] ${engine}, ${mode}: revocation seen by B after ${ms.toFixed(1)} ms`);
      // Without Redis, B reads the metadata version before each request: its very next request is refused.
      if (mode === "version read") expect(first.status).toBe(401);
      expect((await call(b, "GET", `/v1/${db}/items`, key)).body).toEqual({ error: "unauthorized", message: expect.any(String) });
    });

    it("a column added on A is served by B within 1 s", async () => {
      const before = await call(b, "POST", `/v1/${db}/items`, h.accountKey, { label: "x", colour: "red" });
      expect(before.status, before.text).toBe(422); // B's cached schema has no such column
      const added = await call(a, "POST", `/api/v1/databases/${db}/tables/items/columns`, h.accountKey, { name: "colour", type: "varchar" });
      expect(added.status, added.text).toBe(201);
      const first = await call(b, "POST", `/v1/${db}/items`, h.accountKey, { label: "y", colour: "blue" });
      const ms = first.status === 201 ? 0 : await timeUntil(() => call(b, "POST", `/v1/${db}/items`, h.accountKey, { label: "y", colour: "blue" }), (r) => r.status === 201);
      console.log(`[scale-out] ${engine}, ${mode}: new column served by B after ${ms.toFixed(1)} ms`);
      if (mode === "version read") expect(first.status, first.text).toBe(201);
      const rows = (await call(b, "GET", `/v1/${db}/items?colour=blue`, h.accountKey)).body;
      expect(rows.map((r: { label: string; colour: string }) => [r.label, r.colour])).toEqual([["y", "blue"]]);
    });

    if (mode === "redis") it("a plan's rate is one budget across both processes", async () => {
      await putPlan(h, "five", 5);
      const owner = await createOwner(h, { plan: "five" });
      await sleep(1_100); // a fresh one-second window
      const replies = await burst(times(16, (i) => () => call(i % 2 ? b : a, "GET", `/v1/${owner.dbs[0]}/items`, owner.key)));
      expect(statuses(replies)).toEqual({ 200: 5, 429: 11 });
      // Each process served some and refused some: the budget really was split, not one process's own.
      for (const p of [0, 1]) expect(replies.filter((_, i) => i % 2 === p).some((r) => r.status === 429)).toBe(true);
    });

    if (mode === "redis") it("with Redis down both fall back to the version read and keep the guarantee; once it is back they use Redis again", async () => {
      await redis!.kill();
      await waitForLink([a, b], "version-read");
      const { first } = await revokeOnASeenOnB();
      expect(first.status).toBe(401); // the version read: at B's very next request

      await redis!.start();
      await waitForLink([a, b], "redis");
      const { key, first: again } = await revokeOnASeenOnB();
      const ms = again.status === 401 ? 0 : await timeUntil(() => call(b, "GET", `/v1/${db}/items`, key), (r) => r.status === 401);
      console.log(`[scale-out] ${engine}: after Redis came back, revocation seen by B after ${ms.toFixed(1)} ms`);
    });
  });
});

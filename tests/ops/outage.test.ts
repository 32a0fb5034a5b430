// A MariaDB outage: the test starts its own MariaDB (own datadir and port) with Tabula's metadata and user
// databases on it, kills it, and checks that every request answers 503 `unavailable` with Retry-After while it
// is down, that nothing is written, and that Tabula recovers without a restart once it is back. Both adapters;
// without Redis the first thing to fail is the metadata version read, with a live Redis event link (cached
// schema and key) it is the user database's own query. Then the same through a real server.ts process, whose
// log line carries the request id of the 503. MariaDB only: an outage of an embedded SQLite file does not exist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../contract/contract-helpers";
import { type Adapter, type Harness, type Reply, startHarness } from "../helpers/harness";
import { hasMariadbServer, type PrivateMariadb, startPrivateMariadb } from "../helpers/private-mariadb";
import { startServerProcess } from "../helpers/server-process";
import { hasRedisServer, sleep, startRedis } from "../limits/limits-fixture";

const expectUnavailable = (reply: Reply) => {
  expect(reply.status, reply.text).toBe(503);
  expect(reply.body).toEqual({ error: "unavailable", message: "The database is unreachable right now; retry shortly." });
  expect(reply.headers.get("retry-after")).toBe("5");
};

/** Retries until the reply is not a 503 (the database is back), for at most 20 s. */
const untilServed = async (send: () => Promise<Reply>) => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const reply = await send();
    if (reply.status !== 503 || Date.now() > deadline) return reply;
    await sleep(100);
  }
};

const waitFor = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
};

describe.runIf(hasMariadbServer)("a MariaDB outage", () => {
  let mariadb: PrivateMariadb;
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;

  beforeAll(async () => {
    mariadb = await startPrivateMariadb();
    if (hasRedisServer) redis = await startRedis();
  });

  afterAll(async () => {
    await redis?.stop();
    await mariadb?.destroy();
  });

  const links = hasRedisServer ? (["version read", "redis link"] as const) : (["version read"] as const);
  const cases = (["node", "route"] as Adapter[]).flatMap((adapter) => links.map((link) => [adapter, link] as const));

  it.each(cases)("%s adapter, caches on the %s: 503 + Retry-After while down, nothing written, served again once it is back", async (adapter, link) => {
    const h: Harness = await startHarness("mysql", adapter, { mysqlUrl: mariadb.url, config: link === "redis link" ? { redisUrl: redis!.url } : {} });
    try {
      const db = await createDatabase(h, "outage", [{ name: "items", columns: [{ name: "label", type: "varchar" }] }]);
      expect((await h.request("POST", `/v1/${db}/items`, { body: { label: "before" } })).status).toBe(201);
      expect((await h.request("GET", `/v1/${db}/items`)).status).toBe(200);
      if (link === "redis link") await waitFor(() => h.app.eventLink() === "redis", "the Redis event link");

      await mariadb.kill();
      expectUnavailable(await h.request("GET", `/v1/${db}/items`));
      expectUnavailable(await h.request("POST", `/v1/${db}/items`, { body: { label: "during" } }));
      expectUnavailable(await h.request("GET", `/v1/${db}/items/1`));
      expectUnavailable(await h.request("GET", "/api/v1/databases"));
      expectUnavailable(await h.request("POST", `/api/v1/databases/${db}/tables/items/columns`, { body: { name: "extra", type: "int" } }));

      await mariadb.start();
      const back = await untilServed(() => h.request("GET", `/v1/${db}/items`));
      expect(back.status, back.text).toBe(200);
      expect(back.body.map((r: { label: string }) => r.label)).toEqual(["before"]);
      const table = await h.request("GET", `/api/v1/databases/${db}/tables/items`);
      expect(table.status, table.text).toBe(200);
      expect(table.body.columns.map((c: { name: string }) => c.name)).not.toContain("extra");
      expect((await h.request("POST", `/v1/${db}/items`, { body: { label: "after" } })).status).toBe(201);
    } finally {
      if (mariadb) await mariadb.start().catch(() => {}); // already running unless the test failed while it was down
      await h.close();
    }
  });

  it("a real server process: /healthz stays 200, /readyz and the APIs answer 503 while down, the 503 is logged with its request id, and it recovers without a restart", async () => {
    const h = await startHarness("mysql", "node", { mysqlUrl: mariadb.url });
    const server = await startServerProcess(h);
    try {
      const db = await createDatabase(h, "outage", [{ name: "items", columns: [{ name: "label", type: "varchar" }] }]);
      expect((await server.request("GET", `/v1/${db}/items`, h.accountKey)).status).toBe(200);
      expect((await server.request("GET", "/readyz", null)).body).toEqual({ status: "ready", engine: "mysql", events: "version-read" });

      await mariadb.kill();
      expect((await server.request("GET", "/healthz", null)).status).toBe(200);
      expectUnavailable(await server.request("GET", `/v1/${db}/items`, h.accountKey));
      const ready = await server.request("GET", "/readyz", null);
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ error: "unavailable", message: "The metadata store is unreachable." });
      expect(ready.headers.get("retry-after")).toBe("5");
      const traced = await fetch(`${server.base}/api/v1/databases`, { headers: { "x-api-key": h.accountKey, "x-request-id": "outage-trace-1" } });
      expect(traced.status).toBe(503);
      expect(traced.headers.get("x-request-id")).toBe("outage-trace-1");
      await waitFor(() => server.logs().some((l) => l.reqId === "outage-trace-1" && l.msg === "request"), "the request's log line");
      const lines = server.logs().filter((l) => l.reqId === "outage-trace-1");
      expect(lines.map((l) => [l.level, l.msg])).toEqual([
        ["warn", "database unreachable"],
        ["info", "request"],
      ]);
      expect(lines[1]).toMatchObject({ method: "GET", route: "management", path: "/api/v1/databases", status: 503 });

      await mariadb.start();
      const back = await untilServed(() => server.request("GET", `/v1/${db}/items`, h.accountKey));
      expect(back.status, back.text).toBe(200);
      expect((await server.request("GET", "/readyz", null)).status).toBe(200);
      expect(server.child.exitCode).toBeNull(); // the same process throughout
    } finally {
      await mariadb.start().catch(() => {});
      await server.stop();
      await h.close();
    }
  });
});

// Canonical paths for sign-in (both engines): every spelling of a session route (`/./`, `//`, `%2e`) meets the same
// handler and the same limiter as the canonical path, in both adapters (one limiter per app); a path with no
// safe spelling is 404; X-Forwarded-For counts only when TRUST_PROXY says so. Sent over raw sockets, since
// fetch would tidy the paths before they leave; each case from its own loopback address (127.0.0.x). With
// REDIS_URL two processes count in one place.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App } from "../../lib/app";
import { SIGN_IN_ATTEMPTS } from "../../lib/auth/sign-in-limiter";
import { clientAddressOf, parseTrustProxy } from "../../lib/http/client-address";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { rawRequest } from "../helpers/raw-request";
import { type ServerProcess, startServerProcess } from "../helpers/server-process";
import { hasRedisServer, startRedis } from "../limits/limits-fixture";
import { createDatabase } from "../contract/contract-helpers";
import { enableAuth, PASSWORD_A } from "./security-fixture";

/** A JSON POST with its path as given, from a loopback address of the case's own. */
const raw = (base: string, path: string, body: unknown, headers: Record<string, string> = {}, from = "127.0.0.1") =>
  rawRequest(base, { path, body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers }, from });

/** A database with auth on and the user a@example.com, through the harness. */
const authDatabase = async (h: Harness, name: string) => {
  const db = await createDatabase(h, name, [
    { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
  ]);
  await enableAuth(h, db);
  expect((await h.request("POST", `/v1/${db}/users`, { body: { email: "a@example.com", password: PASSWORD_A } })).status).toBe(201);
  return db;
};

describe.each(ENGINES)("canonical paths and client addresses on %s", (engine) => {
  let h: Harness;
  let trusting: Harness;
  let base: string;
  let trustingBase: string;
  let db: string;
  let routeDb: string;
  let trustingDb: string;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    trusting = await startHarness(engine, "node", { config: { trustProxy: { hops: 1 } } });
    base = h.baseUrl;
    trustingBase = trusting.baseUrl;
    db = await authDatabase(h, `paths ${engine}`);
    routeDb = await authDatabase(h, `route ${engine}`);
    trustingDb = await authDatabase(trusting, `trusting ${engine}`);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await trusting?.close();
  });

  it("every alias of /v1/{db}/auth/login reaches the login (401) and counts in the canonical path's limiter", async () => {
    const aliases = [`/./v1/${db}/auth/login`, `//v1/${db}/auth/login`, `/%2e/v1/${db}/auth/login`, `/v1/./${db}/auth/login`, `/v1/${db}/auth/%2E/login`, `/v1//${db}/auth/login`, `/v1/x/../${db}/auth/login`];
    const email = "aliases@example.com";
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) {
      const reply = await raw(base, aliases[i % aliases.length], { email, password: `guess-${i}` }, {}, `127.0.0.${2 + i}`);
      expect({ path: aliases[i % aliases.length], status: reply.status, error: reply.body?.error }).toEqual({ path: aliases[i % aliases.length], status: 401, error: "unauthorized" });
    }
    const canonical = await raw(base, `/v1/${db}/auth/login`, { email, password: "guess-final" }, {}, "127.0.0.20");
    expect({ status: canonical.status, error: canonical.body.error }).toEqual({ status: 429, error: "rate_limited" });
    expect(Number(canonical.headers["retry-after"])).toBeGreaterThan(0);
    const alias = await raw(base, `//v1/${db}/auth/login`, { email, password: "guess-again" }, {}, "127.0.0.21");
    expect({ status: alias.status, error: alias.body.error }).toEqual({ status: 429, error: "rate_limited" });
  });

  it.each([["a trailing dot", (d: string) => `/v1/${d}/auth/login.`], ["a step above the root", (d: string) => `/../v1/${d}/auth/login`], ["an escaped slash", (d: string) => `/v1/${d}/auth%2flogin`]])(
    "a path with %s is 404, never another route",
    async (_name, path) => {
      const reply = await raw(base, path(db), { email: "a@example.com", password: PASSWORD_A }, {}, "127.0.0.30");
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 404, body: { error: "not_found", message: "No such path." } });
    },
  );

  it("the node adapter and the Next route handler count in one limiter (the same app's)", async () => {
    (globalThis as { __tabulaApp?: Promise<App> }).__tabulaApp = Promise.resolve(h.app);
    const route = await import("../../app/v1/[db]/[[...path]]/route");
    const email = "both-adapters@example.com";
    const viaRoute = (password: string) =>
      route.POST(new Request(`http://tabula.test/v1/${db}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) }));
    for (let i = 0; i < SIGN_IN_ATTEMPTS / 2; i++) expect((await raw(base, `/v1/${db}/auth/login`, { email, password: `n-${i}` }, {}, "127.0.0.40")).status).toBe(401);
    for (let i = 0; i < SIGN_IN_ATTEMPTS / 2; i++) expect((await viaRoute(`r-${i}`)).status).toBe(401);
    const limited = await viaRoute("r-final");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await raw(base, `/v1/${db}/auth/login`, { email, password: "n-final" }, {}, "127.0.0.41")).status).toBe(429);
  });

  const spray = async (target: string, instance: string, tag: string, forwarded: (i: number) => string, from: string) => {
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_IN_ATTEMPTS; i++) {
      statuses.push((await raw(target, `/v1/${instance}/auth/login`, { email: `${tag}-${i}@example.com`, password: "guess" }, { "x-forwarded-for": forwarded(i) }, from)).status);
    }
    return statuses;
  };
  const limitedAfterTen = [...Array(SIGN_IN_ATTEMPTS).fill(401), 429];

  it("TRUST_PROXY unset: a forged X-Forwarded-For is ignored, the socket's address is limited after 10 failures", async () => {
    expect(await spray(base, db, "forged", (i) => `203.0.113.${i}`, "127.0.0.50")).toEqual(limitedAfterTen);
  });

  it("TRUST_PROXY=1: the proxy's X-Forwarded-For names the client; different clients are counted apart", async () => {
    expect(await spray(trustingBase, trustingDb, "clients", (i) => `198.51.100.${i}`, "127.0.0.60")).toEqual(Array(SIGN_IN_ATTEMPTS + 1).fill(401));
  });

  it("TRUST_PROXY=1: one client behind the proxy is limited after 10 failures, whatever it prepends to the header", async () => {
    expect(await spray(trustingBase, trustingDb, "one", (i) => `10.9.9.${i}, 192.0.2.77`, "127.0.0.61")).toEqual(limitedAfterTen);
  });

  it("the route handler without TRUST_PROXY ignores X-Forwarded-For too (one address for every forged value)", async () => {
    (globalThis as { __tabulaApp?: Promise<App> }).__tabulaApp = Promise.resolve(h.app);
    const route = await import("../../app/v1/[db]/[[...path]]/route");
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_IN_ATTEMPTS; i++) {
      const request = new Request(`http://tabula.test/v1/${routeDb}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": `192.0.2.${i}` },
        body: JSON.stringify({ email: `route-spray-${i}@example.com`, password: "guess" }),
      });
      statuses.push((await route.POST(request)).status);
    }
    expect(statuses).toEqual(limitedAfterTen);
  });
});

describe("client address from TRUST_PROXY", () => {
  it.each([
    [undefined, "10.0.0.1", "203.0.113.9", "10.0.0.1"],
    ["0", "10.0.0.1", "203.0.113.9", "10.0.0.1"],
    ["1", "10.0.0.1", "203.0.113.9", "203.0.113.9"],
    ["1", "10.0.0.1", "6.6.6.6, 203.0.113.9", "203.0.113.9"],
    ["2", "10.0.0.1", "6.6.6.6, 203.0.113.9, 10.0.0.2", "203.0.113.9"],
    ["5", "10.0.0.1", "203.0.113.9", "203.0.113.9"],
    ["10.0.0.1,10.0.0.2", "::ffff:10.0.0.1", "6.6.6.6, 203.0.113.9, 10.0.0.2", "203.0.113.9"],
    ["10.0.0.1", "10.0.0.5", "203.0.113.9", "10.0.0.5"],
    ["1", "10.0.0.1", undefined, "10.0.0.1"],
  ])("TRUST_PROXY=%j, peer %s, X-Forwarded-For %j → %s", (trust, peer, forwarded, expected) => {
    expect(clientAddressOf(peer, forwarded, parseTrustProxy(trust))).toBe(expected);
  });

  it('refuses TRUST_PROXY=true (how many hops is not said)', () => {
    expect(() => parseTrustProxy("true")).toThrow("TRUST_PROXY must be a number of hops or a comma list of proxy addresses");
  });
});

describe.each(ENGINES)("sign-in limits across processes with REDIS_URL on %s", (engine) => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let h: Harness;
  let other: ServerProcess;
  let db: string;

  beforeAll(async () => {
    if (!hasRedisServer) return;
    redis = await startRedis();
    h = await startHarness(engine, "node", { config: { redisUrl: redis.url } });
    db = await authDatabase(h, `redis ${engine}`);
    other = await startServerProcess(h, { REDIS_URL: redis.url });
  }, 60_000);
  afterAll(async () => {
    await other?.stop();
    await h?.close();
    await redis?.stop();
  });

  it.skipIf(!hasRedisServer)("failures in one process count in the other: after 10 across both, both answer 429", async () => {
    const email = "two-processes@example.com";
    for (let i = 0; i < SIGN_IN_ATTEMPTS / 2; i++) {
      expect((await raw(h.baseUrl, `/v1/${db}/auth/login`, { email, password: `a-${i}` }, {}, `127.0.5.${i + 1}`)).status).toBe(401);
      expect((await raw(other.base, `/v1/${db}/auth/login`, { email, password: `b-${i}` }, {}, `127.0.6.${i + 1}`)).status).toBe(401);
    }
    expect((await raw(h.baseUrl, `/v1/${db}/auth/login`, { email, password: PASSWORD_A }, {}, "127.0.5.99")).status).toBe(429);
    expect((await raw(other.base, `/v1/${db}/auth/login`, { email, password: PASSWORD_A }, {}, "127.0.6.99")).status).toBe(429);
  });
});

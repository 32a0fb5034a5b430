// Shared pieces of the rate-limit suites: a plan with a given rate, an account on it with a database, bursts of
// concurrent requests and their RateLimit headers, a private redis-server that tests may kill, and Tabula
// servers as child processes on one install.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { expect } from "vitest";
import type { Harness, Reply } from "../helpers/harness";
import { createDatabase } from "../contract/contract-helpers";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Windows are one second long and start at the first request after the last one ended, so a pause of a bit
 * more than a second after the last request makes the next request open a fresh window.
 */
export const freshWindow = () => sleep(1_100);

export const putPlan = async (h: Harness, name: string, requestsPerSecond: number | null) => {
  const body = { max_databases: 5, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 0, requests_per_second: requestsPerSecond };
  const reply = await h.request("PUT", `/api/v1/plans/${name}`, { body });
  expect(reply.status, reply.text).toBe(200);
};

export const setAccountPlan = async (h: Harness, accountId: number, plan: string) => {
  const reply = await h.request("PATCH", `/api/v1/accounts/${accountId}`, { body: { plan } });
  expect(reply.status, reply.text).toBe(200);
};

export type Owner = { accountId: number; key: string; dbs: string[] };

/** A new (non-operator) account, moved to `plan` when given, owning `databases` databases with an `items` table. */
export const createOwner = async (h: Harness, { plan, databases = 1 }: { plan?: string; databases?: number } = {}): Promise<Owner> => {
  const { accountId, key } = await h.createAccount();
  if (plan) await setAccountPlan(h, accountId, plan);
  const dbs: string[] = [];
  for (let i = 0; i < databases; i++) dbs.push(await createDatabase(h, `limited${i}`, [{ name: "items", columns: [{ name: "label", type: "varchar" }] }], key));
  return { accountId, key, dbs };
};

/** Sends all the requests at once and waits for every reply. */
export const burst = (requests: (() => Promise<Reply>)[]) => Promise.all(requests.map((send) => send()));

export const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

export const statuses = (replies: Reply[]) => {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};

/** The RateLimit header's remaining `r` and reset `t`; undefined without the header. */
export const rateState = (reply: Reply) => {
  const header = reply.headers.get("ratelimit");
  if (header === null) return undefined;
  const match = /^"plan";r=(\d+);t=(\d+)$/.exec(header);
  expect(match, `RateLimit: ${header}`).not.toBeNull();
  return { r: Number(match![1]), t: Number(match![2]) };
};

/** A 429 of the data API's rate limit: the whole error body, Retry-After and the headers at r=0. */
export const expectRateLimited = (reply: Reply, rate: number) => {
  const where = `${reply.status} ${reply.text}`;
  expect(reply.status, where).toBe(429);
  const retryAfter = Number(reply.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After: ${reply.headers.get("retry-after")}`).toBe(true);
  expect(reply.body, where).toEqual({
    error: "rate_limited",
    message: `This database's account allows ${rate} requests per second on its plan; retry in ${retryAfter} s.`,
  });
  expect(reply.headers.get("ratelimit-policy")).toBe(`"plan";q=${rate};w=1`);
  expect(rateState(reply)).toEqual({ r: 0, t: retryAfter });
};

/** An allowed answer under a limit: 200 with the policy header; returns the remaining count it states. */
export const expectAllowed = (reply: Reply, rate: number) => {
  expect(reply.status, `${reply.status} ${reply.text}`).toBe(200);
  expect(reply.headers.get("ratelimit-policy")).toBe(`"plan";q=${rate};w=1`);
  const state = rateState(reply)!;
  expect(state.t).toBe(1);
  return state.r;
};

/** A plain HTTP client for a server of the install other than the harness's own (a child process). */
export const requester =
  (base: string) =>
  async (method: string, urlPath: string, key: string | null): Promise<Reply> => {
    const response = await fetch(`${base}${urlPath}`, { method, headers: key ? { "x-api-key": key } : {} });
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, body, text };
  };

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const REDIS_SERVER = "/usr/bin/redis-server";
export const hasRedisServer = fs.existsSync(REDIS_SERVER);
// CI sets TABULA_REQUIRE_REDIS=1 (and installs redis-server when missing): there the Redis suites never skip.
if (!hasRedisServer && process.env.TABULA_REQUIRE_REDIS === "1") throw new Error(`TABULA_REQUIRE_REDIS=1 but ${REDIS_SERVER} is missing (apt-get install redis-server)`);

const waitForLine = (child: ChildProcess, pattern: RegExp, what: string) =>
  new Promise<RegExpExecArray>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${what} did not start: ${out}`)), 20_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => void (out += chunk.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}): ${out}`));
    });
  });

const stopChild = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });

/** A redis-server of this test alone (no persistence) that the test may kill and start again on the same port. */
export const startRedis = async () => {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
    await waitForLine(child, /Ready to accept connections/, "redis-server");
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    /** Kills it as a crash would (SIGKILL): its clients see the connection drop. */
    kill: async () => child && stopChild(child, "SIGKILL"),
    stop: async () => child && stopChild(child, "SIGTERM"),
  };
};

export type ChildServer = { base: string; request: ReturnType<typeof requester>; stop: () => Promise<void> };

/** A Tabula server process on the harness's install (same data folder or MariaDB meta schema). */
export const startChildServer = async (h: Harness, redisUrl?: string): Promise<ChildServer> => {
  const script = path.resolve(import.meta.dirname, "../helpers/limits-server.ts");
  const env = { ...process.env, ENGINE: h.engine, DATA_DIR: h.app.config.dataDir, DATABASE_URL: h.app.config.databaseUrl ?? "", REDIS_URL: redisUrl ?? "" };
  const child = spawn(process.execPath, ["--import", "tsx", script], { env, stdio: ["pipe", "pipe", "pipe"] });
  const [, port] = await waitForLine(child, /READY (\d+)/, "limits server");
  const base = `http://127.0.0.1:${port}`;
  return { base, request: requester(base), stop: () => stopChild(child, "SIGTERM") };
};

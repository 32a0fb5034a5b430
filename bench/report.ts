// The per-engine table, the budget check, and the JSON file under bench/results/.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EngineKind } from "../lib/config";
import type { CpuWindow } from "./cpu";
import type { LoadResult } from "./measure";
import type { WorkloadId } from "./workloads";

export type Measured = LoadResult & CpuWindow & { peakRssMb?: number; cpuUsPerRequest?: number; /** A baseline mix's first part run alone. */ alone?: LoadResult };

export type WorkloadReport = {
  id: WorkloadId;
  label: string;
  tabula: Measured;
  ceiling: Measured;
  /** Tabula's req/s as a percentage of the ceiling's. */
  ratioPct: number;
  budget: { applies: boolean; pass?: boolean; reasons: string[] };
};

// The budgets: on SQLite, W1 and W2 reach at least half the ceiling with p99 ≤ 20 ms at 50 connections;
// W6 (a page of a two-table join) reaches at least 40% of its ceiling.
const BUDGETS: { engine: EngineKind; workloads: WorkloadId[]; minRatioPct: number; maxP99Ms?: number }[] = [
  { engine: "sqlite", workloads: ["W1", "W2"], minRatioPct: 50, maxP99Ms: 20 },
  { engine: "sqlite", workloads: ["W6"], minRatioPct: 40 },
];

export const checkBudget = (engine: EngineKind, id: WorkloadId, tabula: Measured, ratioPct: number): WorkloadReport["budget"] => {
  const budget = BUDGETS.find((b) => b.engine === engine && b.workloads.includes(id));
  if (!budget) return { applies: false, reasons: [] };
  const reasons: string[] = [];
  if (ratioPct < budget.minRatioPct) reasons.push(`ratio ${ratioPct.toFixed(0)}% < ${budget.minRatioPct}%`);
  if (budget.maxP99Ms !== undefined && tabula.p99Ms > budget.maxP99Ms) reasons.push(`p99 ${tabula.p99Ms} ms > ${budget.maxP99Ms} ms`);
  return { applies: true, pass: reasons.length === 0, reasons };
};

const num = (n: number | undefined, digits = 0) => (n === undefined ? "?" : n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }));

const budgetText = (b: WorkloadReport["budget"]) => (!b.applies ? "-" : b.pass ? "PASS" : `FAIL (${b.reasons.join(", ")})`);

/** Server CPU per request: unlike req/s, it barely moves when other processes compete for the cores. */
export const cpuPerRequestUs = (m: LoadResult & CpuWindow) =>
  m.serverCpuSeconds === undefined || m.requests === 0 ? undefined : Math.round((1e6 * m.serverCpuSeconds) / m.requests);

// autocannon counts timeouts among its errors too.
const failures = (m: Measured) => m.non2xx + m.errors;

export const formatTable = (engine: EngineKind, rows: WorkloadReport[], connections: number, seconds: number, oneProcess = false) => {
  const header = ["workload", "req/s", "p50 ms", "p99 ms", "peak RSS MB", "CPU %", "CPU µs/req", "ceiling req/s", "ceil p99", "ceil RSS", "ceil CPU", "ceil µs/req", "ratio", "bad (t / c)", "budget"];
  const body = rows.map((r) => [
    `${r.id} ${r.label}`,
    num(r.tabula.reqPerSec),
    num(r.tabula.p50Ms),
    num(r.tabula.p99Ms),
    num(r.tabula.peakRssMb, 1),
    num(r.tabula.serverPct),
    num(r.tabula.cpuUsPerRequest),
    num(r.ceiling.reqPerSec),
    num(r.ceiling.p99Ms),
    num(r.ceiling.peakRssMb, 1),
    num(r.ceiling.serverPct),
    num(r.ceiling.cpuUsPerRequest),
    `${r.ratioPct.toFixed(0)}%`,
    `${failures(r.tabula)} / ${failures(r.ceiling)}`,
    budgetText(r.budget),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd();
  const title = `${engine === "sqlite" ? "SQLite" : "MariaDB/MySQL"}: ${connections} connections, ${seconds} s per workload (peak RSS = VmHWM of ${oneProcess ? "one server process so far, workloads in the order listed" : "a fresh server process per workload"})`;
  const notes = [
    "bad = non-2xx responses + socket errors and timeouts, for Tabula / the ceiling.",
    "CPU % = the server process's CPU over the measured window in % of one core (100 = one core saturated); CPU µs/req = its CPU time per request.",
    `Other load on the machine during each run, % of one core (tabula / ceiling${engine === "mysql" ? "; includes the database server" : ""}): ` +
      rows.map((r) => `${r.id} ${num(r.tabula.otherPct)}/${num(r.ceiling.otherPct)}`).join(", "),
  ];
  const busiest = Math.max(0, ...rows.flatMap((r) => [r.tabula.otherPct ?? 0, r.ceiling.otherPct ?? 0]));
  if (engine === "sqlite" && busiest > 25) {
    notes.push(`WARNING: other processes used up to ${busiest}% of a core during the runs (${os.cpus().length} CPUs here); the numbers are noisy.`);
  }
  return [title, line(header), line(widths.map((w) => "-".repeat(w))), ...body.map(line), ...notes].join("\n");
};

/** Status codes other than the expected ones, per side, e.g. "W4 tabula: 422×3". */
export const describeFailures = (rows: WorkloadReport[]) =>
  rows.flatMap((r) =>
    (["tabula", "ceiling"] as const)
      .filter((side) => failures(r[side]) > 0)
      .map((side) => {
        const m = r[side];
        const codes = Object.entries(m.statusCodes).filter(([c]) => !c.startsWith("2")).map(([c, n]) => `${c}×${n}`);
        const errors = m.errors ? `socket errors×${m.errors}${m.timeouts ? ` (of which timeouts×${m.timeouts})` : ""}` : "";
        return `${r.id} ${side}: ${[...codes, errors].filter(Boolean).join(", ")}`;
      }),
  );

export const saveResults = (data: unknown) => {
  const dir = path.resolve(import.meta.dirname, "results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().replace(/:/g, "-")}.json`);
  fs.writeFileSync(file, JSON.stringify(data, null, 2) + "\n");
  return file;
};

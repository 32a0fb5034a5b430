// Summarises a CPU profile written by bench/capture-profile.ts: hottest functions by self time, self time per
// module, and the project's functions by inclusive time. Used by BENCH_PROFILE=1, or by hand:
//   npx tsx bench/profile.ts bench/results/profiles/<run>/<engine>-<workload>
import fs from "node:fs";
import { SourceMap, type SourceMapPayload } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; startTime: number; endTime: number };

const ROOT = path.resolve(import.meta.dirname, "..");

const relative = (url: string) => {
  const file = url.replace(/^file:\/\//, "").replace(/\?.*$/, "");
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(file);
  if (pkg) return { module: pkg[1], file: `${pkg[1]} ${path.basename(pkg[2])}` };
  if (file.startsWith(ROOT)) return { module: path.relative(ROOT, file), file: path.relative(ROOT, file) };
  if (file.startsWith("node:")) return { module: "node internals", file };
  return { module: "(native, GC)", file: file || "(native)" };
};

// The name a minified function had in the source: the binding or property on its original line.
const NAME_PATTERNS = [/(?:const|let|var|function)\s+([\w$]+)\s*(?::[^=]+)?=?/, /([\w$]+)\s*:\s*(?:async\s*)?\(/, /([\w$]+)\s*\(/];

const sources = new Map<string, string[]>();
const sourceLines = (url: string) => {
  let lines = sources.get(url);
  if (!lines) sources.set(url, (lines = fs.readFileSync(fileURLToPath(url), "utf8").split("\n")));
  return lines;
};

/** Maps tsx's minified frames back to `name  file:line` through the captured source maps. */
const frameNamer = (maps: Record<string, SourceMapPayload>) => {
  const cache = new Map<string, SourceMap>();
  return (f: CallFrame) => {
    const { file } = relative(f.url);
    const payload = maps[f.url.replace(/\?.*$/, "")];
    if (!payload) return `${f.functionName || "(anonymous)"}  ${file}${f.url ? `:${f.lineNumber + 1}` : ""}`;
    let map = cache.get(f.url);
    if (!map) cache.set(f.url, (map = new SourceMap(payload)));
    const entry = map.findEntry(f.lineNumber, f.columnNumber) as { originalLine?: number; originalSource?: string; name?: string };
    if (entry.originalLine === undefined) return `${f.functionName || "(anonymous)"}  ${file}`;
    const line = sourceLines(entry.originalSource ?? f.url)[entry.originalLine] ?? "";
    const guessed = NAME_PATTERNS.map((re) => re.exec(line)?.[1]).find(Boolean);
    const name = f.functionName && f.functionName !== "(anonymous)" ? f.functionName : (entry.name ?? guessed ?? "(anonymous)");
    return `${name}  ${file}:${entry.originalLine + 1}`;
  };
};

const top = (totals: Map<string, number>, n: number, busyMs: number) =>
  [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, ms]) => `    ${((100 * ms) / busyMs).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(6)} ms  ${name}`);

export const summariseProfile = (dir: string, n = 15) => {
  const profile = JSON.parse(fs.readFileSync(path.join(dir, "server.cpuprofile"), "utf8")) as CpuProfile;
  const mapsFile = path.join(dir, "sourcemaps.json");
  const name = frameNamer(fs.existsSync(mapsFile) ? JSON.parse(fs.readFileSync(mapsFile, "utf8")) : {});
  const wallMs = (profile.endTime - profile.startTime) / 1000;
  const msPerSample = wallMs / Math.max(1, profile.samples.length);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const names = new Map<number, string>();
  const nameOf = (id: number) => names.get(id) ?? names.set(id, name(byId.get(id)!.callFrame)).get(id)!;
  const self = new Map<string, number>();
  const modules = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  let busyMs = 0;
  for (const id of profile.samples) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") continue;
    busyMs += msPerSample;
    add(self, nameOf(id), msPerSample);
    add(modules, relative(frame.url).module, msPerSample);
    // Inclusive time of the project's own functions, each counted once per sample however often it recurs.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (!byId.get(at)!.callFrame.url.startsWith(`file://${ROOT}/lib/`)) continue;
      const key = nameOf(at);
      if (!seen.has(key)) add(inclusive, key, msPerSample), seen.add(key);
    }
  }
  return [
    `  ${wallMs.toFixed(0)} ms profiled, ${busyMs.toFixed(0)} ms busy (${((100 * busyMs) / wallMs).toFixed(0)}%); percentages are of busy time`,
    `  self time by function:`,
    ...top(self, n, busyMs),
    `  self time by module:`,
    ...top(modules, 10, busyMs),
    `  inclusive time of lib/ functions:`,
    ...top(inclusive, n, busyMs),
  ].join("\n");
};

export const summariseProfiles = (root: string, engine: string) =>
  fs
    .readdirSync(root)
    .filter((d) => d.startsWith(`${engine}-`))
    .sort()
    .map((d) => {
      const dir = path.join(root, d);
      return fs.existsSync(path.join(dir, "server.cpuprofile"))
        ? `CPU profile of the Tabula server, ${d} (${path.relative(process.cwd(), dir)}):\n${summariseProfile(dir)}\n`
        : `${d}: no profile written\n`;
    })
    .join("\n");

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: tsx bench/profile.ts <profile folder>");
  console.log(summariseProfile(dir));
}

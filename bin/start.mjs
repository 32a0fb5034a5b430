#!/usr/bin/env node
// `npm start`: builds the dashboard when the build is missing or older than the sources, then runs server.ts.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = ["app", "components", "lib", "public", "proxy.ts", "next.config.ts", "package.json", "postcss.config.mjs"];

const newestMtime = (p) => {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(p).reduce((max, name) => Math.max(max, newestMtime(path.join(p, name))), stat.mtimeMs);
};

// The SQL editor's Monaco files are served from public/monaco (a copy of node_modules/monaco-editor; no-op when current).
spawnSync(process.execPath, [path.join(root, "scripts", "copy-monaco.mjs")], { cwd: root, stdio: "inherit" });
const buildId = path.join(root, ".next", "BUILD_ID");
const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
process.env.NEXT_TELEMETRY_DISABLED = "1";
if (builtAt < sourcesAt) {
  console.log(builtAt ? "Sources changed since the last build; rebuilding…" : "First start: building the dashboard…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
process.env.NODE_ENV = "production";
const { register } = await import("tsx/esm/api");
register();
await import(path.join(root, "server.ts"));

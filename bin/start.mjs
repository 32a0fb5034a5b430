#!/usr/bin/env node
// `npm start`: builds the dashboard when the build is missing or older than the sources, then runs the server
// bundle (scripts/build-server.mjs; remade when server.ts or lib/ changed), or server.ts through tsx without one.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = ["app", "components", "lib", "public", "proxy.ts", "next.config.ts", "package.json", "postcss.config.mjs"];
/** Copies made by the build steps themselves (public/monaco is checked by its version stamp instead). */
const GENERATED = new Set([path.join(root, "public", "monaco")]);

const mtimeOf = (p) => {
  try {
    return fs.statSync(p).mtimeMs;
  } catch {
    return 0;
  }
};

const newestMtime = (p) => {
  if (GENERATED.has(p)) return 0;
  let entries;
  try {
    entries = fs.readdirSync(p, { withFileTypes: true });
  } catch {
    return mtimeOf(p); // a file, or missing (0)
  }
  return entries.reduce((max, e) => Math.max(max, e.isDirectory() ? newestMtime(path.join(p, e.name)) : mtimeOf(path.join(p, e.name))), mtimeOf(p));
};

// The SQL editor's Monaco files are served from public/monaco (a copy of node_modules/monaco-editor).
const monacoVersion = (file) => {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
};
const monacoCopied = monacoVersion(path.join(root, "public", "monaco", "vs", ".version"));
if (!monacoCopied || monacoCopied !== JSON.parse(monacoVersion(path.join(root, "node_modules", "monaco-editor", "package.json")) ?? "{}").version) {
  spawnSync(process.execPath, [path.join(root, "scripts", "copy-monaco.mjs")], { cwd: root, stdio: "inherit" });
}
const builtAt = mtimeOf(path.join(root, ".next", "BUILD_ID"));
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

/** The server bundle, made again when older than lib/, server.ts or the Next build; undefined when esbuild fails. */
const serverBundle = async () => {
  const entry = path.join(root, ".next", "tabula-server", "server.mjs");
  const codeAt = Math.max(sourcesAt, ...["server.ts", "tsconfig.json", ".next/BUILD_ID"].map((f) => mtimeOf(path.join(root, f))));
  if (mtimeOf(path.join(root, ".next", "tabula-server", "stamp")) >= codeAt && fs.existsSync(entry)) return entry;
  try {
    const { buildServer } = await import(pathToFileURL(path.join(root, "scripts", "build-server.mjs")).href);
    await buildServer();
    return entry;
  } catch (err) {
    console.warn(`Could not bundle server.ts (${err?.message ?? err}); running it through tsx.`);
    return undefined;
  }
};

const bundle = await serverBundle();
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(path.join(root, "server.ts"));
}

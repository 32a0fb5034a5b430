#!/usr/bin/env node
// `npm start`: builds the dashboard when the build is missing or older than the sources, then runs the server
// bundle (scripts/build-server.mjs; remade when server.ts or lib/ changed), or server.ts through tsx without one.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildServer, currentBundle, newestMtime, SERVER_DIR } from "../scripts/build-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = ["app", "components", "lib", "public", "proxy.ts", "next.config.ts", "package.json", "postcss.config.mjs"];
/** Copies made by the build steps themselves (public/monaco is checked by its version stamp instead). */
const GENERATED = new Set([path.join(root, "public", "monaco")]);

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
const builtAt = newestMtime(path.join(root, ".next", "BUILD_ID"));
const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s), GENERATED)));
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

/** The server bundle, made again when older than what it is made from; undefined when esbuild fails. */
const serverBundle = async () => {
  const current = currentBundle();
  if (current) return current;
  try {
    await buildServer();
    return path.join(SERVER_DIR, "server.mjs");
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

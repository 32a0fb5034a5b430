#!/usr/bin/env node
// Copies Monaco's AMD build into public/monaco/vs so the SQL editor loads from this server (no CDN).
// Run before every `next build` (npm run build's prebuild, bin/start.mjs, scripts/test.sh); a no-op when current.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const from = path.join(root, "node_modules", "monaco-editor", "min", "vs");
const to = path.join(root, "public", "monaco", "vs");
const version = JSON.parse(fs.readFileSync(path.join(root, "node_modules", "monaco-editor", "package.json"), "utf8")).version;
const stamp = path.join(to, ".version");

if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === version) process.exit(0);
fs.rmSync(to, { recursive: true, force: true });
fs.cpSync(from, to, { recursive: true });
fs.writeFileSync(stamp, version);
console.log(`Copied monaco-editor ${version} to public/monaco/vs`);

#!/usr/bin/env node
// The `tabula` command: `npx tabula create-account --email E --password P`; `npx tabula mcp --url U --key K
// [--db D]`, the stdio bridge to a Tabula MCP server (bin/mcp-bridge.mjs); `npx tabula backup <instance> --out
// file` and `npx tabula restore file --name n` against a running server's management API (docs/backups.md).
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const usage = [
  "usage: tabula create-account --email <email> --password <password>",
  "       tabula backup <instance> --out <file> [--url <server>] [--key <secret key>]",
  "       tabula restore <file> --name <name> [--url <server>] [--key <secret key>]",
  "       tabula mcp --url <base url> --key <key> [--db <instance>]",
].join("\n");
const [command, ...rest] = process.argv.slice(2);

const fail = (message) => {
  console.error(`tabula: ${message}`);
  process.exit(1);
};

/** The server and key of the backup commands: flags, else TABULA_URL / TABULA_KEY. */
const apiOf = (values) => {
  const url = (values.url ?? process.env.TABULA_URL ?? "http://localhost:3000").replace(/\/+$/, "");
  const key = values.key ?? process.env.TABULA_KEY;
  if (!key) fail("a secret key is needed: --key sk_… or TABULA_KEY");
  return { url: `${url}/api/v1`, headers: { authorization: `Bearer ${key}` } };
};

const answer = async (res) => {
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  if (!res.ok) fail(`${res.status} ${body?.message ?? text}`);
  return body;
};

const SERVER_OPTIONS = { url: { type: "string" }, key: { type: "string" } };

if (command === "backup") {
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { ...SERVER_OPTIONS, out: { type: "string" } } });
  const [instance] = positionals;
  if (!instance || !values.out) fail(usage);
  const api = apiOf(values);
  const base = `${api.url}/databases/${encodeURIComponent(instance)}/backups`;
  const { id } = await answer(await fetch(base, { method: "POST", headers: api.headers }));
  let backup;
  for (;;) {
    backup = await answer(await fetch(`${base}/${id}`, { headers: api.headers }));
    if (backup.status !== "running") break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (backup.status !== "done") fail(`backup ${id} failed: ${backup.error}`);
  const res = await fetch(`${base}/${id}/download`, { headers: api.headers });
  if (!res.ok) await answer(res);
  await pipeline(Readable.fromWeb(res.body), fs.createWriteStream(values.out));
  console.log(`Backup ${id} of ${instance}: ${backup.tables} tables, ${backup.rows} rows, event ${backup.event_id}, ${backup.size} bytes → ${values.out}`);
  process.exit(0);
}

if (command === "restore") {
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { ...SERVER_OPTIONS, name: { type: "string" } } });
  const [file] = positionals;
  if (!file || !values.name) fail(usage);
  if (!fs.existsSync(file)) fail(`${file} does not exist`);
  const api = apiOf(values);
  const res = await fetch(`${api.url}/databases/restore?name=${encodeURIComponent(values.name)}`, {
    method: "POST",
    headers: { ...api.headers, "content-type": "application/gzip" },
    body: Readable.toWeb(fs.createReadStream(file)),
    duplex: "half",
  });
  const database = await answer(res);
  console.log(`Restored ${file} as ${database.name} (instance ${database.instance}, ${database.tables.length} tables).`);
  process.exit(0);
}

const createAccountCommand = async () => {
  const { values } = parseArgs({ args: rest, options: { email: { type: "string" }, password: { type: "string" } } });
  const { register } = await import("tsx/esm/api");
  register();
  const { createApp } = await import(path.join(root, "lib", "app.ts"));
  const { createAccount } = await import(path.join(root, "lib", "services", "accounts", "create-account.ts"));
  const app = await createApp();
  try {
    const { account, key } = await createAccount(app, { email: values.email, password: values.password });
    console.log(`Created account ${account.email} (id ${account.id}${account.is_operator ? ", operator" : ""}).`);
    console.log("Account secret key (keep it server-side):");
    console.log(key.key);
  } catch (err) {
    const detail = err?.errors?.map((e) => `${e.field}: ${e.message}`).join("; ");
    console.error(`tabula: ${err?.message ?? err}${detail && detail !== err?.message ? ` (${detail})` : ""}`);
    process.exitCode = 1;
  } finally {
    await app.close();
  }
};

if (command === "mcp") {
  const { runBridge } = await import("./mcp-bridge.mjs");
  await runBridge(rest);
} else if (command !== "create-account") {
  console.error(usage);
  process.exit(2);
} else {
  await createAccountCommand();
}

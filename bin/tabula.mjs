#!/usr/bin/env node
// The `tabula` command: `npx tabula create-account --email E --password P`, and `npx tabula mcp --url U --key K
// [--db D]`, the stdio bridge to a Tabula MCP server (bin/mcp-bridge.mjs).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const usage = "usage: tabula create-account --email <email> --password <password>\n       tabula mcp --url <base url> --key <key> [--db <instance>]";
const [command, ...rest] = process.argv.slice(2);

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
} else if (command === "create-account") {
  await createAccountCommand();
} else {
  console.error(usage);
  process.exit(2);
}

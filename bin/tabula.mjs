#!/usr/bin/env node
// The `tabula` command: `npx tabula create-account --email E --password P`.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const usage = "usage: tabula create-account --email <email> --password <password>";
const [command, ...rest] = process.argv.slice(2);

if (command !== "create-account") {
  console.error(usage);
  process.exit(2);
}
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

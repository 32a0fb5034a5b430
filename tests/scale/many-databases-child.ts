// Run by many-databases.test.ts in a child process under a lowered descriptor limit (prlimit): creates SCALE_DATABASES databases
// through the management API core, writes and reads each through the data API core (list reads go to the
// reader threads), reads every one again after most were closed, lists them as the dashboard does, and
// prints one JSON line with what happened and the most descriptors it had open (/proc/self/fd).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { handleDataRequest } from "../../lib/api/handle-data-request";
import { createApp } from "../../lib/app";
import { readConfig } from "../../lib/config";
import { webHandler } from "../../lib/http/web-adapter";
import { handleManagementRequest } from "../../lib/mgmt/handle-management-request";
import { createAccount } from "../../lib/services/accounts/create-account";
import { defaultMaxOpen, openFileLimit } from "../../lib/db/descriptor-budget";
import { DEFAULT_READERS } from "../../lib/db/readers/reader-pool";

const count = Number(process.env.SCALE_DATABASES ?? 2000);
const openFds = () => fs.readdirSync("/proc/self/fd").length;

const main = async () => {
  // The descriptor limit is lowered here, once the modules are loaded (the ESM loader reads many files at once
  // and is not what this measures), and before the app opens anything.
  const limit = process.env.SCALE_FD_LIMIT;
  if (limit) execFileSync("prlimit", ["--pid", String(process.pid), `--nofile=${limit}:${limit}`]);
  const config = { ...readConfig(), dataDir: process.env.SCALE_DIR!, bcryptCost: 4 };
  const app = await createApp(config);
  const { key } = await createAccount(app, { email: "scale@example.com", password: "correct horse battery" });
  const data = webHandler(async () => app, handleDataRequest);
  const management = webHandler(async () => app, (a, req) => handleManagementRequest(a, req));
  const call = async (method: string, path: string, body?: unknown) => {
    const handler = path.startsWith("/api/v1") ? management : data;
    const init = { method, headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) };
    const res = await handler(new Request(`http://scale.test${path}`, init));
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, retryAfter: res.headers.get("retry-after") };
  };

  const statuses: Record<string, number> = {};
  const note = (what: string, status: number) => {
    statuses[`${what} ${status}`] = (statuses[`${what} ${status}`] ?? 0) + 1;
    return status;
  };
  let maxFds = openFds();
  const instances: string[] = [];
  let firstFailure: unknown;
  for (let i = 0; i < count; i++) {
    const created = await call("POST", "/api/v1/databases", {
      name: `scale ${i}`,
      tables: [{ name: "notes", columns: [{ name: "body", type: "text" }, { name: "n", type: "int" }] }],
    });
    if (note("create", created.status) !== 201) {
      firstFailure ??= { i, ...created };
      if (process.env.SCALE_STOP_ON_FAILURE) break;
      continue;
    }
    const db = created.body.instance as string;
    instances.push(db);
    note("write", (await call("POST", `/v1/${db}/notes`, { body: `note ${i}`, n: i })).status);
    const listed = await call("GET", `/v1/${db}/notes?n=${i}`);
    note("list", listed.status === 200 && listed.body.length === 1 && listed.body[0].body === `note ${i}` ? 200 : -listed.status);
    maxFds = Math.max(maxFds, openFds());
  }
  // Every database again, long after most were closed: still usable.
  for (const [i, db] of instances.entries()) {
    const read = await call("GET", `/v1/${db}/notes/1`);
    note("reread", read.status === 200 && read.body.n === i ? 200 : -read.status);
    maxFds = Math.max(maxFds, openFds());
  }
  const listed = await call("GET", "/api/v1/databases");
  // After a refusal, wait for the idle databases to close and create one more.
  let recovered: number | undefined;
  if (process.env.SCALE_RECOVER && firstFailure) {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    recovered = (await call("POST", "/api/v1/databases", { name: "after the refusal" })).status;
  }
  const result = {
    limit: openFileLimit(),
    maxOpen: config.sqliteMaxOpen ?? defaultMaxOpen(config.sqliteReaders ?? DEFAULT_READERS),
    created: instances.length,
    statuses,
    firstFailure,
    maxFds,
    finalFds: openFds(),
    dashboardList: { status: listed.status, count: Array.isArray(listed.body) ? listed.body.length : undefined },
    recovered,
  };
  await app.close();
  console.log(JSON.stringify(result));
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

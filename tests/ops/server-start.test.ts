// How the production server starts (both engines): server.ts (through tsx) answers the APIs before Next is loaded,
// which happens on the first dashboard request; and the bundle `npm start` runs (scripts/build-server.mjs) serves as
// server.ts does.
// The dashboard case needs the production build (`node scripts/copy-monaco.mjs && npx next build`).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../scripts/build-server.mjs";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type ServerProcess, SOURCE_ENTRY, startServerProcess } from "../helpers/server-process";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The server's log messages in order, a request as `request <path>` (Next prints a line of its own, not JSON). */
const messages = (server: ServerProcess) =>
  server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg: string; path?: string })
    .map((l) => (l.msg === "request" ? `request ${l.path}` : l.msg));
const BUILD_ID = path.join(ROOT, ".next", "BUILD_ID");

describe.each(ENGINES)("server start on %s", (engine) => {
  let h: Harness;
  let instance: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    instance = await createDatabase(h, "starts", [{ name: "items", columns: [{ name: "label", type: "varchar" }] }]);
    expect((await h.request("POST", `/v1/${instance}/items`, { body: { label: "first" } })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await h?.close();
  });

  it("the data and management APIs answer before Next is prepared; the first dashboard request prepares it", async () => {
    if (!fs.existsSync(BUILD_ID)) throw new Error("This case runs the dashboard's production build: run `node scripts/copy-monaco.mjs && npx next build` first.");
    const server = await startServerProcess(h, { DASHBOARD: "on" }, SOURCE_ENTRY);
    servers.push(server);
    const record = await server.request("GET", `/v1/${instance}/items/1`, h.accountKey);
    expect({ status: record.status, label: record.body.label }).toEqual({ status: 200, label: "first" });
    expect((await server.request("GET", "/api/v1/databases", h.accountKey)).status).toBe(200);
    expect(messages(server)).not.toContain("dashboard ready");

    const page = await fetch(`${server.base}/login`);
    expect(page.status).toBe(200);
    const after = messages(server);
    expect(after).toContain("dashboard ready");
    expect(after.indexOf(`request /v1/${instance}/items/1`)).toBeLessThan(after.indexOf("dashboard ready"));
  }, 180_000);

  it("the server bundle serves the data API: a record, and a list page (read on the reader threads under SQLite)", async () => {
    const outdir = path.join(ROOT, "tests", ".tmp", `server-bundle-${randomBytes(4).toString("hex")}`);
    await buildServer(outdir);
    try {
      const server = await startServerProcess(h, {}, [path.join(outdir, "server.mjs")]);
      servers.push(server);
      const record = await server.request("GET", `/v1/${instance}/items/1`, h.accountKey);
      expect({ status: record.status, label: record.body.label }).toEqual({ status: 200, label: "first" });
      const list = await server.request("GET", `/v1/${instance}/items?label=first`, h.accountKey);
      expect({ status: list.status, labels: list.body.map((r: { label: string }) => r.label) }).toEqual({ status: 200, labels: ["first"] });
      const refused = await server.request("GET", `/v1/${instance}/items/1`, null);
      expect(refused.status).toBe(401);
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  }, 180_000);
});

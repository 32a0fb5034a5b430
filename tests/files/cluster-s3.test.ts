// The file store `npm run cluster` starts (scripts/local-s3.ts: s3rver over a folder, on loopback): two API
// processes with API_NODES=2 start on it, and a file uploaded through one downloads byte for byte through the
// other. SQLite is enough here: what is shown is the shared store, not the database engine.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../contract/contract-helpers";
import { type Harness, startHarness } from "../helpers/harness";
import { type ServerProcess, startServerProcess } from "../helpers/server-process";
import { freePort } from "../limits/limits-fixture";
import { form, sha256 } from "./files-helpers";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("two API nodes on the cluster's S3 store", () => {
  let folder: string;
  let store: ChildProcess;
  let h: Harness;
  const nodes: ServerProcess[] = [];

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-cluster-s3-"));
    const port = await freePort();
    store = spawn(process.execPath, ["--import", "tsx", "scripts/local-s3.ts", folder, String(port), "tabula-files"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      let out = "";
      store.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("READY")) resolve();
      });
      store.once("exit", (code) => reject(new Error(`local-s3 exited with ${code}`)));
    });
    const s3 = { bucket: "tabula-files", endpoint: `http://127.0.0.1:${port}`, region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER", forcePathStyle: true };
    h = await startHarness("sqlite", "node", { config: { s3 } });
    const env = { API_NODES: "2", S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER", S3_FORCE_PATH_STYLE: "1" };
    nodes.push(await startServerProcess(h, env), await startServerProcess(h, env));
  }, 120_000);
  afterAll(async () => {
    for (const node of nodes) await node.stop();
    await h?.close();
    store?.kill("SIGTERM");
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("stores through one node and serves through the other", async () => {
    const db = await createDatabase(h, "cluster files", [{ name: "papers", columns: [{ name: "file", type: "file" }] }]);
    const bytes = randomBytes(300_000);
    const made = await fetch(`${nodes[0].base}/v1/${db}/papers`, { method: "POST", headers: { "x-api-key": h.accountKey }, body: form([{ name: "file", bytes, filename: "a.bin" }]) });
    const row = await made.json();
    expect(made.status, JSON.stringify(row)).toBe(201);
    const got = await fetch(`${nodes[1].base}${row.file.url}`, { headers: { "x-api-key": h.accountKey } });
    expect(got.status).toBe(200);
    expect(sha256(new Uint8Array(await got.arrayBuffer()))).toBe(sha256(bytes));
    expect(fs.readdirSync(folder)).toContain("tabula-files");
  }, 60_000);
});

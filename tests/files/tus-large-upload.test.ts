// A 200 MB tus upload over real HTTP to the production server in a child process: the bytes stream to disk, the
// child's peak RSS (VmHWM, reset through /proc/<pid>/clear_refs once the path is warm) grows by less than 64 MB,
// and the upload taken back hashes the same. One engine: the bytes never meet the database engine.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openUploads } from "@/lib/files/tus";
import { createDatabase } from "../contract/contract-helpers";
import { type Harness, startHarness } from "../helpers/harness";
import { type ServerProcess, startServerProcess } from "../helpers/server-process";

const TOTAL = 200 * 1024 * 1024;
const kib = (field: string, pid: number) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);

describe("a 200 MB tus upload (sqlite, server process)", () => {
  let h: Harness;
  let server: ServerProcess;
  beforeAll(async () => {
    h = await startHarness("sqlite", "node");
    server = await startServerProcess(h);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await h?.close();
  });

  const send = (method: string, url: string, headers: Record<string, string>, body?: BodyInit) =>
    fetch(`${server.base}${url}`, { method, headers: { "tus-resumable": "1.0.0", "x-api-key": h.accountKey, ...headers }, body, duplex: "half" } as RequestInit);
  const upload = async (db: string, bytes: number, body: BodyInit) => {
    const made = await send("POST", `/v1/${db}/_uploads`, { "upload-length": String(bytes) });
    expect(made.status).toBe(201);
    const id = made.headers.get("location")!.split("/").pop()!;
    const done = await send("PATCH", `/v1/${db}/_uploads/${id}`, { "content-type": "application/offset+octet-stream", "upload-offset": "0" }, body);
    expect(done.status).toBe(204);
    expect(done.headers.get("upload-offset")).toBe(String(bytes));
    return id;
  };

  it("streams to disk with the server's peak RSS growing less than 64 MB, and comes back byte for byte", async () => {
    const db = await createDatabase(h, "big");
    const pid = server.child.pid!;
    await upload(db, 4, "warm"); // modules and buffers any upload needs are in the baseline
    const baseline = kib("VmRSS", pid);
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5"); // VmHWM := VmRSS

    const block = randomBytes(1024 * 1024);
    const expected = createHash("sha256");
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === TOTAL / block.length) return controller.close();
        sent++;
        expected.update(block);
        controller.enqueue(new Uint8Array(block));
      },
    });
    const id = await upload(db, TOTAL, body as unknown as BodyInit);
    const growthMb = (kib("VmHWM", pid) - baseline) / 1024;
    console.log(`200 MB tus upload: server peak RSS growth ${growthMb.toFixed(1)} MB (baseline ${(baseline / 1024).toFixed(0)} MB)`);
    expect(growthMb).toBeLessThan(64);

    // The child wrote under the harness's DATA_DIR; this process reads the upload back through the same folder.
    const taken = await openUploads(h.app.config).takeUpload(db, id);
    expect(taken.size).toBe(TOTAL);
    const got = createHash("sha256");
    for await (const chunk of taken.body) got.update(chunk as Buffer);
    expect(got.digest("hex")).toBe(expected.digest("hex"));
    await taken.remove();
  }, 120_000);
});

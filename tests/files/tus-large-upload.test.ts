// Big files over real HTTP to the production server in a child process, on the local folder and on the S3 driver
// (s3rver on loopback): a 200 MB tus upload streams in and its download streams out with the child's peak RSS
// (VmHWM, reset through /proc/<pid>/clear_refs once the path is warm) growing by less than 64 MB each way, and the
// bytes come back the same (sha256); a 5 MB multipart upload round trips too. One engine: the bytes never meet
// the database engine.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../contract/contract-helpers";
import { type Harness, startHarness } from "../helpers/harness";
import { type ServerProcess, startServerProcess } from "../helpers/server-process";
import { type RunningS3, startS3rver } from "../helpers/s3rver";
import { form, sha256 } from "./files-helpers";

const MB = 1024 * 1024;
const TOTAL = 200 * MB;
const RSS_LIMIT_MB = 64;
const kib = (field: string, pid: number) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);

/** The child's resident set now, with its peak (VmHWM) set back to it. */
const resetPeak = (pid: number) => {
  const baseline = kib("VmRSS", pid);
  fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
  return baseline;
};
const growthMb = (pid: number, baseline: number) => (kib("VmHWM", pid) - baseline) / 1024;

/** The child's environment for the S3 driver on `s3`. */
const s3Env = (s3: RunningS3): Record<string, string> => ({
  S3_BUCKET: s3.config.bucket,
  S3_ENDPOINT: s3.config.endpoint!,
  S3_REGION: s3.config.region,
  S3_ACCESS_KEY_ID: s3.config.accessKeyId!,
  S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey!,
  S3_FORCE_PATH_STYLE: "1",
});

describe.each(["local", "s3"] as const)("big files through the %s driver (sqlite, server process)", (driver) => {
  let h: Harness;
  let s3: RunningS3 | undefined;
  let server: ServerProcess;
  let db = "";
  beforeAll(async () => {
    if (driver === "s3") s3 = await startS3rver();
    h = await startHarness("sqlite", "node", s3 ? { config: { s3: s3.config } } : {});
    server = await startServerProcess(h, { FILE_MAX_BYTES: String(TOTAL), ...(s3 ? s3Env(s3) : {}) });
    db = await createDatabase(h, `big ${driver}`, [{ name: "blobs", columns: [{ name: "title", type: "varchar" }, { name: "payload", type: "file" }] }]);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await h?.close();
    await s3?.stop();
  });

  const send = (method: string, url: string, headers: Record<string, string>, body?: BodyInit) =>
    fetch(`${server.base}${url}`, { method, headers: { "x-api-key": h.accountKey, ...headers }, body, duplex: "half" } as RequestInit);
  const tus = (method: string, url: string, headers: Record<string, string>, body?: BodyInit) => send(method, url, { "tus-resumable": "1.0.0", ...headers }, body);
  const tusUpload = async (bytes: number, body: BodyInit) => {
    const made = await tus("POST", `/v1/${db}/_uploads`, { "upload-length": String(bytes) });
    expect(made.status).toBe(201);
    const id = made.headers.get("location")!.split("/").pop()!;
    const done = await tus("PATCH", `/v1/${db}/_uploads/${id}`, { "content-type": "application/offset+octet-stream", "upload-offset": "0" }, body);
    expect(done.status).toBe(204);
    expect(done.headers.get("upload-offset")).toBe(String(bytes));
    return id;
  };
  /** A row holding the finished upload `id`; answers the file as the row names it. */
  const attach = async (id: string) => {
    const made = await send("POST", `/v1/${db}/blobs`, { "content-type": "application/json" }, JSON.stringify({ title: "big", payload: { upload: id } }));
    const text = await made.text();
    expect(made.status, text).toBe(201);
    return JSON.parse(text).payload as { name: string; size: number; url: string };
  };
  /** Downloads a file, hashing it as it streams in; answers its size and sha256. */
  const downloadHash = async (url: string) => {
    const got = await send("GET", url, {});
    expect(got.status).toBe(200);
    const hash = createHash("sha256");
    let size = 0;
    for await (const chunk of got.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      hash.update(chunk);
    }
    return { size, sha256: hash.digest("hex") };
  };

  it("round trips 5 MB through a multipart write byte for byte", async () => {
    const bytes = randomBytes(5 * MB);
    const made = await send("POST", `/v1/${db}/blobs`, {}, form([{ name: "title", value: "five" }, { name: "payload", bytes, filename: "five.bin" }]));
    const text = await made.text();
    expect(made.status, text).toBe(201);
    expect(await downloadHash(JSON.parse(text).payload.url)).toEqual({ size: bytes.length, sha256: sha256(bytes) });
  }, 60_000);

  it(`takes 200 MB through tus and serves it back, the server's peak RSS growing less than ${RSS_LIMIT_MB} MB each way`, async () => {
    const pid = server.child.pid!;
    // Modules and buffers an upload, an attach and a download need are in the baseline.
    await downloadHash((await attach(await tusUpload(4, "warm"))).url);

    const block = randomBytes(MB);
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
    let baseline = resetPeak(pid);
    const id = await tusUpload(TOTAL, body as unknown as BodyInit);
    const upMb = growthMb(pid, baseline);
    const file = await attach(id);
    expect(file.size).toBe(TOTAL);

    baseline = resetPeak(pid);
    const got = await downloadHash(file.url);
    const downMb = growthMb(pid, baseline);
    console.log(`200 MB on ${driver}: server peak RSS growth ${upMb.toFixed(1)} MB uploading, ${downMb.toFixed(1)} MB downloading (baseline ${(baseline / 1024).toFixed(0)} MB)`);
    expect(got).toEqual({ size: TOTAL, sha256: expected.digest("hex") });
    expect(upMb).toBeLessThan(RSS_LIMIT_MB);
    expect(downMb).toBeLessThan(RSS_LIMIT_MB);
  }, 300_000);
});

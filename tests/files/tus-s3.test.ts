// Resumable uploads kept in S3 (@tus/s3-store against s3rver on loopback): create, resume, finish, take once, and
// expire; the same HTTP contract as the local folder's (tus-uploads.test.ts).
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openS3Store } from "@/lib/files/s3-store";
import { uploadsOf } from "@/lib/files/tus";
import { createDatabase } from "../contract/contract-helpers";
import { type Harness, startHarness } from "../helpers/harness";
import { type RunningS3, startS3rver } from "../helpers/s3rver";

describe("tus uploads in S3 (sqlite, node)", () => {
  let s3: RunningS3;
  let h: Harness;
  let db = "";
  beforeAll(async () => {
    s3 = await startS3rver();
    h = await startHarness("sqlite", "node", { config: { s3: s3.config } });
    db = await createDatabase(h, "s3uploads");
  });
  afterAll(async () => {
    await h?.close();
    await s3?.stop();
  });
  const keysUnder = async (prefix: string) => {
    const keys: string[] = [];
    for await (const o of openS3Store(s3.config).list(prefix)) keys.push(o.key);
    return keys;
  };
  const send = (method: string, url: string, headers: Record<string, string> = {}, body?: Buffer) =>
    fetch(`${h.baseUrl}${url}`, { method, headers: { "tus-resumable": "1.0.0", "x-api-key": h.accountKey, ...headers }, body: body && new Uint8Array(body) });

  it("receives an upload in two PATCHes under _uploads/ and hands it over once", async () => {
    const bytes = randomBytes(12 * 1024 * 1024 + 5);
    const made = await send("POST", `/v1/${db}/_uploads`, { "upload-length": String(bytes.length) });
    expect(made.status, await made.clone().text()).toBe(201);
    const id = made.headers.get("location")!.split("/").pop()!;
    const cut = 9 * 1024 * 1024;
    const first = await send("PATCH", `/v1/${db}/_uploads/${id}`, { "content-type": "application/offset+octet-stream", "upload-offset": "0" }, bytes.subarray(0, cut));
    expect(first.status).toBe(204);
    const head = await send("HEAD", `/v1/${db}/_uploads/${id}`);
    const offset = Number(head.headers.get("upload-offset"));
    expect(offset).toBeGreaterThan(0);
    const rest = await send("PATCH", `/v1/${db}/_uploads/${id}`, { "content-type": "application/offset+octet-stream", "upload-offset": String(offset) }, bytes.subarray(offset));
    expect(rest.status).toBe(204);
    expect(rest.headers.get("upload-offset")).toBe(String(bytes.length));
    expect(s3.requests.some((r) => r.includes(`/_uploads/${id}`))).toBe(true);

    const taken = await uploadsOf(h.app.config).takeUpload(db, id);
    expect(taken.size).toBe(bytes.length);
    const hash = createHash("sha256");
    for await (const chunk of taken.body) hash.update(chunk as Buffer);
    expect(hash.digest("hex")).toBe(createHash("sha256").update(bytes).digest("hex"));
    await taken.remove();
    expect((await send("HEAD", `/v1/${db}/_uploads/${id}`)).status).toBe(404);
    expect(await keysUnder(`_uploads/${id}`)).toEqual([]);
  });

  it("expires uploads after the TTL, finished or not, leaving no object", async () => {
    const made = await send("POST", `/v1/${db}/_uploads`, { "upload-length": "3" });
    const id = made.headers.get("location")!.split("/").pop()!;
    await send("PATCH", `/v1/${db}/_uploads/${id}`, { "content-type": "application/offset+octet-stream", "upload-offset": "0" }, Buffer.from("abc"));
    const open = (await send("POST", `/v1/${db}/_uploads`, { "upload-length": "100" })).headers.get("location")!.split("/").pop()!;
    const uploads = uploadsOf(h.app.config);
    expect(await uploads.expireUploads(new Date(Date.now() + 60_000))).toBe(0);
    expect(await uploads.expireUploads(new Date(Date.now() + 25 * 3600_000))).toBe(2);
    for (const gone of [id, open]) expect((await send("HEAD", `/v1/${db}/_uploads/${gone}`)).status).toBe(404);
    expect(await keysUnder("_uploads/")).toEqual([]);
  });
});

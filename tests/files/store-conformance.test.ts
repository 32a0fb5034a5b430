// The file store's contract, run against both drivers: the local folder and S3 (a real s3rver on loopback).
// Round trips byte for byte, ranges, atomic puts (a failing or oversized body leaves no object and no temp
// file), deletes, listing by prefix, and the keys every driver refuses.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileTooLarge, type FileStore } from "@/lib/files/store";
import { openLocalStore } from "@/lib/files/local-store";
import { openS3Store } from "@/lib/files/s3-store";
import { startS3rver, type RunningS3 } from "../helpers/s3rver";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const readAll = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
};
/** A body in 64 KiB chunks that, when `failAfter` is set, errors once that many bytes went out. */
const bodyOf = (bytes: Buffer, failAfter?: number) =>
  Readable.from(
    (async function* () {
      for (let i = 0; i < bytes.length; i += 65536) {
        if (failAfter !== undefined && i >= failAfter) throw new Error("client went away");
        yield bytes.subarray(i, i + 65536);
      }
    })(),
  );
const listAll = async (store: FileStore, prefix: string) => {
  const out: { key: string; size: number }[] = [];
  for await (const o of store.list(prefix)) out.push({ key: o.key, size: o.size });
  return out.sort((a, b) => a.key.localeCompare(b.key));
};
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [];

let s3: RunningS3;
let localRoot: string;
beforeAll(async () => {
  s3 = await startS3rver();
  localRoot = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-files-"));
});
afterAll(async () => {
  await s3?.stop();
  fs.rmSync(localRoot, { recursive: true, force: true });
});

/** Files on disk: the local driver's folder, or s3rver's (objects, and the parts of multipart uploads not
 * completed or aborted), so a failed put that left a temp file or parts behind shows up. */
const leftovers = (kind: string) => (kind === "local" ? filesUnder(localRoot) : filesUnder(s3.directory));
const abortsSent = () => s3.requests.filter((r) => r.startsWith("DELETE ") && r.includes("uploadId=")).length;

describe.each(["local", "s3"] as const)("the %s driver", (kind) => {
  let store: FileStore;
  const ns = `db${kind}/t1`;
  beforeAll(() => {
    store = kind === "local" ? openLocalStore(localRoot) : openS3Store(s3.config);
  });

  it("reports its kind", () => expect(store.kind).toBe(kind));

  it.each([
    ["1 byte", 1],
    ["5 MB", 5 * 1024 * 1024],
    ["8 MiB + 123 bytes (two parts)", 8 * 1024 * 1024 + 123],
  ])("round-trips %s byte for byte", async (_name, n) => {
    const bytes = randomBytes(n);
    const key = `${ns}/r${n}/blob_${n}.bin`;
    expect(await store.put(key, bodyOf(bytes), { contentType: "application/octet-stream" })).toEqual({ size: n, sha256: sha256(bytes) });
    const got = await store.get(key);
    expect(got?.size).toBe(n);
    expect(sha256(await readAll(got!.body))).toBe(sha256(bytes));
    expect((await store.stat(key))?.size).toBe(n);
  });

  it("reads inclusive ranges and reports the whole size", async () => {
    const bytes = randomBytes(100_000);
    const key = `${ns}/range/r.bin`;
    await store.put(key, bodyOf(bytes), { contentType: "application/octet-stream" });
    for (const [start, end] of [[0, 0], [10, 19], [99_990, 99_999], [0, 99_999]]) {
      const got = await store.get(key, { start, end });
      expect(got?.size).toBe(100_000);
      expect((await readAll(got!.body)).equals(bytes.subarray(start, end + 1))).toBe(true);
    }
  });

  it("answers null for an absent key", async () => {
    expect(await store.get(`${ns}/nothing/here.txt`)).toBeNull();
    expect(await store.stat(`${ns}/nothing/here.txt`)).toBeNull();
  });

  it("replaces an object whole", async () => {
    const key = `${ns}/replace/a.txt`;
    await store.put(key, Readable.from([Buffer.from("first version")]), { contentType: "text/plain" });
    await store.put(key, Readable.from([Buffer.from("second")]), { contentType: "text/plain" });
    expect((await readAll((await store.get(key))!.body)).toString()).toBe("second");
  });

  it.each([
    ["a small body", 200_000, 100_000],
    ["a body of several parts", 10 * 1024 * 1024, 9 * 1024 * 1024],
  ])("a put whose body fails midway (%s) leaves no object and no temp file", async (_name, n, failAfter) => {
    const key = `${ns}/broken${n}/b.bin`;
    const before = leftovers(kind).length;
    const aborts = kind === "s3" ? abortsSent() : 0;
    await expect(store.put(key, bodyOf(randomBytes(n), failAfter), { contentType: "application/octet-stream" })).rejects.toThrow("client went away");
    expect(await store.stat(key)).toBeNull();
    expect(await listAll(store, `${ns}/broken${n}/`)).toEqual([]);
    expect(leftovers(kind).length).toBe(before);
    if (kind === "s3") expect(abortsSent() - aborts).toBe(n > 8 * 1024 * 1024 ? 1 : 0);
  });

  it.each([
    ["in one part", 300_000, 100_000],
    ["past one part", 10 * 1024 * 1024, 8 * 1024 * 1024 + 65536],
  ])("a body over maxBytes (%s) is FileTooLarge (413) and leaves nothing", async (_name, n, maxBytes) => {
    const key = `${ns}/big${n}/b.bin`;
    const before = leftovers(kind).length;
    const aborts = kind === "s3" ? abortsSent() : 0;
    const body = bodyOf(randomBytes(n));
    const error = await store.put(key, body, { contentType: "application/octet-stream", maxBytes }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileTooLarge);
    expect((error as FileTooLarge).status).toBe(413);
    expect(await store.stat(key)).toBeNull();
    expect(leftovers(kind).length).toBe(before);
    if (kind === "s3") expect(abortsSent() - aborts).toBe(maxBytes > 8 * 1024 * 1024 ? 1 : 0);
    // The source is drained, not destroyed, so a multipart parser feeding it can carry on.
    await new Promise<void>((resolve) => (body.readableEnded ? resolve() : body.once("end", resolve)));
    expect(body.destroyed && !body.readableEnded).toBe(false);
  });

  it("a body of exactly maxBytes is stored", async () => {
    const bytes = randomBytes(4096);
    expect((await store.put(`${ns}/exact/e.bin`, bodyOf(bytes), { contentType: "x/y", maxBytes: 4096 })).size).toBe(4096);
  });

  it("lists by prefix and deletes, missing keys included", async () => {
    const base = `${ns}/list`;
    for (const k of ["r1/a.txt", "r1/b.txt", "r2/c.txt", "r10/d.txt"]) await store.put(`${base}/${k}`, Readable.from([Buffer.from(k)]), { contentType: "text/plain" });
    expect(await listAll(store, `${base}/`)).toEqual(
      ["r1/a.txt", "r1/b.txt", "r10/d.txt", "r2/c.txt"].map((k) => ({ key: `${base}/${k}`, size: k.length })),
    );
    expect((await listAll(store, `${base}/r1/`)).map((o) => o.key)).toEqual([`${base}/r1/a.txt`, `${base}/r1/b.txt`]);
    expect((await listAll(store, `${base}/r1`)).map((o) => o.key)).toEqual([`${base}/r1/a.txt`, `${base}/r1/b.txt`, `${base}/r10/d.txt`]);
    await store.delete([`${base}/r1/a.txt`, `${base}/r1/b.txt`, `${base}/never/was.txt`]);
    expect((await listAll(store, `${base}/`)).map((o) => o.key)).toEqual([`${base}/r10/d.txt`, `${base}/r2/c.txt`]);
    await store.delete([]);
    if (kind === "local") expect(fs.existsSync(path.join(localRoot, ns, "list", "r1"))).toBe(false);
  });

  it.each([
    ["a step up", "db/../etc/passwd"],
    ["a trailing ..", "db/t/.."],
    ["NUL", "db/t/a\0b"],
    ["a backslash", "db\\t\\a"],
    ["a leading /", "/etc/passwd"],
    ["an empty key", ""],
    ["an empty segment", "db//a"],
    ["a temp file's name", "db/t/.~put-abc"],
  ])("refuses a key with %s on every verb", async (_name, key) => {
    await expect(store.put(key, Readable.from([Buffer.from("x")]), { contentType: "text/plain" })).rejects.toMatchObject({ status: 400 });
    await expect(store.get(key)).rejects.toMatchObject({ status: 400 });
    await expect(store.stat(key)).rejects.toMatchObject({ status: 400 });
    await expect(store.delete([key])).rejects.toMatchObject({ status: 400 });
  });

  it("allows ordinary keys with dots, spaces and unicode", async () => {
    const key = `${ns}/ok/photo.v2 (copy) é.png`;
    await store.put(key, Readable.from([Buffer.from("ok")]), { contentType: "image/png" });
    expect((await store.stat(key))?.size).toBe(2);
  });
});

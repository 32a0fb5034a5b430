// Serving stored files over real HTTP (node:http through the transport's sendCoreResponse): validators, ranges,
// downloads and the rules for active types, thumbs made once under 20 concurrent first requests, and sniffing.
// The local driver serves most cases; ranges and thumbs run on S3 (s3rver on loopback) too.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse } from "@/lib/http/error-response";
import { toWebResponse } from "@/lib/http/web-adapter";
import { openLocalStore } from "@/lib/files/local-store";
import { openS3Store } from "@/lib/files/s3-store";
import { contentDisposition, type FileObject, parseRange, serveFile } from "@/lib/files/serve";
import { sniffBody, sniffType } from "@/lib/files/sniff-type";
import type { FileStore } from "@/lib/files/store";
import { parseThumbSpec, thumbCounters, thumbListProblems, thumbPrefix } from "@/lib/files/thumbs";
import { sendCoreResponse } from "@/lib/transport/node-adapter";
import { startS3rver, type RunningS3 } from "../helpers/s3rver";

type Served = { store: FileStore; key: string; file: FileObject; public?: boolean; thumbs?: string[] };
const files = new Map<string, Served>();
let base: string;
let server: http.Server;
let root: string;
let s3: RunningS3;
let local: FileStore;
let remote: FileStore;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-serve-"));
  s3 = await startS3rver();
  local = openLocalStore(root);
  remote = openS3Store(s3.config);
  server = http.createServer(async (req, res) => {
    const url = new URL(req.url!, "http://x");
    const served = files.get(url.pathname.slice(1));
    try {
      if (!served) throw new Error("test route missing");
      const header = (name: string) => req.headers[name] as string | undefined;
      sendCoreResponse(res, await serveFile({ ...served, method: req.method!, header, query: url.searchParams }));
    } catch (error) {
      sendCoreResponse(res, errorResponse(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await s3?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const put = async (store: FileStore, route: string, bytes: Buffer, file: Omit<FileObject, "size">, extra: Partial<Served> = {}) => {
  const key = `db1/t1/r1/${route}`;
  await store.put(key, Readable.from([bytes]), { contentType: file.type });
  files.set(route, { store, key, file: { ...file, size: bytes.length }, ...extra });
};
const get = (route: string, headers: Record<string, string> = {}, method = "GET") => fetch(`${base}/${route}`, { headers, method });

describe("downloads", () => {
  const bytes = randomBytes(300_000);
  beforeAll(() => put(local, "blob.bin", bytes, { name: "report ünïcode \"q\".bin", type: "application/octet-stream" }));

  it("streams the whole file with a strong ETag, private caching, nosniff and an inline name", async () => {
    const res = await get("blob.bin");
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(res.headers.get("etag")).toMatch(/^"[\w-]{27}"$/);
    expect(res.headers.get("content-length")).toBe("300000");
    expect(res.headers.get("cache-control")).toBe("private, max-age=600");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="report _n_code _q_.bin"; filename*=UTF-8''report%20%C3%BCn%C3%AFcode%20%22q%22.bin`);
  });

  it("answers HEAD with the headers and no body", async () => {
    const res = await get("blob.bin", {}, "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("300000");
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it("answers 304 to a matching If-None-Match (weak or in a list) and 200 to another", async () => {
    const etag = (await get("blob.bin", {}, "HEAD")).headers.get("etag")!;
    for (const ask of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const res = await get("blob.bin", { "if-none-match": ask });
      expect(res.status).toBe(304);
      expect(res.headers.get("etag")).toBe(etag);
    }
    expect((await get("blob.bin", { "if-none-match": '"other"' })).status).toBe(200);
  });

  it("?download=1 makes it an attachment", async () => {
    const res = await get("blob.bin?download=1");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="report _n_code _q_.bin"; filename\*=UTF-8''/);
    await res.arrayBuffer();
  });

  it("marks a public column's files public", async () => {
    await put(local, "pub.txt", Buffer.from("hello"), { name: "pub.txt", type: "text/plain" }, { public: true });
    const res = await get("pub.txt");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(await res.text()).toBe("hello");
  });

  it("streams through the route handlers' adapter too (a web Response)", async () => {
    const header = () => undefined;
    const out = await serveFile({ ...files.get("blob.bin")!, method: "GET", header, query: new URLSearchParams("download=1") });
    const res = toWebResponse(out);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("answers 404 when the object is gone from the store", async () => {
    files.set("gone.bin", { store: local, key: "db1/t1/r1/gone.bin", file: { name: "gone.bin", size: 3, type: "text/plain" } });
    const res = await get("gone.bin");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found", message: "No such file." });
  });
});

describe("types a browser would run", () => {
  it.each([
    ["page.html", "text/html", "<!doctype html><script>alert(1)</script>"],
    ["pic.svg", "image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ["data.xml", "application/xml", "<?xml version='1.0'?><a/>"],
    ["app.js", "text/javascript", "alert(1)"],
  ])("%s (%s) is always an attachment with nosniff, even without ?download", async (name, type, text) => {
    await put(local, name, Buffer.from(text), { name, type });
    const res = await get(name);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(await res.text()).toBe(text);
  });

  it("a plain image stays inline", async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#f00" } }).png().toBuffer();
    await put(local, "dot.png", png, { name: "dot.png", type: "image/png" });
    const res = await get("dot.png");
    expect(res.headers.get("content-disposition")).toMatch(/^inline;/);
    expect(res.headers.get("content-type")).toBe("image/png");
    await res.arrayBuffer();
  });
});

describe.each(["local", "s3"] as const)("ranges on the %s driver", (kind) => {
  const bytes = randomBytes(100_000);
  const route = `range-${kind}.bin`;
  beforeAll(() => put(kind === "local" ? local : remote, route, bytes, { name: "r.bin", type: "application/octet-stream" }));

  it.each([
    ["bytes=0-0", 0, 0],
    ["bytes=10-19", 10, 19],
    ["bytes=99990-", 99_990, 99_999],
    ["bytes=-5", 99_995, 99_999],
    ["bytes=50-999999", 50, 99_999],
  ])("%s → 206 with that slice", async (range, start, end) => {
    const res = await get(route, { range });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes ${start}-${end}/100000`);
    expect(res.headers.get("content-length")).toBe(String(end - start + 1));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(start, end + 1))).toBe(true);
  });

  it.each(["bytes=100000-", "bytes=200000-300000", "bytes=9-3", "bytes=-0", "bytes=abc"])("%s → 416 with the size", async (range) => {
    const res = await get(route, { range });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe("bytes */100000");
    expect(await res.json()).toMatchObject({ error: "range_not_satisfiable" });
  });

  it("serves the whole file for several ranges, another unit, or a stale If-Range", async () => {
    const asks: Record<string, string>[] = [{ range: "bytes=0-1,5-6" }, { range: "items=0-1" }, { range: "bytes=0-1", "if-range": '"stale"' }];
    for (const headers of asks) {
      const res = await get(route, headers);
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(100_000);
    }
  });
});

describe("parsers", () => {
  it.each([
    ["100x100", { width: 100, height: 100, mode: "crop" }],
    ["400x0", { width: 400, height: 0, mode: "ratio" }],
    ["0x300", { width: 0, height: 300, mode: "ratio" }],
    ["640x480f", { width: 640, height: 480, mode: "fit" }],
  ])("thumb spec %s is valid", (text, spec) => expect(parseThumbSpec(text)).toEqual({ spec: text, ...spec }));

  it.each(["0x0", "100", "100x", "x100", "100x100x", "0x100f", "3000x10", "0100x100", "-1x5", "100X100", " 100x100"])("thumb spec %j is refused", (text) => {
    expect(parseThumbSpec(text)).toBeUndefined();
  });

  it("names every bad entry of a column's thumbs", () => {
    expect(thumbListProblems(["100x100", "0x0", 5])).toEqual([
      '"0x0" is not a thumb size: use WxH, Wx0, 0xH or WxHf with sides up to 2000.',
      "5 is not a thumb size: use WxH, Wx0, 0xH or WxHf with sides up to 2000.",
    ]);
    expect(thumbListProblems("100x100")).toEqual(['thumbs must be a list of sizes such as "100x100".']);
  });

  it("parses ranges as RFC 9110 says", () => {
    expect(parseRange(undefined, 10)).toBeUndefined();
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
    expect(parseRange("bytes= 2 - 4", 10)).toEqual({ start: 2, end: 4 });
  });

  it("keeps control characters and quotes out of the fallback filename", () => {
    expect(contentDisposition("attachment", 'a"b\\c\r\nd;e%f.txt')).toBe(`attachment; filename="a_b_c__d_e_f.txt"; filename*=UTF-8''a%22b%5Cc%0D%0Ad%3Be%25f.txt`);
  });
});

describe("sniffing", () => {
  it.each([
    ["png", "image/png", async () => sharp({ create: { width: 2, height: 2, channels: 3, background: "#000" } }).png().toBuffer()],
    ["jpeg", "image/jpeg", async () => sharp({ create: { width: 2, height: 2, channels: 3, background: "#000" } }).jpeg().toBuffer()],
    ["pdf", "application/pdf", async () => Buffer.from("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n")],
    ["html", "text/html", async () => Buffer.from("  <!DOCTYPE html><html><body>hi</body></html>")],
    ["svg", "image/svg+xml", async () => Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
    ["bare svg", "image/svg+xml", async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
    ["text", "text/plain", async () => Buffer.from("just some notes, é ü")],
    ["binary", "application/octet-stream", async () => Buffer.from([0, 1, 2, 3, 255, 254])],
    ["empty", "application/octet-stream", async () => Buffer.alloc(0)],
  ])("%s bytes are %s whatever the name claims", async (_name, type, make) => {
    expect(await sniffType(await make())).toBe(type);
  });

  it("sniffBody gives the type and the whole stream back, byte for byte", async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#0f0" } }).png().toBuffer();
    const bytes = Buffer.concat([png, randomBytes(200_000)]);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 1000) }, (_, i) => bytes.subarray(i * 1000, (i + 1) * 1000));
    const { type, body } = await sniffBody(Readable.from(chunks));
    expect(type).toBe("image/png");
    const out = await local.put("db1/t1/r2/sniffed.png", body, { contentType: type });
    expect(out.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
  });

  it("sniffBody handles a body shorter than the sniff window", async () => {
    const { type, body } = await sniffBody(Readable.from([Buffer.from("tiny")]));
    expect(type).toBe("text/plain");
    expect((await local.put("db1/t1/r2/tiny.txt", body, { contentType: type })).size).toBe(4);
  });
});

describe.each(["local", "s3"] as const)("thumbs on the %s driver", (kind) => {
  const route = `photo-${kind}.jpg`;
  let store: FileStore;
  beforeAll(async () => {
    store = kind === "local" ? local : remote;
    const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#3366cc" } }).jpeg().toBuffer();
    await put(store, route, jpeg, { name: "photo.jpg", type: "image/jpeg" }, { thumbs: ["100x100", "200x0", "0x60", "300x300f"] });
  });

  it("20 concurrent first requests make the thumb once and all get it", async () => {
    const before = thumbCounters.generated;
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(`${route}?thumb=100x100`)));
    const bodies = await Promise.all(answers.map(async (r) => Buffer.from(await r.arrayBuffer())));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(thumbCounters.generated - before).toBe(1);
    expect(new Set(bodies.map((b) => b.toString("base64"))).size).toBe(1);
    expect(await sharp(bodies[0]).metadata()).toMatchObject({ width: 100, height: 100, format: "jpeg" });
    expect((await get(`${route}?thumb=100x100`)).status).toBe(200);
    expect(thumbCounters.generated - before).toBe(1);
  });

  it.each([
    ["200x0", 200, 150],
    ["0x60", 80, 60],
    ["300x300f", 300, 225],
  ])("%s keeps the ratio (%dx%d)", async (spec, width, height) => {
    const res = await get(`${route}?thumb=${spec}`);
    expect(res.status).toBe(200);
    expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ width, height });
  });

  it("has its own ETag, apart from the file's", async () => {
    const [file, thumb] = await Promise.all([get(route, {}, "HEAD"), get(`${route}?thumb=100x100`, {}, "HEAD")]);
    expect(thumb.headers.get("etag")).not.toBe(file.headers.get("etag"));
  });

  it("a size the column does not list is a 422 naming thumb", async () => {
    const res = await get(`${route}?thumb=50x50`);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      error: "validation_failed",
      errors: [{ field: "thumb", code: "thumb_not_allowed", message: "thumb must be one of 100x100, 200x0, 0x60, 300x300f." }],
    });
  });

  it("keeps its thumbs under the file's thumb prefix", async () => {
    const keys: string[] = [];
    for await (const o of store.list(thumbPrefix(`db1/t1/r1/${route}`))) keys.push(o.key);
    expect(keys.length).toBeGreaterThanOrEqual(4);
  });
});

describe("thumbs of files that are not images", () => {
  it("serves the file itself for an allowed size", async () => {
    await put(local, "notes.txt", Buffer.from("notes"), { name: "notes.txt", type: "text/plain" }, { thumbs: ["100x100"] });
    const res = await get("notes.txt?thumb=100x100");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("notes");
  });

  it("serves the file itself when the image cannot be read", async () => {
    await put(local, "broken.png", Buffer.from("\x89PNG\r\n\x1a\nnot really"), { name: "broken.png", type: "image/png" }, { thumbs: ["100x100"] });
    const res = await get("broken.png?thumb=100x100");
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(Buffer.byteLength("\x89PNG\r\n\x1a\nnot really"));
  });
});

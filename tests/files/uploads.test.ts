// Uploads with the row: multipart writes store files under their final keys, the row names them as
// {name, size, type, url}, and a download gives the same bytes back. A refused write (another column's 422, a
// pre hook's assert, the storage quota, a size past the column's limit, a type the column does not accept)
// leaves no stored object behind. Names are made safe whatever the client sends.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, MATRIX, useHarness } from "../contract/contract-helpers";
import { STORED_NAME } from "../../lib/files/safe-name";
import { databaseId, download, expectStatus, pdfBytes, pngBytes, send, sha256, storedKeys, upload } from "./files-helpers";

describe.each(MATRIX)("uploads with the row on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let db: string;
  let prefix: string;

  beforeAll(async () => {
    db = await createDatabase(ctx.h, `files ${target.engine}`, [
      {
        name: "papers",
        columns: [
          { name: "title", type: "varchar", nullable: false },
          { name: "pages", type: "int" },
          { name: "scan", type: "file" },
          { name: "photo", type: "file", accept: ["image/*"], max_size: 4096 },
          { name: "attachments", type: "file", multiple: true },
        ],
      },
    ]);
    prefix = `${await databaseId(ctx.h, db)}/`;
  });

  it("stores 1 byte and 5 MB and gives the same bytes back", async () => {
    const one = Uint8Array.from([42]);
    const big = new Uint8Array(5 * 1024 * 1024).map((_, i) => (i * 7919) % 251);
    const made = await upload(ctx.h, "POST", `/v1/${db}/papers`, [
      { name: "title", value: "round trip" },
      { name: "pages", value: "12" },
      { name: "scan", bytes: big, filename: "big.bin" },
      { name: "attachments", bytes: one, filename: "one.txt" },
    ]);
    expectStatus(made, 201);
    expect(made.body).toMatchObject({ title: "round trip", pages: 12 });
    expect(made.body.scan).toEqual({ name: expect.stringMatching(STORED_NAME), size: big.length, type: "application/octet-stream", url: `/v1/${db}/papers/${made.body.id}/scan/${made.body.scan.name}` });
    expect(made.body.attachments).toHaveLength(1);
    expect(made.body.attachments[0]).toMatchObject({ size: 1 });
    for (const [file, bytes] of [[made.body.scan, big], [made.body.attachments[0], one]] as const) {
      const got = await download(ctx.h, file.url);
      expect(got.status).toBe(200);
      expect(sha256(got.bytes)).toBe(sha256(bytes));
    }
    const read = await ctx.h.request("GET", `/v1/${db}/papers/${made.body.id}`);
    expect(read.body.scan).toEqual(made.body.scan);
    const listed = await ctx.h.request("GET", `/v1/${db}/papers?id=${made.body.id}`);
    expect(listed.body[0].attachments).toEqual(made.body.attachments);
  });

  it("takes the record as one _json part", async () => {
    const made = await upload(ctx.h, "POST", `/v1/${db}/papers`, [
      { name: "_json", value: JSON.stringify({ title: "from json", pages: 3 }) },
      { name: "photo", bytes: pngBytes(), filename: "p.png" },
    ]);
    expectStatus(made, 201);
    expect(made.body).toMatchObject({ title: "from json", pages: 3, photo: { type: "image/png", size: pngBytes().length } });
  });

  it("refuses a write whose other column is wrong (422) and stores nothing", async () => {
    const before = await storedKeys(ctx.h, prefix);
    const reply = await upload(ctx.h, "POST", `/v1/${db}/papers`, [
      { name: "scan", bytes: pngBytes(2000), filename: "s.png" },
      { name: "title", value: "bad pages" },
      { name: "pages", value: "many" },
    ]);
    expectStatus(reply, 422);
    expect(reply.body.errors).toEqual([expect.objectContaining({ field: "pages", code: "invalid_type" })]);
    expect(await storedKeys(ctx.h, prefix)).toEqual(before);
  });

  it("refuses a required column left out (422 naming it) and stores nothing", async () => {
    const before = await storedKeys(ctx.h, prefix);
    const reply = await upload(ctx.h, "POST", `/v1/${db}/papers`, [{ name: "scan", bytes: pngBytes(), filename: "s.png" }]);
    expectStatus(reply, 422);
    expect(reply.body.errors.map((e: { field: string }) => e.field)).toEqual(["title"]);
    expect(await storedKeys(ctx.h, prefix)).toEqual(before);
  });

  it("judges the type from the bytes: a PDF named .png is not an image (422 naming the column)", async () => {
    const before = await storedKeys(ctx.h, prefix);
    const reply = await upload(ctx.h, "POST", `/v1/${db}/papers`, [
      { name: "title", value: "disguised" },
      { name: "photo", bytes: pdfBytes(), filename: "cat.png", type: "image/png" },
    ]);
    expectStatus(reply, 422);
    expect(reply.body.errors).toEqual([expect.objectContaining({ field: "photo", code: "type_not_accepted" })]);
    expect(await storedKeys(ctx.h, prefix)).toEqual(before);
    const stored = await upload(ctx.h, "POST", `/v1/${db}/papers`, [{ name: "title", value: "pdf scan" }, { name: "scan", bytes: pdfBytes(), filename: "cat.png", type: "image/png" }]);
    expect(stored.body.scan.type).toBe("application/pdf");
  });

  it("refuses a file past the column's max_size with 413 and stores nothing", async () => {
    const before = await storedKeys(ctx.h, prefix);
    const reply = await upload(ctx.h, "POST", `/v1/${db}/papers`, [{ name: "title", value: "too big" }, { name: "photo", bytes: pngBytes(5000), filename: "big.png" }]);
    expectStatus(reply, 413);
    expect(reply.body.error).toBe("payload_too_large");
    expect(await storedKeys(ctx.h, prefix)).toEqual(before);
  });

  it.each([
    ["a part for an unknown column", [{ name: "nope", bytes: pngBytes(), filename: "x.png" }], "nope", "unknown_column"],
    ["a file part for a column that is not a file column", [{ name: "pages", bytes: pngBytes(), filename: "x.png" }], "pages", "not_a_file_column"],
    ["two files for a single file column", [{ name: "scan", bytes: pngBytes(), filename: "a.png" }, { name: "scan", bytes: pngBytes(), filename: "b.png" }], "scan", "too_many_files"],
    ["a form field for an unknown column", [{ name: "colour", value: "red" }], "colour", "unknown_column"],
  ])("refuses %s (422) and stores nothing", async (_label, parts, field, code) => {
    const before = await storedKeys(ctx.h, prefix);
    const reply = await upload(ctx.h, "POST", `/v1/${db}/papers`, [{ name: "title", value: "t" }, ...(parts as never[])]);
    expectStatus(reply, 422);
    expect(reply.body.errors).toEqual([expect.objectContaining({ field, code })]);
    expect(await storedKeys(ctx.h, prefix)).toEqual(before);
  });

  it("refuses a malformed multipart body with 422", async () => {
    const { send } = await import("./files-helpers");
    const response = await send(ctx.h, "POST", `/v1/${db}/papers`, {
      body: "--xyz\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nunterminated",
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
    });
    expect(response.status).toBe(422);
    expect((await response.json()).errors[0]).toMatchObject({ field: "body", code: "invalid_multipart" });
  });

  it("makes hostile names safe: no path, control or direction characters, at most 40 + suffix characters", async () => {
    const names = ["../../etc/passwd", "..\\..\\boot.ini", "a\u0085b.png", "evil\u202egnp.exe", `${"x".repeat(2000)}.txt`, "\u200f\u2066[31m.sh", "résumé final.pdf"];
    const parts = names.map((filename) => ({ name: "attachments", bytes: pngBytes(), filename }));
    const made = await upload(ctx.h, "POST", `/v1/${db}/papers`, [{ name: "title", value: "tricks" }, ...parts]);
    expectStatus(made, 201);
    const stored = made.body.attachments.map((f: { name: string }) => f.name);
    for (const name of stored) {
      expect(name).toMatch(STORED_NAME);
      expect(name.length).toBeLessThanOrEqual(60);
    }
    expect(stored[0]).toMatch(/^passwd_[a-z0-9]{8}$/);
    expect(stored[6]).toMatch(/^resume_final_[a-z0-9]{8}\.pdf$/);
    expect(stored[3]).toMatch(/^evil_gnp_[a-z0-9]{8}\.exe$/);
    const keys = await storedKeys(ctx.h, prefix);
    for (const name of stored) expect(keys.filter((k) => k.endsWith(`/${name}`))).toHaveLength(1);
  });

  it("refuses a file name with a NUL or control character in its part header (422) and stores nothing", async () => {
    const before = await storedKeys(ctx.h, prefix);
    const reply = await upload(ctx.h, "POST", `/v1/${db}/papers`, [{ name: "title", value: "nul" }, { name: "scan", bytes: pngBytes(), filename: "a\u0000b\u001b.png" }]);
    if (reply.status === 201) expect(reply.body.scan.name).toMatch(/^a_b_[a-z0-9]{8}\.png$/);
    else expect(reply.status).toBe(422);
    if (reply.status !== 201) expect(await storedKeys(ctx.h, prefix)).toEqual(before);
  });

  it("PATCH replaces, appends (col+) and removes (col-) files; the files a row no longer names are deleted", async () => {
    const made = await upload(ctx.h, "POST", `/v1/${db}/papers`, [
      { name: "title", value: "edits" },
      { name: "scan", bytes: pngBytes(100), filename: "first.png" },
      { name: "attachments", bytes: pngBytes(10), filename: "a.bin" },
      { name: "attachments", bytes: pngBytes(11), filename: "b.bin" },
    ]);
    expectStatus(made, 201);
    const id = made.body.id;
    const [a, b] = made.body.attachments.map((f: { name: string }) => f.name);
    const first = made.body.scan.name;
    const replaced = await upload(ctx.h, "PATCH", `/v1/${db}/papers/${id}`, [{ name: "scan", bytes: pngBytes(200), filename: "second.png" }]);
    expectStatus(replaced, 200);
    expect(replaced.body.scan.size).toBe(200);
    expect(replaced.body.attachments.map((f: { name: string }) => f.name)).toEqual([a, b]);
    const keys = await storedKeys(ctx.h, prefix);
    expect(keys.some((k) => k.endsWith(`/${first}`))).toBe(false);
    expect(keys.some((k) => k.endsWith(`/${replaced.body.scan.name}`))).toBe(true);
    const appended = await upload(ctx.h, "PATCH", `/v1/${db}/papers/${id}`, [
      { name: "attachments+", bytes: pngBytes(12), filename: "c.bin" },
      { name: "attachments-", value: a },
    ]);
    expectStatus(appended, 200);
    const names = appended.body.attachments.map((f: { name: string }) => f.name);
    expect(names).toHaveLength(2);
    expect(names[0]).toBe(b);
    expect((await storedKeys(ctx.h, prefix)).some((k) => k.endsWith(`/${a}`))).toBe(false);
    const unknown = await upload(ctx.h, "PATCH", `/v1/${db}/papers/${id}`, [{ name: "attachments-", value: "not_mine_aaaaaaaa.png" }]);
    expectStatus(unknown, 422);
    expect(unknown.body.errors[0]).toMatchObject({ field: "attachments", code: "not_stored" });
    // JSON: keep a subset of stored names; null clears.
    const kept = await ctx.h.request("PATCH", `/v1/${db}/papers/${id}`, { body: { attachments: [names[1]], scan: null } });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.attachments.map((f: { name: string }) => f.name)).toEqual([names[1]]);
    expect(kept.body.scan).toBeNull();
    const left = await storedKeys(ctx.h, prefix);
    expect(left.some((k) => k.endsWith(`/${b}`))).toBe(false);
    expect(left.some((k) => k.endsWith(`/${replaced.body.scan.name}`))).toBe(false);
    expect(left.some((k) => k.endsWith(`/${names[1]}`))).toBe(true);
  });

  it("a JSON body cannot point a row at a stored object (only names the row already holds)", async () => {
    const forged = await ctx.h.request("POST", `/v1/${db}/papers`, { body: { title: "forged", scan: { name: "passwd_aaaaaaaa", size: 1, type: "text/plain" } } });
    expect(forged.status).toBe(422);
    expect(forged.body.errors[0]).toMatchObject({ field: "scan", code: "not_stored" });
    const shape = await ctx.h.request("POST", `/v1/${db}/papers`, { body: { title: "forged", scan: "passwd_aaaaaaaa" } });
    expect(shape.status).toBe(422);
    expect(shape.body.errors[0]).toMatchObject({ field: "scan", code: "invalid_type" });
    const names = await ctx.h.request("POST", `/v1/${db}/papers`, { body: { title: "forged", attachments: ["passwd_aaaaaaaa"] } });
    expect(names.status).toBe(422);
    expect(names.body.errors[0]).toMatchObject({ field: "attachments", code: "not_stored" });
  });

  it("GET → edit → PUT keeps the files the record holds", async () => {
    const made = await upload(ctx.h, "POST", `/v1/${db}/papers`, [{ name: "title", value: "put" }, { name: "scan", bytes: pngBytes(90), filename: "s.png" }, { name: "attachments", bytes: pngBytes(91), filename: "a.png" }]);
    const read = await ctx.h.request("GET", `/v1/${db}/papers/${made.body.id}`);
    const put = await ctx.h.request("PUT", `/v1/${db}/papers/${made.body.id}`, { body: { ...read.body, title: "put again" } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.scan).toEqual(made.body.scan);
    expect(put.body.attachments).toEqual(made.body.attachments);
    expect((await download(ctx.h, put.body.scan.url)).status).toBe(200);
  });

  it("_expand shows a referenced row's files with their urls", async () => {
    const made = await upload(ctx.h, "POST", `/v1/${db}/papers`, [{ name: "title", value: "referenced" }, { name: "scan", bytes: pngBytes(80), filename: "r.png" }]);
    const table = await ctx.h.request("POST", `/api/v1/databases/${db}/tables`, { body: { name: "notes", columns: [{ name: "paper_id", type: "reference", references: "papers" }] } });
    expect(table.status, table.text).toBe(201);
    const note = await ctx.h.request("POST", `/v1/${db}/notes`, { body: { paper_id: made.body.id } });
    const expanded = await ctx.h.request("GET", `/v1/${db}/notes?id=${note.body.id}&_expand=paper_id`);
    expect(expanded.body[0].expand.paper_id.scan).toEqual(made.body.scan);
  });

  it("attaches a finished tus upload with {\"upload\": id}, once; a taken or unknown id is 422", async () => {
    const bytes = pdfBytes();
    const tus = (method: string, url: string, headers: Record<string, string>, body?: Uint8Array) =>
      send(ctx.h, method, url, { headers: { "tus-resumable": "1.0.0", ...headers }, body: body && Buffer.from(body) });
    const created = await tus("POST", `/v1/${db}/_uploads`, { "upload-length": String(bytes.length), "upload-metadata": `filename ${Buffer.from("deal.pdf").toString("base64")}` });
    expect(created.status).toBe(201);
    const id = created.headers.get("location")!.split("/").pop()!;
    const sent = await tus("PATCH", `/v1/${db}/_uploads/${id}`, { "content-type": "application/offset+octet-stream", "upload-offset": "0" }, bytes);
    expect(sent.status).toBe(204);
    const made = await ctx.h.request("POST", `/v1/${db}/papers`, { body: { title: "from tus", scan: { upload: id } } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.scan).toMatchObject({ name: expect.stringMatching(/^deal_[a-z0-9]{8}\.pdf$/), size: bytes.length, type: "application/pdf" });
    expect(sha256((await download(ctx.h, made.body.scan.url)).bytes)).toBe(sha256(bytes));
    const again = await ctx.h.request("POST", `/v1/${db}/papers`, { body: { title: "twice", scan: { upload: id } } });
    expect(again.status).toBe(422);
    const unknown = await ctx.h.request("POST", `/v1/${db}/papers`, { body: { title: "unknown", scan: { upload: "0".repeat(32) } } });
    expect(unknown.status).toBe(422);
  });

  it("bulk JSON writes keep working on a table with file columns", async () => {
    const reply = await ctx.h.request("POST", `/v1/${db}/papers`, { body: [{ title: "bulk 1" }, { title: "bulk 2", scan: null }] });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.map((r: { scan: unknown }) => r.scan)).toEqual([null, null]);
  });
});

// Stored files in backups, restores and clones, on both engines with the local store and on SQLite with S3
// (s3rver): a backup holds every file the rows name with its size and checksum; a restore puts them under the
// new database's keys, and they download byte for byte through the data API; a clone copies them; a damaged
// file part is a 422 that leaves no database and no stored file behind.
import { createHash, randomBytes } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTar, TAR_END, tarHeader, tarPadding } from "../../lib/backup/tar";
import { fileStoreOf } from "../../lib/api/files/file-scope";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type RunningS3, startS3rver } from "../helpers/s3rver";
import { databaseId, download as downloadFile, expectStatus, pdfBytes, pngBytes, storedKeys, upload } from "../files/files-helpers";
import { download, restore, takeBackup, userDatabases } from "./backup-fixture";

type Entry = { name: string; data: Buffer };
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const entriesOf = async (archive: Buffer): Promise<Entry[]> => {
  const out: Entry[] = [];
  for await (const entry of readTar((async function* () { yield gunzipSync(archive); })())) {
    const chunks: Buffer[] = [];
    for await (const c of entry.body) chunks.push(c);
    out.push({ name: entry.name, data: Buffer.concat(chunks) });
  }
  return out;
};

/** The entries with one more part, listed in the manifest with its true size and checksum. */
const withPart = (entries: Entry[], extra: Entry) =>
  [...entries, extra].map((e) => {
    if (e.name !== "manifest.json") return e;
    const manifest = JSON.parse(e.data.toString());
    manifest.parts.push({ path: extra.name, bytes: extra.data.length, sha256: sha256(extra.data) });
    return { ...e, data: Buffer.from(JSON.stringify(manifest)) };
  });

const archiveOf = (entries: Entry[]) =>
  gzipSync(Buffer.concat([...entries.flatMap((e) => [tarHeader(e.name, e.data.length), e.data, tarPadding(e.data.length)]), TAR_END]));

// Long enough that `files/<table>/<stored name>` passes tar's 100-byte name field.
const TABLE = "documents_kept_with_their_scans_and_attachments_for_years";

const TARGETS = [...ENGINES.map((engine) => ({ engine, store: "local" as const })), { engine: "sqlite" as const, store: "s3" as const }];

describe.each(TARGETS)("stored files in backups on $engine with the $store store", ({ engine, store }) => {
  let h: Harness;
  let s3: RunningS3 | undefined;
  let db: string;
  let archive: Buffer;
  const sent = new Map<string, string>(); // stored name → sha256 of the bytes uploaded

  beforeAll(async () => {
    if (store === "s3") s3 = await startS3rver();
    h = await startHarness(engine, "node", s3 ? { config: { s3: s3.config } } : {});
    db = await createDatabase(h, `files ${engine}`, [
      { name: TABLE, columns: [{ name: "title", type: "varchar" }, { name: "scan", type: "file" }, { name: "attachments", type: "file", multiple: true }] },
    ] as never);
    const scan = randomBytes(300_000);
    const [png, pdf] = [pngBytes(2048), pdfBytes()];
    const made = await upload(h, "POST", `/v1/${db}/${TABLE}`, [
      { name: "title", value: "with files" },
      { name: "scan", bytes: scan, filename: "scan.bin" },
      { name: "attachments", bytes: png, filename: "photo.png" },
      { name: "attachments", bytes: pdf, filename: "paper.pdf" },
    ]);
    expectStatus(made, 201);
    sent.set(made.body.scan.name, sha256(scan));
    sent.set(made.body.attachments[0].name, sha256(png));
    sent.set(made.body.attachments[1].name, sha256(pdf));
    expectStatus(await h.request("POST", `/v1/${db}/${TABLE}`, { body: { title: "no files" } }), 201);
    const backup = await takeBackup(h, db);
    expect(backup).toMatchObject({ status: "done", error: null });
    archive = await download(h, db, backup.id);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await s3?.stop();
  });

  /** The database's storage counter (the quota's usage) and the bytes its store holds. */
  const counted = async (instance: string) => {
    const id = await databaseId(h, instance);
    const row = await h.app.engine.meta.selectFrom("file_usage").select("bytes").where("database_id", "=", id).executeTakeFirst();
    return Number(row?.bytes ?? 0);
  };
  const sentBytes = 300_000 + 2048 + pdfBytes().length;

  /** Every file of a database's rows downloaded through the data API: stored name → sha256 of the bytes. */
  const downloaded = async (instance: string) => {
    const rows = await h.request("GET", `/v1/${instance}/${TABLE}`);
    expect(rows.status, rows.text).toBe(200);
    const files = (rows.body as { scan: { name: string; url: string } | null; attachments: { name: string; url: string }[] | null }[]).flatMap((r) => [...(r.scan ? [r.scan] : []), ...(r.attachments ?? [])]);
    const out = new Map<string, string>();
    for (const file of files) {
      const got = await downloadFile(h, file.url);
      expect(got.status, file.url).toBe(200);
      out.set(file.name, sha256(got.bytes));
    }
    return out;
  };

  it("holds every stored file the rows name, after the tables, with its size and sha256 in the manifest", async () => {
    const entries = await entriesOf(archive);
    const manifest = JSON.parse(entries[0].data.toString());
    const files = entries.filter((e) => e.name.startsWith("files/"));
    expect(files.map((e) => e.name).sort()).toEqual([...sent.keys()].map((name) => `files/${TABLE}/${name}`).sort());
    expect(entries.slice(-files.length)).toEqual(files);
    for (const file of files) {
      expect(sha256(file.data)).toBe(sent.get(file.name.split("/").pop()!));
      expect(manifest.parts).toContainEqual({ path: file.name, bytes: file.data.length, sha256: sha256(file.data) });
    }
    expect(manifest.missing_files).toBeUndefined();
  });

  it("restores them under the new database's keys, and they download byte for byte through the data API", async () => {
    const reply = await restore(h, "restored with files", archive);
    expect(reply.status, reply.text).toBe(201);
    const instance = reply.body.instance;
    const id = await databaseId(h, instance);
    const table = await h.app.engine.meta.selectFrom("tables").select("id").where("database_id", "=", id).executeTakeFirstOrThrow();
    expect(await storedKeys(h, `${id}/`)).toEqual([...sent.keys()].map((name) => `${id}/${table.id}/${name}`).sort());
    expect(await downloaded(instance)).toEqual(sent);
    expect(await counted(instance)).toBe(sentBytes);
  });

  it("clones with data copy the files, which outlive the source's", async () => {
    const reply = await h.request("POST", `/api/v1/databases/${db}/clone`, { body: { name: "cloned with files" } });
    expect(reply.status, reply.text).toBe(201);
    const clone = reply.body.instance;
    expect(await storedKeys(h, `${await databaseId(h, clone)}/`)).toHaveLength(sent.size);
    expect(await counted(clone)).toBe(sentBytes);
    const rows = await h.request("GET", `/v1/${clone}/${TABLE}`);
    const source = (await h.request("GET", `/v1/${db}/${TABLE}`)).body;
    expect(rows.body.map((r: { scan: unknown }) => r.scan && { ...(r.scan as object), url: undefined })).toEqual(source.map((r: { scan: unknown }) => r.scan && { ...(r.scan as object), url: undefined }));
    expectStatus(await h.request("DELETE", `/v1/${db}/${TABLE}/${source[0].id}`), 204);
    expect(await downloaded(clone)).toEqual(sent);
  });

  it("refuses a damaged file part with a 422 and leaves no database and no stored file behind", async () => {
    const entries = await entriesOf(archive);
    const last = entries[entries.length - 1];
    expect(last.name.startsWith("files/")).toBe(true);
    const damaged = Buffer.from(last.data);
    damaged[damaged.length - 1] ^= 0xff;
    const before = { databases: await userDatabases(h), keys: await storedKeys(h) };
    const reply = await restore(h, "damaged files", archiveOf([...entries.slice(0, -1), { name: last.name, data: damaged }]));
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body).toMatchObject({ error: "validation_failed", errors: [{ field: "body", code: "invalid_archive" }] });
    expect(reply.body.message).toBe(`${last.name} does not match its checksum in manifest.json (the archive is damaged).`);
    expect({ databases: await userDatabases(h), keys: await storedKeys(h) }).toEqual(before);
  });

  it.each([
    ["a file part of a table that has no such table", `files/nosuch/scan_k2m9x7ab.bin`],
    ["a file part whose name is not a stored name", `files/${TABLE}/..%2Fescape`],
  ])("refuses %s with a 422 naming it and leaves nothing behind", async (_case, name) => {
    const before = { databases: await userDatabases(h), keys: await storedKeys(h) };
    const reply = await restore(h, "foreign file", archiveOf(withPart(await entriesOf(archive), { name, data: Buffer.from("x") })));
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body.message).toBe(`${name} names no file of a table with file columns.`);
    expect({ databases: await userDatabases(h), keys: await storedKeys(h) }).toEqual(before);
  });

  it("backs up a row whose file the store no longer has: listed in missing_files, the rest whole", async () => {
    const row = await upload(h, "POST", `/v1/${db}/${TABLE}`, [{ name: "title", value: "lost" }, { name: "scan", bytes: pdfBytes(), filename: "lost.pdf" }]);
    expectStatus(row, 201);
    const kept = await upload(h, "POST", `/v1/${db}/${TABLE}`, [{ name: "title", value: "kept" }, { name: "scan", bytes: pngBytes(100), filename: "kept.png" }]);
    expectStatus(kept, 201);
    const id = await databaseId(h, db);
    const key = (await storedKeys(h, `${id}/`)).find((k) => k.endsWith(`/${row.body.scan.name}`))!;
    await fileStoreOf(h.app).delete([key]);
    const backup = await takeBackup(h, db);
    expect(backup).toMatchObject({ status: "done", error: null });
    const entries = await entriesOf(await download(h, db, backup.id));
    const manifest = JSON.parse(entries[0].data.toString());
    expect(manifest.missing_files).toEqual([`files/${TABLE}/${row.body.scan.name}`]);
    expect(entries.filter((e) => e.name.startsWith("files/")).map((e) => e.name)).toEqual([`files/${TABLE}/${kept.body.scan.name}`]);
  });

  // Last: the server answers this 422 before it has read the body and closes the connection, which a keep-alive
  // client's next request on it would meet as a reset.
  it("refuses a row whose file value names no stored name (a path) with a 422 naming the row and column", async () => {
    const scanName = [...sent.keys()][0];
    const entries = (await entriesOf(archive)).map((e) =>
      e.name === `tables/${TABLE}.jsonl` ? { ...e, data: Buffer.from(e.data.toString().replace(`"name":"${scanName}"`, '"name":"../../etc/passwd"')) } : e,
    );
    const before = { databases: await userDatabases(h), keys: await storedKeys(h) };
    const reply = await restore(h, "bad file value", archiveOf(entries));
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body.message).toBe(`tables/${TABLE}.jsonl, row 1: scan must be a stored file ({"name", "size", "type"}).`);
    expect({ databases: await userDatabases(h), keys: await storedKeys(h) }).toEqual(before);
  });
});

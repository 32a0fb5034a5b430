// A restore refuses a damaged, foreign, newer or cut-short archive with a 422 naming the problem and leaves
// nothing behind (no database listed, no metadata row, no physical database, no name held); two restores of
// one name give one 201 and one 409; a backup of a database deleted under it ends as failed, and a stopped
// snapshot lets go of its locks at once.
import { randomBytes } from "node:crypto";
import http from "node:http";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleBackups } from "../../lib/backup/backup-jobs";
import { openSnapshot } from "../../lib/backup/open-snapshot";
import { readTar, TAR_END, tarHeader, tarPadding } from "../../lib/backup/tar";
import { loadSchema } from "../../lib/meta/load-schema";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { download, makeKindsDatabase, restore, takeBackup, userDatabases } from "./backup-fixture";

type Entry = { name: string; data: Buffer };

const entriesOf = async (archive: Buffer): Promise<Entry[]> => {
  const out: Entry[] = [];
  for await (const entry of readTar((async function* () { yield gunzipSync(archive); })())) {
    const chunks: Buffer[] = [];
    for await (const c of entry.body) chunks.push(c);
    out.push({ name: entry.name, data: Buffer.concat(chunks) });
  }
  return out;
};

const archiveOf = (entries: Entry[]) =>
  gzipSync(Buffer.concat([...entries.flatMap((e) => [tarHeader(e.name, e.data.length), e.data, tarPadding(e.data.length)]), TAR_END]));

const editManifest = (entries: Entry[], edit: (m: Record<string, any>) => void) =>
  entries.map((e) => {
    if (e.name !== "manifest.json") return e;
    const manifest = JSON.parse(e.data.toString());
    edit(manifest);
    return { ...e, data: Buffer.from(JSON.stringify(manifest)) };
  });

describe.each(ENGINES)("restore refusals on %s", (engine) => {
  let h: Harness;
  let archive: Buffer;
  let entries: Entry[];

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    const db = await makeKindsDatabase(h);
    const backup = await takeBackup(h, db);
    archive = await download(h, db, backup.id);
    entries = await entriesOf(archive);
  }, 60_000);
  afterAll(() => h.close());

  const CASES: [string, () => Buffer, RegExp][] = [
    [
      "a part whose bytes changed (checksum)",
      () => archiveOf(entries.map((e) => (e.name === "tables/kinds.jsonl" ? { ...e, data: Buffer.from(e.data.toString().replace('"every"', '"evarY"')) } : e))),
      /^tables\/kinds\.jsonl does not match its checksum in manifest\.json/,
    ],
    ["a newer format version", () => archiveOf(editManifest(entries, (m) => (m.version = 99))), /^The archive's format version 99 is newer than this server reads \(1\)/],
    ["a cut-short gzip stream", () => archive.subarray(0, Math.floor(archive.length * 0.8)), /cut short/],
    ["an archive missing its last part", () => archiveOf(entries.slice(0, -1)), /^The archive is cut short: tables\/users\.jsonl is missing\.$/],
    ["a part the manifest does not list", () => archiveOf([...entries, { name: "tables/extra.jsonl", data: Buffer.from("{}\n") }]), /^The archive holds tables\/extra\.jsonl, which manifest\.json does not list\.$/],
    ["a foreign tar (no manifest first)", () => archiveOf([{ name: "hello.txt", data: Buffer.from("hi") }]), /^Not a Tabula backup: the archive does not start with manifest\.json\.$/],
    ["bytes that are not gzip", () => Buffer.from("this is not an archive at all"), /^Not a Tabula backup: the body is not a gzip'd archive\.$/],
    [
      "a row count that does not match",
      () => archiveOf(editManifest(entries, (m) => (m.parts.find((p: { path: string }) => p.path === "tables/kinds.jsonl").rows = 4))),
      /^tables\/kinds\.jsonl holds 3 rows; manifest\.json says 4\.$/,
    ],
  ];

  it.each(CASES)("refuses %s with a 422 naming it and creates nothing", async (_name, make, message) => {
    const before = await userDatabases(h);
    const reply = await restore(h, "refused", make());
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body).toMatchObject({ error: "validation_failed", errors: [{ field: "body", code: "invalid_archive" }] });
    expect(reply.body.message).toMatch(message);
    expect(await userDatabases(h)).toEqual(before);
  });

  it("a refused restore's connection serves the next request: the rest of its body is read and dropped", async () => {
    // Refused at its first entry, with 2 MB of incompressible bytes still to come behind it.
    const body = archiveOf([{ name: "hello.txt", data: Buffer.from("hi") }, { name: "noise.bin", data: randomBytes(2 * 1024 * 1024) }]);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, payload?: Buffer) =>
      new Promise<{ status: number; text: string; reused: boolean }>((resolve, reject) => {
        const req = http.request(`${h.baseUrl}${path}`, { method, agent, headers: { "x-api-key": h.accountKey, ...(payload && { "content-type": "application/gzip", "content-length": String(payload.length) }) } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), reused: req.reusedSocket }));
        });
        req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path}: no answer within 10 s on the kept connection`)));
        req.on("error", reject);
        req.end(payload);
      });
    try {
      const refused = await send("POST", "/api/v1/databases/restore?name=noisy", body);
      expect(refused.status, refused.text).toBe(422);
      expect(JSON.parse(refused.text).message).toBe("Not a Tabula backup: the archive does not start with manifest.json.");
      const next = await send("GET", "/api/v1/databases");
      expect(next).toMatchObject({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it("restores the unchanged archive (the refusals above are the edits, not the harness)", async () => {
    const reply = await restore(h, "accepted", archiveOf(entries));
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.name).toBe("accepted");
  });

  it("two restores with one name at once: one 201, one 409 naming the name, one database", async () => {
    const [a, b] = await Promise.all([restore(h, "twin", archive), restore(h, "twin", archive)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const lost = a.status === 409 ? a : b;
    expect(lost.body).toMatchObject({ error: "conflict", errors: [{ field: "name", code: "taken" }] });
    expect((await userDatabases(h)).listed.filter((n) => n === "twin")).toEqual(["twin"]);
    expect((await userDatabases(h)).claims).toBe(0);
  });

  it("refuses a restore without a body and without a name", async () => {
    const noName = await fetch(`${h.baseUrl}/api/v1/databases/restore`, { method: "POST", headers: { "x-api-key": h.accountKey }, body: new Uint8Array(archive) });
    expect(noName.status).toBe(422);
    expect((await noName.json()).errors[0].field).toBe("name");
  });

  it("refuses a caller without a key (401) and a viewer's key (403), allows the owner", async () => {
    const anonymous = await fetch(`${h.baseUrl}/api/v1/databases/restore?name=x`, { method: "POST", body: new Uint8Array(archive) });
    expect(anonymous.status).toBe(401);
    const db = (await h.request("GET", "/api/v1/databases")).body[0].instance as string;
    const viewer = await h.createAccount();
    const invite = await h.request("POST", "/api/v1/team/invites", { body: { role: "viewer" } });
    expect(invite.status, invite.text).toBe(201);
    const accepted = await h.request("POST", "/api/v1/team/invites/accept", { body: { token: invite.body.token }, key: viewer.key });
    expect(accepted.status, accepted.text).toBe(200);
    const asViewer = await h.request("POST", `/api/v1/databases/${db}/backups`, { key: viewer.key });
    expect(asViewer.status).toBe(403);
    const list = await h.request("GET", `/api/v1/databases/${db}/backups`, { key: viewer.key });
    expect(list.status).toBe(403);
    const owner = await h.request("GET", `/api/v1/databases/${db}/backups`);
    expect(owner.status).toBe(200);
  });

  it("a backup of a database deleted while it runs ends as failed, leaving no archive", async () => {
    const db = await makeKindsDatabase(h, "doomed");
    await h.request("POST", `/v1/${db}/items`, { body: Array.from({ length: 1000 }, (_, i) => ({ n: i, label: "x".repeat(200) })) });
    const started = await h.request("POST", `/api/v1/databases/${db}/backups`);
    expect(started.status).toBe(202);
    const deleted = await h.request("DELETE", `/api/v1/databases/${db}`);
    expect(deleted.status).toBe(204);
    await settleBackups(h.app);
    const row = await h.app.engine.meta.selectFrom("backups").selectAll().where("id", "=", started.body.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "failed", error: "the database was deleted during the backup" });
    const { existsSync } = await import("node:fs");
    expect(existsSync(row.location)).toBe(false);
  });

  it("a stopped snapshot lets go of its locks: a DROP DATABASE queued behind its reads goes through", async () => {
    const db = await makeKindsDatabase(h, "held");
    const { physical } = (await loadSchema(h.app, db))!;
    const controller = new AbortController();
    const snapshot = await openSnapshot(h.app, physical, controller.signal);
    const reads = snapshot.batches("items", ["id"]);
    await reads.next();
    let dropped = false;
    const drop = h.app.engine.dropUserDb(physical).then(() => {
      dropped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // MariaDB's DROP waits for the snapshot's open transaction; SQLite's files go at once.
    expect(dropped).toBe(engine === "sqlite");
    controller.abort();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("DROP DATABASE still waits 10 s after the snapshot stopped")), 10_000);
    });
    await Promise.race([drop, late]).finally(() => clearTimeout(timer));
    expect(dropped).toBe(true);
    await snapshot.close();
    expect((await h.request("DELETE", `/api/v1/databases/${db}`)).status).toBe(204);
  });
});

// Resumable uploads (tus 1.0) at /v1/{db}/_uploads over real HTTP: create, resume, inspect, end; who may (keys
// that may write, JWT users of the database) and who may not (no credential, a viewer's key, another caller, a
// token of another database); taking a finished upload once; expiry after the TTL. The 200 MB case is in
// tus-large-upload.test.ts (a server process of its own).
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { uploadsOf } from "@/lib/files/tus";
import { createDatabase, MATRIX, useHarness } from "../contract/contract-helpers";
import { enableAuth, login } from "../security/security-fixture";
import { addMember, newAccount } from "../teams/team-fixture";
import type { Harness } from "../helpers/harness";

const TUS = { "tus-resumable": "1.0.0" };
const b64 = (text: string) => Buffer.from(text).toString("base64");

/** One tus request, through the harness's adapter: real sockets for "node", the route handler for "route". */
const tus = async (h: Harness, method: string, url: string, headers: Record<string, string>, body?: Buffer) => {
  const init: RequestInit = { method, headers: { ...TUS, ...headers }, body: body && new Uint8Array(body) };
  if (h.adapter === "node") return fetch(`${h.baseUrl}${url}`, init);
  const route = await import("@/app/v1/[db]/[[...path]]/route");
  return (route as unknown as Record<string, (r: Request) => Promise<Response>>)[method](new Request(`http://localhost${url}`, init));
};
const keyHeaders = (key: string) => ({ "x-api-key": key });
const bearerHeaders = (token: string) => ({ authorization: `Bearer ${token}` });

const create = async (h: Harness, db: string, length: number, auth: Record<string, string>) => {
  const res = await tus(h, "POST", `/v1/${db}/_uploads`, { ...auth, "upload-length": String(length), "upload-metadata": `filename ${b64("report.pdf")},filetype ${b64("application/pdf")}` });
  return { res, id: res.headers.get("location")?.split("/").pop() ?? "" };
};

describe.each(MATRIX)("tus uploads ($engine, $adapter)", (target) => {
  const ctx = useHarness(target);
  let db = "";
  let other = "";
  let userToken = "";
  let otherToken = "";
  beforeAll(async () => {
    const { h } = ctx;
    db = await createDatabase(h, "uploads", [{ name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] }]);
    other = await createDatabase(h, "other", [{ name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] }]);
    for (const d of [db, other]) {
      await enableAuth(h, d);
      expect((await h.request("POST", `/v1/${d}/users`, { body: { email: "u@example.com", password: "user-password-1" } })).status).toBe(201);
    }
    userToken = await login(h, db, "u@example.com", "user-password-1");
    otherToken = await login(h, other, "u@example.com", "user-password-1");
  });

  it("creates, resumes in two PATCHes, reports the offset, and hands the file over once", async () => {
    const { h } = ctx;
    const bytes = randomBytes(300_000);
    const { res, id } = await create(h, db, bytes.length, keyHeaders(h.accountKey));
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`/v1/${db}/_uploads/${id}`);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const first = await tus(h, "PATCH", `/v1/${db}/_uploads/${id}`, { ...keyHeaders(h.accountKey), "content-type": "application/offset+octet-stream", "upload-offset": "0" }, bytes.subarray(0, 100_000));
    expect(first.status).toBe(204);
    expect(first.headers.get("upload-offset")).toBe("100000");
    const head = await tus(h, "HEAD", `/v1/${db}/_uploads/${id}`, keyHeaders(h.accountKey));
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-offset")).toBe("100000");
    expect(head.headers.get("upload-length")).toBe("300000");
    const notYet = await uploadsOf(h.app.config).takeUpload(db, id).catch((e) => e);
    expect(notYet).toMatchObject({ status: 422, errors: [{ field: "upload", code: "invalid_upload", message: `Upload ${id} is not finished: 100000 of 300000 bytes arrived.` }] });
    const rest = await tus(h, "PATCH", `/v1/${db}/_uploads/${id}`, { ...keyHeaders(h.accountKey), "content-type": "application/offset+octet-stream", "upload-offset": "100000" }, bytes.subarray(100_000));
    expect(rest.status).toBe(204);
    expect(rest.headers.get("upload-offset")).toBe("300000");

    await expect(uploadsOf(h.app.config).takeUpload(other, id)).rejects.toMatchObject({ status: 422 });
    const taken = await uploadsOf(h.app.config).takeUpload(db, id);
    expect(taken).toMatchObject({ size: 300_000, name: "report.pdf", type: "application/pdf" });
    const hash = createHash("sha256");
    for await (const chunk of taken.body) hash.update(chunk as Buffer);
    expect(hash.digest("hex")).toBe(createHash("sha256").update(bytes).digest("hex"));
    await expect(uploadsOf(h.app.config).takeUpload(db, id)).rejects.toMatchObject({ status: 422, message: expect.stringContaining("already being attached") });
    await taken.remove();
    await expect(uploadsOf(h.app.config).takeUpload(db, id)).rejects.toMatchObject({ status: 422 });
    expect((await tus(h, "HEAD", `/v1/${db}/_uploads/${id}`, keyHeaders(h.accountKey))).status).toBe(404);
  });

  it("should allow a JWT user of the database, and end the upload with DELETE", async () => {
    const { h } = ctx;
    const { res, id } = await create(h, db, 10, bearerHeaders(userToken));
    expect(res.status).toBe(201);
    expect((await tus(h, "DELETE", `/v1/${db}/_uploads/${id}`, bearerHeaders(userToken))).status).toBe(204);
    expect((await tus(h, "HEAD", `/v1/${db}/_uploads/${id}`, bearerHeaders(userToken))).status).toBe(404);
  });

  it("should block a JWT user of another database, and no credential at all", async () => {
    const { h } = ctx;
    const foreign = await create(h, db, 10, bearerHeaders(otherToken));
    expect(foreign.res.status).toBe(401);
    expect(await foreign.res.json()).toMatchObject({ error: "unauthorized" });
    const none = await create(h, db, 10, {});
    expect(none.res.status).toBe(401);
  });

  it("should block another caller from resuming or inspecting an upload (404), and allow its maker", async () => {
    const { h } = ctx;
    const { id } = await create(h, db, 10, bearerHeaders(userToken));
    for (const method of ["HEAD", "DELETE"]) expect((await tus(h, method, `/v1/${db}/_uploads/${id}`, keyHeaders(h.accountKey))).status).toBe(404);
    const patch = await tus(h, "PATCH", `/v1/${db}/_uploads/${id}`, { ...keyHeaders(h.accountKey), "content-type": "application/offset+octet-stream", "upload-offset": "0" }, Buffer.alloc(10));
    expect(patch.status).toBe(404);
    expect((await tus(h, "HEAD", `/v1/${other}/_uploads/${id}`, bearerHeaders(otherToken))).status).toBe(404);
    expect((await tus(h, "HEAD", `/v1/${db}/_uploads/${id}`, bearerHeaders(userToken))).headers.get("upload-offset")).toBe("0");
  });

  it("should block a viewer's key (403) and allow an editor's", async () => {
    const { h } = ctx;
    const owner = await newAccount(h, "pro");
    const owned = await createDatabase(h, "team", [], owner.key);
    const viewer = await addMember(h, owner, "viewer");
    const refused = await create(h, owned, 10, keyHeaders(viewer.key));
    expect(refused.res.status).toBe(403);
    expect(await refused.res.json()).toMatchObject({ error: "forbidden", message: "This key's account is a viewer of this database: it may read, not upload." });
    const editor = await addMember(h, owner, "editor");
    expect((await create(h, owned, 10, keyHeaders(editor.key))).res.status).toBe(201);
  });

  it("refuses GET (405), an unknown database (404), and a length past the limit (413)", async () => {
    const { h } = ctx;
    const get = await tus(h, "GET", `/v1/${db}/_uploads/${"a".repeat(32)}`, keyHeaders(h.accountKey));
    expect(get.status).toBe(405);
    expect((await create(h, "nosuchdb", 10, keyHeaders(h.accountKey))).res.status).toBe(404);
    expect((await create(h, db, 6 * 1024 ** 3, keyHeaders(h.accountKey))).res.status).toBe(413);
  });

  it("expires uploads older than the TTL, finished or not, and keeps younger ones", async () => {
    const { h } = ctx;
    const uploads = uploadsOf(h.app.config);
    const { id } = await create(h, db, 4, keyHeaders(h.accountKey));
    await tus(h, "PATCH", `/v1/${db}/_uploads/${id}`, { ...keyHeaders(h.accountKey), "content-type": "application/offset+octet-stream", "upload-offset": "0" }, Buffer.from("done"));
    const { id: open } = await create(h, db, 100, keyHeaders(h.accountKey));
    expect(await uploads.expireUploads(new Date(Date.now() + 60_000))).toBe(0);
    expect(await uploads.expireUploads(new Date(Date.now() + 25 * 3600_000))).toBeGreaterThanOrEqual(2);
    for (const gone of [id, open]) expect((await tus(h, "HEAD", `/v1/${db}/_uploads/${gone}`, keyHeaders(h.accountKey))).status).toBe(404);
    expect(fs.readdirSync(path.join(h.app.config.dataDir, "uploads")).filter((n) => n.startsWith(id) || n.startsWith(open))).toEqual([]);
  });
});

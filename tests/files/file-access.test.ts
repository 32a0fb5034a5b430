// Who may download a file: the row's read rules, in pairs. A secret key reads every row's files; a JWT user
// only those of rows the select policy shows (a hidden row is 404, a table without a select policy 403); a
// file token stands for its user for two minutes in this database only; a `public` column needs nothing.
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { createDatabase, useHarness } from "../contract/contract-helpers";
import { enableAuth, login, putPolicies } from "../security/security-fixture";
import { download, pngBytes, upload } from "./files-helpers";

describe.each(ENGINES.map((engine) => ({ engine, adapter: "node" as const })))("file downloads under the row's read rules on $engine", (target) => {
  const ctx = useHarness(target);
  let db: string;
  let other: string;
  let tokenA: string;
  let tokenB: string;
  let rowA: any;
  let rowB: any;
  let secret: Uint8Array;

  beforeAll(async () => {
    const tables = [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
      {
        name: "albums",
        columns: [
          { name: "title", type: "varchar" },
          { name: "owner_id", type: "bigint", default: "auth.id" },
          { name: "cover", type: "file" },
          { name: "banner", type: "file", public: true },
        ],
      },
      { name: "closed", columns: [{ name: "doc", type: "file" }] },
    ];
    db = await createDatabase(ctx.h, `file access ${target.engine}`, tables);
    other = await createDatabase(ctx.h, `file access other ${target.engine}`, tables);
    for (const d of [db, other]) {
      await enableAuth(ctx.h, d);
      await putPolicies(ctx.h, d, "albums", { select: "owner_id = auth.id", insert: "owner_id = auth.id", update: "owner_id = auth.id" });
      for (const email of ["a@example.com", "b@example.com"]) {
        const made = await ctx.h.request("POST", `/v1/${d}/users`, { body: { email, password: "pass-word-1" } });
        expect(made.status, made.text).toBe(201);
      }
    }
    tokenA = await login(ctx.h, db, "a@example.com", "pass-word-1");
    tokenB = await login(ctx.h, db, "b@example.com", "pass-word-1");
    const a = await upload(ctx.h, "POST", `/v1/${db}/albums`, [{ name: "title", value: "A's" }, { name: "cover", bytes: pngBytes(300), filename: "a.png" }, { name: "banner", bytes: pngBytes(301), filename: "ban.png" }], { token: tokenA });
    const b = await upload(ctx.h, "POST", `/v1/${db}/albums`, [{ name: "title", value: "B's" }, { name: "cover", bytes: pngBytes(400), filename: "b.png" }], { token: tokenB });
    expect(a.status, a.text).toBe(201);
    expect(b.status, b.text).toBe(201);
    [rowA, rowB] = [a.body, b.body];
    const row = await ctx.h.app.engine.meta.selectFrom("databases").select("id").where("instance", "=", db).executeTakeFirstOrThrow();
    secret = (await (await import("../../lib/meta/load-schema")).loadDatabase(ctx.h.app, db))!.auth!.secret;
    expect(row.id).toBeGreaterThan(0);
  });

  const fileToken = async (token: string, database = db) => {
    const reply = await ctx.h.request("POST", `/v1/${database}/auth/file-token`, { headers: { authorization: `Bearer ${token}` }, key: null });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.expires_in).toBe(120);
    return reply.body.token as string;
  };

  it("should allow the secret key every row's files", async () => {
    expect((await download(ctx.h, rowA.cover.url)).status).toBe(200);
    expect((await download(ctx.h, rowB.cover.url)).bytes.length).toBe(400);
  });

  it("should allow a JWT user the files of a row the select policy shows, and block (404) a hidden row's", async () => {
    expect((await download(ctx.h, rowA.cover.url, { token: tokenA })).status).toBe(200);
    expect((await download(ctx.h, rowB.cover.url, { token: tokenA })).status).toBe(404);
    expect((await download(ctx.h, rowB.cover.url, { token: tokenB })).status).toBe(200);
  });

  it("should block a request without credentials on a column that is not public (401), and allow a public one", async () => {
    expect((await download(ctx.h, rowA.cover.url, { key: null })).status).toBe(401);
    const banner = await download(ctx.h, rowA.banner.url, { key: null });
    expect(banner.status).toBe(200);
    expect(banner.bytes.length).toBe(301);
  });

  it("should allow a file token for its user's rows, and block it on another user's row (404)", async () => {
    const token = await fileToken(tokenA);
    expect((await download(ctx.h, `${rowA.cover.url}?token=${token}`, { key: null })).status).toBe(200);
    expect((await download(ctx.h, `${rowB.cover.url}?token=${token}`, { key: null })).status).toBe(404);
  });

  it("should block an expired file token (401), one of another database (401), and a file token used as a bearer token (401)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ db, role: "file" }).setProtectedHeader({ alg: "HS256" }).setSubject(String(rowA.owner_id)).setIssuedAt(now - 300).setExpirationTime(now - 180).sign(secret);
    expect((await download(ctx.h, `${rowA.cover.url}?token=${expired}`, { key: null })).status).toBe(401);
    const elsewhere = await fileToken(await login(ctx.h, other, "a@example.com", "pass-word-1"), other);
    expect((await download(ctx.h, `${rowA.cover.url}?token=${elsewhere}`, { key: null })).status).toBe(401);
    const token = await fileToken(tokenA);
    expect((await ctx.h.request("GET", `/v1/${db}/albums`, { headers: { authorization: `Bearer ${token}` }, key: null })).status).toBe(401);
  });

  it("answers a browser's preflight of the file-token route with POST", async () => {
    const reply = await ctx.h.request("OPTIONS", `/v1/${db}/auth/file-token`, { key: null });
    expect(reply.status).toBe(204);
    expect(reply.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("should refuse a file token to a secret key (403)", async () => {
    const reply = await ctx.h.request("POST", `/v1/${db}/auth/file-token`);
    expect(reply.status).toBe(403);
  });

  it("answers 404 for a name the row does not hold, another column's name, or a path trick", async () => {
    const name = rowA.cover.name;
    for (const path of [
      `/v1/${db}/albums/${rowA.id}/cover/other_aaaaaaaa.png`,
      `/v1/${db}/albums/${rowA.id}/banner/${name}`,
      `/v1/${db}/albums/${rowB.id}/cover/${name}`,
      `/v1/${db}/albums/${rowA.id}/title/${name}`,
      `/v1/${db}/albums/${rowA.id}/cover/..%2F..%2Fetc`,
    ]) expect((await download(ctx.h, path)).status, path).toBe(404);
  });

  it("should block a JWT user on a table without a select policy (403)", async () => {
    const made = await upload(ctx.h, "POST", `/v1/${db}/closed`, [{ name: "doc", bytes: pngBytes(), filename: "d.png" }]);
    expect(made.status, made.text).toBe(201);
    expect((await download(ctx.h, made.body.doc.url)).status).toBe(200);
    expect((await download(ctx.h, made.body.doc.url, { token: tokenA })).status).toBe(403);
  });

  it("refuses a thumb size the column does not list (422)", async () => {
    const reply = await download(ctx.h, `${rowA.cover.url}?thumb=100x100`);
    expect(reply.status).toBe(422);
  });
});

// Secret keys (spec §5, §7; PRODUCT "Secret keys", "Status codes", "Details"): every endpoint refuses a
// request without a valid key (401 + WWW-Authenticate), keys scoped to one database, other accounts' keys,
// regenerate and revoke taking effect at once. Security cases come in "should block" / "should allow" pairs.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { RequestOptions } from "../helpers/harness";
import { createDatabase, expect401, expectError, insert, MATRIX, useHarness } from "./contract-helpers";

const TABLES = [{ name: "notes", columns: [{ name: "text", type: "varchar", nullable: false }] }];

type KeyView = { id: number; name: string; key: string; database: string | null };

describe.each(MATRIX)("secret keys on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let a = ""; // two databases of the harness account
  let b = "";
  let c = ""; // a database of another account
  let noteId = 0;
  let otherKey = "";
  let scoped: KeyView; // limited to database a
  let oldKey = ""; // the secret a regenerate replaced
  let regenerated: KeyView;
  let revoked: KeyView;

  const createKey = async (body: Record<string, unknown>): Promise<KeyView> => {
    const reply = await ctx.h.request("POST", "/api/v1/keys", { body });
    expect(reply.status, reply.text).toBe(201);
    return reply.body;
  };

  beforeAll(async () => {
    a = await createDatabase(ctx.h, "Keys A", TABLES);
    b = await createDatabase(ctx.h, "Keys B", TABLES);
    noteId = (await insert(ctx.h, `/v1/${a}/notes`, { text: "original" })).id;
    await insert(ctx.h, `/v1/${b}/notes`, { text: "in b" });
    const other = await ctx.h.createAccount();
    otherKey = other.key;
    c = await createDatabase(ctx.h, "Keys C", TABLES, otherKey);
    await ctx.h.request("POST", `/v1/${c}/notes`, { body: { text: "in c" }, key: otherKey });

    scoped = await createKey({ name: "scoped to a", database: a });
    // Both keys are used once first, so a cached lookup has to be dropped when they change.
    const toRegenerate = await createKey({ name: "to regenerate" });
    oldKey = toRegenerate.key;
    expect((await ctx.h.request("GET", `/v1/${a}/notes`, { key: oldKey })).status).toBe(200);
    const regen = await ctx.h.request("POST", `/api/v1/keys/${toRegenerate.id}/regenerate`);
    expect(regen.status, regen.text).toBe(200);
    regenerated = regen.body;
    revoked = await createKey({ name: "to revoke" });
    expect((await ctx.h.request("GET", `/v1/${a}/notes`, { key: revoked.key })).status).toBe(200);
    const revoke = await ctx.h.request("DELETE", `/api/v1/keys/${revoked.id}`);
    expect(revoke.status, revoke.text).toBe(204);
  });

  const wrongKey = () => `sk_${randomBytes(32).toString("base64url")}`;

  const BLOCKED: [string, () => RequestOptions][] = [
    ["no key", () => ({ key: null })],
    ["a wrong key", () => ({ key: wrongKey() })],
    ["a value that is not a key", () => ({ key: "hello" })],
    ["a regenerated (old) key", () => ({ key: oldKey })],
    ["a revoked key", () => ({ key: revoked.key })],
    ["a wrong key as Bearer", () => ({ headers: { authorization: `Bearer ${wrongKey()}` } })],
    ["a revoked key as Bearer", () => ({ headers: { authorization: `Bearer ${revoked.key}` } })],
    ["an Authorization header that is not Bearer", () => ({ headers: { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` } })],
  ];

  const ENDPOINTS: [string, string, () => string, unknown?][] = [
    ["GET /v1/{db}/{table}", "GET", () => `/v1/${a}/notes`],
    ["POST /v1/{db}/{table}", "POST", () => `/v1/${a}/notes`, { text: "intruder" }],
    ["GET /v1/{db}/{table}/{id}", "GET", () => `/v1/${a}/notes/${noteId}`],
    ["PUT /v1/{db}/{table}/{id}", "PUT", () => `/v1/${a}/notes/${noteId}`, { text: "intruder" }],
    ["PATCH /v1/{db}/{table}/{id}", "PATCH", () => `/v1/${a}/notes/${noteId}`, { text: "intruder" }],
    ["DELETE /v1/{db}/{table}/{id}", "DELETE", () => `/v1/${a}/notes/${noteId}`],
    ["GET /v1/{db}/openapi.json", "GET", () => `/v1/${a}/openapi.json`],
    ["GET /api/v1/databases", "GET", () => "/api/v1/databases"],
    ["POST /api/v1/databases", "POST", () => "/api/v1/databases", { name: "Intruder" }],
    ["GET /api/v1/databases/{db}", "GET", () => `/api/v1/databases/${a}`],
    ["PATCH /api/v1/databases/{db}", "PATCH", () => `/api/v1/databases/${a}`, { name: "Hijacked" }],
    ["DELETE /api/v1/databases/{db}", "DELETE", () => `/api/v1/databases/${a}`],
    ["GET /api/v1/databases/{db}/tables", "GET", () => `/api/v1/databases/${a}/tables`],
    ["POST /api/v1/databases/{db}/tables", "POST", () => `/api/v1/databases/${a}/tables`, { name: "intruders", columns: [] }],
    ["POST /api/v1/databases/{db}/tables/{table}/columns", "POST", () => `/api/v1/databases/${a}/tables/notes/columns`, { name: "intruder", type: "int" }],
    ["DELETE /api/v1/databases/{db}/tables/{table}", "DELETE", () => `/api/v1/databases/${a}/tables/notes`],
    ["GET /api/v1/keys", "GET", () => "/api/v1/keys"],
    ["POST /api/v1/keys", "POST", () => "/api/v1/keys", { name: "intruder" }],
    ["POST /api/v1/keys/{id}/regenerate", "POST", () => `/api/v1/keys/${scoped.id}/regenerate`],
    ["DELETE /api/v1/keys/{id}", "DELETE", () => `/api/v1/keys/${scoped.id}`],
  ];

  describe("should block", () => {
    describe.each(BLOCKED)("with %s", (_state, options) => {
      it.each(ENDPOINTS)("%s → 401 with WWW-Authenticate", async (_label, method, path, body) => {
        expect401(await ctx.h.request(method, path(), { ...options(), body }));
      });
    });

    it("left everything as it was: the refused requests changed nothing", async () => {
      const note = await ctx.h.request("GET", `/v1/${a}/notes/${noteId}`);
      expect(note.status).toBe(200);
      expect(note.body.text).toBe("original");
      expect((await ctx.h.request("GET", `/v1/${a}/notes?text=intruder`)).body).toEqual([]);
      expect((await ctx.h.request("GET", `/api/v1/databases/${a}`)).body.name).toBe("Keys A");
      const databases = (await ctx.h.request("GET", "/api/v1/databases")).body;
      expect(databases.map((d: { name: string }) => d.name)).not.toContain("Intruder");
      const keys = (await ctx.h.request("GET", "/api/v1/keys")).body as KeyView[];
      expect(keys.map((k) => k.name)).not.toContain("intruder");
      expect(keys.find((k) => k.id === scoped.id)?.key).toBe(scoped.key);
      const tables = (await ctx.h.request("GET", `/api/v1/databases/${a}/tables`)).body;
      expect(tables.map((t: { name: string }) => t.name)).toEqual(["notes"]);
      expect(Object.keys(note.body)).not.toContain("intruder");
    });

    it.each([
      ["a wrong table", () => `/v1/${a}/nosuchtable`],
      ["a wrong id", () => `/v1/${a}/notes/99999999`],
      ["an unknown database", () => "/v1/nosuchdb_q1w2e3/notes"],
    ])("answers 401, not 404, to a request without a key on %s", async (_label, path) => {
      expect401(await ctx.h.request("GET", path(), { key: null }));
    });

    it("answers 401, not 422, to a request without a key and with a bad body", async () => {
      expect401(await ctx.h.request("POST", `/v1/${a}/notes`, { key: null, body: { text: 42, nosuch: 1 } }));
    });

    it.each([
      ["a wrong key", () => wrongKey()],
      ["a revoked key", () => revoked.key],
      ["a regenerated (old) key", () => oldKey],
      ["a key scoped to another database", () => scoped.key],
    ])("answers 401 to %s on an unknown database (never revealing whether it exists)", async (_label, key) => {
      expect401(await ctx.h.request("GET", "/v1/nosuchdb_q1w2e3/notes", { key: key() }));
    });

    it.each([
      ["GET /{table}", "GET", (db: string) => `/v1/${db}/notes`, undefined],
      ["POST /{table}", "POST", (db: string) => `/v1/${db}/notes`, { text: "cross" }],
      ["GET /openapi.json", "GET", (db: string) => `/v1/${db}/openapi.json`, undefined],
    ])("refuses a database-scoped key on another database of the same account: %s → 401", async (_label, method, path, body) => {
      expect401(await ctx.h.request(method, path(b), { key: scoped.key, body }));
    });

    it.each([
      ["GET /{table}", "GET", (db: string) => `/v1/${db}/notes`, undefined],
      ["POST /{table}", "POST", (db: string) => `/v1/${db}/notes`, { text: "cross" }],
      ["DELETE /{table}/{id}", "DELETE", (db: string, id: number) => `/v1/${db}/notes/${id}`, undefined],
    ])("refuses another account's key on this account's database: %s → 401", async (_label, method, path, body) => {
      expect401(await ctx.h.request(method, path(a, noteId), { key: otherKey, body }));
      expect((await ctx.h.request("GET", `/v1/${a}/notes/${noteId}`)).status).toBe(200);
    });

    it("refuses this account's key on another account's database with 401", async () => {
      expect401(await ctx.h.request("GET", `/v1/${c}/notes`));
    });

    it.each([
      ["GET", () => `/api/v1/databases/${a}`, undefined],
      ["PATCH", () => `/api/v1/databases/${a}`, { name: "Taken over" }],
      ["DELETE", () => `/api/v1/databases/${a}`, undefined],
      ["POST", () => `/api/v1/keys/${scoped.id}/regenerate`, undefined],
      ["DELETE", () => `/api/v1/keys/${scoped.id}`, undefined],
    ])("hides this account's resources from another account in the management API: %s → 404", async (method, path, body) => {
      expectError(await ctx.h.request(method, path(), { key: otherKey, body }), 404, "not_found");
    });

    it.each([
      ["GET", "/api/v1/databases", undefined],
      ["POST", "/api/v1/databases", { name: "From a scoped key" }],
      ["GET", "/api/v1/keys", undefined],
      ["POST", "/api/v1/keys", { name: "from a scoped key" }],
      ["GET", "/api/v1/settings", undefined],
    ])("refuses a database-scoped key on the account-wide route %s %s with 403", async (method, path, body) => {
      expectError(await ctx.h.request(method, path, { key: scoped.key, body }), 403, "forbidden");
    });

    it("refuses a database-scoped key on another database of its account with 403, and on an unknown one with 404", async () => {
      expectError(await ctx.h.request("GET", `/api/v1/databases/${b}/tables`, { key: scoped.key }), 403, "forbidden");
      expectError(await ctx.h.request("DELETE", `/api/v1/databases/${b}`, { key: scoped.key }), 403, "forbidden");
      expectError(await ctx.h.request("GET", "/api/v1/databases/nosuchdb_q1w2e3/tables", { key: scoped.key }), 404, "not_found");
      expectError(await ctx.h.request("GET", `/api/v1/databases/${c}`, { key: scoped.key }), 404, "not_found");
      expect((await ctx.h.request("GET", `/api/v1/databases/${b}`)).status).toBe(200);
    });

    it("does not list another account's databases or keys", async () => {
      const databases = (await ctx.h.request("GET", "/api/v1/databases", { key: otherKey })).body;
      expect(databases.map((d: { instance: string }) => d.instance)).toEqual([c]);
      const keys = (await ctx.h.request("GET", "/api/v1/keys", { key: otherKey })).body as KeyView[];
      expect(keys.map((k) => k.key)).toEqual([otherKey]);
    });
  });

  describe("should allow", () => {
    it.each([
      ["x-api-key", (key: string): RequestOptions => ({ key })],
      ["Authorization: Bearer", (key: string): RequestOptions => ({ headers: { authorization: `Bearer ${key}` } })],
    ])("the account key in %s on the data and management APIs", async (_label, send) => {
      const key = ctx.h.accountKey;
      const listed = await ctx.h.request("GET", `/v1/${a}/notes`, send(key));
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.map((n: { id: number }) => n.id)).toContain(noteId);
      const created = await ctx.h.request("POST", `/v1/${b}/notes`, { ...send(key), body: { text: "via header" } });
      expect(created.status, created.text).toBe(201);
      expect((await ctx.h.request("GET", `/v1/${a}/openapi.json`, send(key))).status).toBe(200);
      const databases = await ctx.h.request("GET", "/api/v1/databases", send(key));
      expect(databases.status).toBe(200);
      expect(databases.body.map((d: { instance: string }) => d.instance)).toEqual(expect.arrayContaining([a, b]));
    });

    it("a database-scoped key on its own database, for every verb", async () => {
      const key = scoped.key;
      const created = await ctx.h.request("POST", `/v1/${a}/notes`, { key, body: { text: "scoped" } });
      expect(created.status, created.text).toBe(201);
      const path = `/v1/${a}/notes/${created.body.id}`;
      expect((await ctx.h.request("GET", `/v1/${a}/notes`, { key })).status).toBe(200);
      expect((await ctx.h.request("GET", path, { key })).status).toBe(200);
      expect((await ctx.h.request("PUT", path, { key, body: { text: "scoped 2" } })).status).toBe(200);
      expect((await ctx.h.request("PATCH", path, { key, body: { text: "scoped 3" } })).status).toBe(200);
      expect((await ctx.h.request("DELETE", path, { key })).status).toBe(204);
      expect((await ctx.h.request("GET", `/v1/${a}/openapi.json`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    });

    it("a database-scoped key manages its own database through the management API (tables, columns, joins, policies, auth)", async () => {
      const key = scoped.key;
      const db = `/api/v1/databases/${a}`;
      const expectStatus = async (method: string, path: string, status: number, body?: unknown) => {
        const reply = await ctx.h.request(method, path, { key, body });
        expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(status);
        return reply.body;
      };
      expect((await expectStatus("GET", db, 200)).instance).toBe(a);
      await expectStatus("GET", `${db}/tables`, 200);
      await expectStatus("POST", `${db}/tables`, 201, { name: "scoped_table", columns: [{ name: "n", type: "int" }] });
      await expectStatus("POST", `${db}/tables/scoped_table/columns`, 201, { name: "m", type: "varchar" });
      await expectStatus("PATCH", `${db}/tables/scoped_table/columns/m`, 200, { name: "label" });
      await expectStatus("POST", `${db}/joins/preview`, 200, { base: "notes", joins: [{ table: "scoped_table", on: [["notes.id", "scoped_table.n"]] }], columns: [{ column: "notes.text" }] });
      await expectStatus("PUT", `${db}/tables/scoped_table/policies`, 200, { select: "true" });
      await expectStatus("GET", `${db}/auth`, 200);
      await expectStatus("DELETE", `${db}/tables/scoped_table/columns/label`, 204);
      await expectStatus("DELETE", `${db}/tables/scoped_table`, 204);
    });

    it("the other account's key on its own database", async () => {
      const reply = await ctx.h.request("GET", `/v1/${c}/notes`, { key: otherKey });
      expect(reply.status).toBe(200);
      expect(reply.body.map((n: { text: string }) => n.text)).toEqual(["in c"]);
    });

    it("a valid account key learns that an unknown database does not exist: 404", async () => {
      expectError(await ctx.h.request("GET", "/v1/nosuchdb_q1w2e3/notes"), 404, "not_found");
    });
  });

  describe("key management", () => {
    it("creates a key: 201 with {id, name, key, database}", async () => {
      const reply = await ctx.h.request("POST", "/api/v1/keys", { body: { name: "created", database: a } });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ id: expect.any(Number), name: "created", key: expect.stringMatching(/^sk_[A-Za-z0-9_-]{40,}$/), database: a });
      const accountWide = await ctx.h.request("POST", "/api/v1/keys", { body: { name: "account wide" } });
      expect(accountWide.status).toBe(201);
      expect(accountWide.body.database).toBeNull();
      expect(accountWide.body.key).not.toBe(reply.body.key);
      expect((await ctx.h.request("GET", `/v1/${b}/notes`, { key: accountWide.body.key })).status).toBe(200);
    });

    it("lists the account's keys as an array", async () => {
      const reply = await ctx.h.request("GET", "/api/v1/keys");
      expect(reply.status).toBe(200);
      expect(Array.isArray(reply.body)).toBe(true);
      const ids = reply.body.map((k: KeyView) => k.id);
      expect(ids).toEqual(expect.arrayContaining([scoped.id, regenerated.id]));
      expect(ids).not.toContain(revoked.id);
    });

    it("regenerate answers 200 with the same key record carrying a new key, which works", async () => {
      expect(regenerated).toMatchObject({ name: "to regenerate", database: null, key: expect.stringMatching(/^sk_/) });
      expect(regenerated.key).not.toBe(oldKey);
      expect((await ctx.h.request("GET", `/v1/${a}/notes`, { key: regenerated.key })).status).toBe(200);
      expect((await ctx.h.request("GET", "/api/v1/keys", { headers: { authorization: `Bearer ${regenerated.key}` } })).status).toBe(200);
    });

    it("revoke answers 204 with an empty body, and a second revoke is 404", async () => {
      const key = await createKey({ name: "short-lived" });
      expect((await ctx.h.request("GET", `/v1/${a}/notes`, { key: key.key })).status).toBe(200);
      const reply = await ctx.h.request("DELETE", `/api/v1/keys/${key.id}`);
      expect(reply.status).toBe(204);
      expect(reply.text).toBe("");
      expect401(await ctx.h.request("GET", `/v1/${a}/notes`, { key: key.key }));
      expectError(await ctx.h.request("DELETE", `/api/v1/keys/${key.id}`), 404, "not_found");
    });

    it("refuses a key for a database the account cannot reach with 404", async () => {
      expectError(await ctx.h.request("POST", "/api/v1/keys", { body: { name: "theirs", database: c } }), 404, "not_found");
    });

    it("refuses a bad key body with 422 naming the field", async () => {
      const reply = await ctx.h.request("POST", "/api/v1/keys", { body: { name: "", colour: "red" } });
      expectError(reply, 422, "validation_failed", ["name", "colour"]);
    });
  });
});

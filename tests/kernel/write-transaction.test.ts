// One transaction per write: a write that a policy refuses (403) or validation refuses (422) leaves the
// table exactly as it was, for single and bulk POST, PUT, PATCH and DELETE, on a table without references
// and on one whose owner column references a users table that JWT users cannot read (the owner pattern).
import { beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../helpers/harness";
import { createDatabase, expect422, expectError, MATRIX, useHarness } from "../contract/contract-helpers";
import { bearer, enableAuth, login, putPolicies } from "../security/security-fixture";

type Case = { table: string; owner: string };
// `items.owner` is a plain bigint; `notes.owner_id` references `users`, which has no policy (closed to users).
const CASES: Case[] = [
  { table: "items", owner: "owner" },
  { table: "notes", owner: "owner_id" },
];

/** Every row of a table with every column, read with the account key: the table's state, to compare. */
const snapshot = async (h: Harness, db: string, table: string) => {
  const reply = await h.request("GET", `/v1/${db}/${table}?_limit=1000`);
  expect(reply.status, reply.text).toBe(200);
  return reply.text;
};

describe.each(MATRIX)("write transaction ($engine, $adapter)", (target) => {
  const ctx = useHarness(target);
  let db = "";
  let a = { id: 0, token: "" };
  let b = { id: 0, token: "" };
  const rows: Record<string, { mine: number; theirs: number }> = {};

  beforeAll(async () => {
    const { h } = ctx;
    db = await createDatabase(h, "kernel", [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
      { name: "items", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "owner", type: "bigint" }] },
      { name: "notes", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "owner_id", type: "reference", references: "users" }] },
    ]);
    await enableAuth(h, db);
    const users = await h.request("POST", `/v1/${db}/users`, {
      body: [{ email: "a@example.com", password: "alpha-password-1" }, { email: "b@example.com", password: "bravo-password-2" }],
    });
    expect(users.status, users.text).toBe(201);
    a = { id: users.body[0].id, token: await login(h, db, "a@example.com", "alpha-password-1") };
    b = { id: users.body[1].id, token: await login(h, db, "b@example.com", "bravo-password-2") };
    for (const { table, owner } of CASES) {
      const own = `${owner} = auth.id`;
      await putPolicies(h, db, table, { select: "true", insert: own, update: own, delete: own });
      const seeded = await h.request("POST", `/v1/${db}/${table}`, { body: [{ title: "a's", [owner]: a.id }, { title: "b's", [owner]: b.id }] });
      expect(seeded.status, seeded.text).toBe(201);
      rows[table] = { mine: seeded.body[0].id, theirs: seeded.body[1].id };
    }
  });

  describe.each(CASES)("on $table", ({ table, owner }) => {
    const path = () => `/v1/${db}/${table}`;
    const asA = () => bearer(a.token);

    /** Runs a refused request and checks both the error and that the table did not change at all. */
    const expectRefusedAndUnchanged = async (method: string, url: string, body: unknown, status: number, code: string) => {
      const before = await snapshot(ctx.h, db, table);
      const reply = await ctx.h.request(method, url, { body, ...asA() });
      expectError(reply, status, code);
      if (status === 403) expect(reply.body.message).toMatch(new RegExp(`policy on table "${table}"`));
      expect(await snapshot(ctx.h, db, table)).toBe(before);
    };

    it("should block a single POST whose owner is someone else, writing nothing", async () => {
      await expectRefusedAndUnchanged("POST", path(), { title: "x", [owner]: b.id }, 403, "forbidden");
    });

    it("should block a bulk POST with one foreign row, writing none of the rows", async () => {
      await expectRefusedAndUnchanged("POST", path(), [{ title: "ok", [owner]: a.id }, { title: "x", [owner]: b.id }], 403, "forbidden");
    });

    it("should block a PATCH that hands the row to someone else, changing nothing", async () => {
      await expectRefusedAndUnchanged("PATCH", `${path()}/${rows[table].mine}`, { [owner]: b.id }, 403, "forbidden");
    });

    it("should block a PUT that hands the row to someone else, changing nothing", async () => {
      await expectRefusedAndUnchanged("PUT", `${path()}/${rows[table].mine}`, { title: "moved", [owner]: b.id }, 403, "forbidden");
    });

    it("should block a DELETE of someone else's row, deleting nothing", async () => {
      await expectRefusedAndUnchanged("DELETE", `${path()}/${rows[table].theirs}`, undefined, 403, "forbidden");
    });

    it("should block a PATCH of someone else's row, changing nothing", async () => {
      await expectRefusedAndUnchanged("PATCH", `${path()}/${rows[table].theirs}`, { title: "mine now" }, 403, "forbidden");
    });

    it("should refuse a bulk POST whose last row is invalid, writing none", async () => {
      const before = await snapshot(ctx.h, db, table);
      const reply = await ctx.h.request("POST", path(), { body: [{ title: "ok", [owner]: a.id }, { title: null, [owner]: a.id }], ...asA() });
      expect422(reply, "[1].title");
      expect(await snapshot(ctx.h, db, table)).toBe(before);
    });

    it("should allow a single POST owned by the caller", async () => {
      const reply = await ctx.h.request("POST", path(), { body: { title: "own", [owner]: a.id }, ...asA() });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ title: "own", [owner]: a.id });
    });

    it("should allow a bulk POST owned by the caller", async () => {
      const reply = await ctx.h.request("POST", path(), { body: [{ title: "one", [owner]: a.id }, { title: "two", [owner]: a.id }], ...asA() });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.map((r: Record<string, unknown>) => r[owner])).toEqual([a.id, a.id]);
    });

    it("should allow PATCH and PUT of the caller's own row that keep it theirs", async () => {
      const patched = await ctx.h.request("PATCH", `${path()}/${rows[table].mine}`, { body: { title: "patched" }, ...asA() });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body.title).toBe("patched");
      const put = await ctx.h.request("PUT", `${path()}/${rows[table].mine}`, { body: { title: "replaced", [owner]: a.id }, ...asA() });
      expect(put.status, put.text).toBe(200);
      expect(put.body).toMatchObject({ title: "replaced", [owner]: a.id });
    });

    it("should allow DELETE of the caller's own row", async () => {
      const made = await ctx.h.request("POST", path(), { body: { title: "short-lived", [owner]: a.id }, ...asA() });
      expect(made.status, made.text).toBe(201);
      const reply = await ctx.h.request("DELETE", `${path()}/${made.body.id}`, asA());
      expect(reply.status, reply.text).toBe(204);
      expect((await ctx.h.request("GET", `${path()}/${made.body.id}`)).status).toBe(404);
    });
  });

  describe("reference checks with foreign-key semantics", () => {
    it("should allow a JWT user to reference a users row that no policy lets them read", async () => {
      const hidden = await ctx.h.request("GET", `/v1/${db}/users/${a.id}`, bearer(a.token));
      expectError(hidden, 403, "forbidden"); // users is closed to JWT users...
      const reply = await ctx.h.request("POST", `/v1/${db}/notes`, { body: { title: "mine", owner_id: a.id }, ...bearer(a.token) });
      expect(reply.status, reply.text).toBe(201); // ...yet the reference to it resolves
    });

    it("should refuse a reference to a row that does not exist, naming the column, writing nothing", async () => {
      const before = await snapshot(ctx.h, db, "notes");
      const reply = await ctx.h.request("POST", `/v1/${db}/notes`, { body: { title: "x", owner_id: 999_999 }, ...bearer(b.token) });
      expect422(reply, "owner_id");
      expect(reply.body.errors[0]).toEqual({ field: "owner_id", code: "reference_not_found", message: "no row 999999 in users" });
      expect(await snapshot(ctx.h, db, "notes")).toBe(before);
    });

    it("should refuse a bulk POST with one dangling reference, writing none, naming its row", async () => {
      const before = await snapshot(ctx.h, db, "notes");
      const reply = await ctx.h.request("POST", `/v1/${db}/notes`, { body: [{ title: "ok", owner_id: b.id }, { title: "x", owner_id: 999_999 }], ...bearer(b.token) });
      expect422(reply, "[1].owner_id");
      expect(await snapshot(ctx.h, db, "notes")).toBe(before);
    });
  });

  describe("sign-up writes through the same path", () => {
    it("should create the user, and refuse a duplicate login with 409 leaving the users table unchanged", async () => {
      const made = await ctx.h.request("POST", `/v1/${db}/auth/signup`, { body: { email: "c@example.com", password: "charlie-password-3" }, key: null });
      expect(made.status, made.text).toBe(201);
      expect(made.body.user).toMatchObject({ email: "c@example.com" });
      const before = await snapshot(ctx.h, db, "users");
      const again = await ctx.h.request("POST", `/v1/${db}/auth/signup`, { body: { email: "c@example.com", password: "charlie-password-3" }, key: null });
      expectError(again, 409, "conflict");
      expect(await snapshot(ctx.h, db, "users")).toBe(before);
    });
  });
});

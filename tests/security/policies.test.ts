// Policies: the parser refuses malformed text at save with a position; quote-laden literals stay data;
// schema changes keep policies and auth settings consistent.
import { beforeAll, describe, expect, it } from "vitest";
import { PolicyError, parsePolicy, renamePolicyColumn } from "../../lib/rls/parse-policy";
import type { ColumnType } from "../../lib/schema/types";
import { ENGINES } from "../helpers/harness";
import { expectError, useHarness } from "../contract/contract-helpers";
import { bearer, type Fixture, makeFixture, NOTE_POLICIES, putPolicies } from "./security-fixture";

const COLUMNS = new Map<string, ColumnType>([
  ["id", "bigint"],
  ["title", "varchar"],
  ["owner_id", "bigint"],
  ["public", "boolean"],
  ["password", "password"],
  ["publish_at", "datetime"],
  ["day", "date"],
  ["meta", "json"],
]);

// The end-user account settings every PUT without them takes.
const ACCOUNT_DEFAULTS = { email_column: null, verification: "off", redirect_urls: [], providers: [], mfa: "off", refresh_ttl_seconds: 2592000, emails: {} };

describe("policy parser", () => {
  const refused: [string, number, RegExp][] = [
    ["owner_id = ", 12, /expected a column/],
    ["nosuch = 1", 1, /unknown column "nosuch"/],
    ["owner_id = auth.id and lower(title) = 'x'", 24, /function calls are not allowed/],
    ["id in (select id from users)", 8, /expected a literal/],
    ["owner_id = auth.id; drop table notes", 19, /unexpected character ";"/],
    ["title = 'unterminated", 9, /unterminated string/],
    ["owner_id = auth.id or", 22, /expected a column/],
    ["(owner_id = 1", 14, /expected "\)"/],
    ["owner_id", 9, /expected a comparison/],
    ["password = 'x'", 1, /password column/],
    ["notes.owner_id = 1", 1, /only auth.<claim> may be qualified/],
    ["owner_id = 1 1", 14, /unexpected "1"/],
    ["", 1, /empty/],
    ["title = 'a' -- comment", 13, /unexpected character "-"|expected/],
    ["owner_id = 1e3", 13, /unexpected "e"/],
    ["publish_at <= 'tomorrow'", 15, /datetime column "publish_at" compares with a datetime in quotes/],
    ["publish_at > '2026-06-01T12:00:00.0001Z'", 14, /at most milliseconds/],
    ["day = '2026-06-01T00:00:00Z'", 7, /date column "day" compares with a date/],
    ["owner_id = 'abc'", 12, /bigint column "owner_id" compares with a number/],
    ["'x' < owner_id", 1, /bigint column "owner_id" compares with a number/],
    ["owner_id in (1, 'x')", 17, /compares with a number/],
    ["title = 5", 9, /varchar column "title" compares with a string in quotes/],
    ["public = 'yes'", 10, /boolean column "public" compares with true or false/],
    ["owner_id = title", 12, /columns "owner_id" \(bigint\) and "title" \(varchar\) cannot be compared/],
    ["meta = '{}'", 8, /json columns only compare with null/],
  ];
  it.each(refused)("refuses %j at position %i", (text, position, message) => {
    let error: unknown;
    try {
      parsePolicy(text, COLUMNS);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(PolicyError);
    expect((error as PolicyError).position).toBe(position);
    expect((error as PolicyError).message).toMatch(message);
    expect((error as PolicyError).message).toMatch(/^position \d+: /);
  });

  it.each([
    "true",
    "owner_id = auth.id",
    "public = true or owner_id = auth.id",
    "not (owner_id != auth.id) and id in (1, 2, 3)",
    "title = 'it\\'s' or title = \"say \\\"hi\\\"\"",
    "public",
    "owner_id >= 10 and owner_id <= 20 and owner_id <> 15 and auth.role = 'authenticated'",
    "publish_at <= '2026-06-01T12:00:00Z' and publish_at > '2026-06-01 00:00' and day >= '2026-06-01'",
    "meta = null or owner_id = '5' or title = auth.role or public = 1",
  ])("accepts %j", (text) => {
    expect(() => parsePolicy(text, COLUMNS)).not.toThrow();
  });

  it("renames a column in identifiers only, never inside strings or claims", () => {
    expect(renamePolicyColumn("owner_id = auth.owner_id or title = 'owner_id'", "owner_id", "author_id")).toBe(
      "author_id = auth.owner_id or title = 'owner_id'",
    );
  });
});

describe.each(ENGINES)("policies through the management API on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let f: Fixture;
  const path = () => `/api/v1/databases/${f.db}/tables/notes/policies`;

  beforeAll(async () => {
    f = await makeFixture(ctx.h, `policies ${engine}`);
  });

  it("GET returns every action, null where none", async () => {
    const r = await ctx.h.request("GET", `/api/v1/databases/${f.db}/tables/secrets/policies`);
    expect(r.body).toEqual({ select: null, insert: null, update: null, delete: null });
  });

  it("a malformed policy is refused at save with 422, the action and the position; nothing changes", async () => {
    await putPolicies(ctx.h, f.db, "notes", NOTE_POLICIES);
    const r = await ctx.h.request("PUT", path(), { body: { select: "owner_id = auth.id or sleep(5) = 0", delete: "nosuch = 1", bogus: "true" } });
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toBe("validation_failed");
    expect(r.body.errors).toEqual(
      expect.arrayContaining([
        { field: "select", code: "invalid_policy", message: expect.stringMatching(/^position 23: function calls/), position: 23 },
        { field: "delete", code: "invalid_policy", message: 'position 1: unknown column "nosuch"', position: 1 },
        { field: "bogus", code: "unknown_property", message: expect.any(String) },
      ]),
    );
    expect((await ctx.h.request("GET", path())).body.select).toBe("public = true or owner_id = auth.id");
  });

  it("quote-laden literals are data: a policy on a title full of SQL stays a comparison", async () => {
    const title = `Robert'); DROP TABLE notes;-- " \\ ' OR '1'='1`;
    const literal = `'${title.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
    await putPolicies(ctx.h, f.db, "notes", { select: `title = ${literal} or owner_id = auth.id`, insert: "owner_id = auth.id" });
    const made = await ctx.h.request("POST", `/v1/${f.db}/notes`, { body: { title, owner_id: f.userA.id } });
    expect(made.status, made.text).toBe(201);
    const seen = (await ctx.h.request("GET", `/v1/${f.db}/notes?_limit=1000`, bearer(f.userB.token))).body;
    expect(seen.filter((n: any) => n.owner_id !== f.userB.id).map((n: any) => n.title)).toEqual([title]);
    expect((await ctx.h.request("GET", `/v1/${f.db}/notes`)).status).toBe(200);
  });

  it("policies may compare against auth claims; an absent claim matches nothing", async () => {
    await putPolicies(ctx.h, f.db, "notes", { select: "auth.role = 'authenticated' and owner_id = auth.id" });
    expect((await ctx.h.request("GET", `/v1/${f.db}/notes`, bearer(f.userA.token))).body.length).toBeGreaterThan(0);
    await putPolicies(ctx.h, f.db, "notes", { select: "owner_id != auth.nosuchclaim" });
    expect((await ctx.h.request("GET", `/v1/${f.db}/notes`, bearer(f.userA.token))).body).toEqual([]);
  });

  it("a column rename rewrites the policies; dropping a column a policy uses is refused with 409 naming it", async () => {
    const f = await makeFixture(ctx.h, `policies rename ${engine}`);
    await putPolicies(ctx.h, f.db, "notes", { select: "owner_id = auth.id", update: "owner_id = auth.id and public = false" });
    const renamed = await ctx.h.request("PATCH", `/api/v1/databases/${f.db}/tables/notes/columns/owner_id`, { body: { name: "author_id" } });
    expect(renamed.status, renamed.text).toBe(200);
    const policies = (await ctx.h.request("GET", `/api/v1/databases/${f.db}/tables/notes/policies`)).body;
    expect(policies).toEqual({ select: "author_id = auth.id", insert: null, update: "author_id = auth.id and public = false", delete: null });
    expect((await ctx.h.request("GET", `/v1/${f.db}/notes`, bearer(f.userA.token))).body.every((n: any) => n.author_id === f.userA.id)).toBe(true);
    const drop = await ctx.h.request("DELETE", `/api/v1/databases/${f.db}/tables/notes/columns/public`);
    expectError(drop, 409, "conflict");
    expect(drop.body.message).toContain("update policy");
  });

  it("the users table and its login/password columns cannot be dropped while auth uses them; a rename follows", async () => {
    const f = await makeFixture(ctx.h, `policies users ${engine}`);
    expectError(await ctx.h.request("DELETE", `/api/v1/databases/${f.db}/tables/users/columns/password`), 409, "conflict");
    const rename = await ctx.h.request("PATCH", `/api/v1/databases/${f.db}/tables/users/columns/email`, { body: { name: "login" } });
    expect(rename.status, rename.text).toBe(200);
    expect((await ctx.h.request("GET", `/api/v1/databases/${f.db}/auth`)).body.login_column).toBe("login");
    const ok = await ctx.h.request("POST", `/v1/${f.db}/auth/login`, { key: null, body: { login: "a@example.com", password: "alpha-password-1" } });
    expect(ok.status, ok.text).toBe(200);
    const table = await ctx.h.request("PATCH", `/api/v1/databases/${f.db}/tables/users`, { body: { name: "members" } });
    expect(table.status, table.text).toBe(200);
    expect((await ctx.h.request("GET", `/api/v1/databases/${f.db}/auth`)).body.users_table).toBe("members");
    expectError(await ctx.h.request("DELETE", `/api/v1/databases/${f.db}/tables/members`), 409, "conflict");
  });

  it("auth settings: validated (users table, unique login column, password column, lifetime 1 s..30 days)", async () => {
    const put = (body: unknown) => ctx.h.request("PUT", `/api/v1/databases/${f.db}/auth`, { body });
    const bad = await put({ enabled: true, users_table: "users", login_column: "display_name", password_column: "email", token_ttl_seconds: 0 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(["token_ttl_seconds"]);
    const bad2 = await put({ enabled: true, users_table: "users", login_column: "display_name", password_column: "email" });
    expect(bad2.body.errors.map((e: any) => e.field).sort()).toEqual(["login_column", "password_column"]);
    expect((await put({ enabled: true, users_table: "nosuch" })).body.errors[0].field).toBe("users_table");
    expect((await put({ enabled: true, users_table: "users", login_column: "email", token_ttl_seconds: 2592001 })).status).toBe(422);
    const good = await put({ enabled: true, users_table: "users", login_column: "email", token_ttl_seconds: 60 });
    expect(good.status, good.text).toBe(200);
    expect(good.body).toEqual({ enabled: true, users_table: "users", login_column: "email", password_column: "password", token_ttl_seconds: 60, signup: false, cors_origins: [], ...ACCOUNT_DEFAULTS });
    expect(good.text).not.toMatch(/secret/);
  });

  it("impersonate: a short-lived token that sees exactly what the user sees (admin only)", async () => {
    await putPolicies(ctx.h, f.db, "notes", { select: "owner_id = auth.id" });
    const r = await ctx.h.request("POST", `/api/v1/databases/${f.db}/auth/impersonate`, { body: { user_id: f.userB.id } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.expires_in).toBeLessThanOrEqual(300);
    const rows = (await ctx.h.request("GET", `/v1/${f.db}/notes`, bearer(r.body.token))).body;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((n: any) => n.owner_id === f.userB.id)).toBe(true);
    expectError(await ctx.h.request("POST", `/api/v1/databases/${f.db}/auth/impersonate`, { body: { user_id: f.userB.id }, key: null }), 401, "unauthorized");
    expectError(await ctx.h.request("POST", `/api/v1/databases/${f.db}/auth/impersonate`, { body: { user_id: 999999 } }), 404, "not_found");
  });

  it("another account cannot read or change this database's auth or policies (404)", async () => {
    const stranger = await ctx.h.createAccount();
    expectError(await ctx.h.request("GET", `/api/v1/databases/${f.db}/auth`, { key: stranger.key }), 404, "not_found");
    expectError(await ctx.h.request("PUT", path(), { key: stranger.key, body: { select: "true" } }), 404, "not_found");
    expectError(await ctx.h.request("POST", `/api/v1/databases/${f.db}/auth/rotate-secret`, { key: stranger.key }), 404, "not_found");
  });
});

describe.each(ENGINES)("test as user on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let f: Fixture;

  beforeAll(async () => {
    f = await makeFixture(ctx.h, `test as ${engine}`);
  });

  it("reports the actions, the visible rows and per-row update/delete exactly as the data API enforces them", async () => {
    const r = await ctx.h.request("POST", `/api/v1/databases/${f.db}/auth/test-as-user`, { body: { user_id: f.userA.id, table: "notes" } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.actions).toEqual({ select: "allowed", insert: "allowed", update: "allowed", delete: "allowed" });
    expect(r.body.total).toBe(5);
    const byId = new Map(r.body.rows.map((row: any) => [row.record.id, row]));
    expect(byId.get(f.notes.a1)).toMatchObject({ update: true, delete: true });
    expect(byId.get(f.notes.bp)).toMatchObject({ update: false, delete: false });
    expect(byId.has(f.notes.b1)).toBe(false);
    // The data API agrees with every verdict.
    for (const row of r.body.rows) {
      const patch = await ctx.h.request("PATCH", `/v1/${f.db}/notes/${row.record.id}`, { ...bearer(f.userA.token), body: { rank: row.record.rank } });
      expect(patch.status === 200, `PATCH ${row.record.id}: ${patch.status}`).toBe(row.update);
    }
    const closed = await ctx.h.request("POST", `/api/v1/databases/${f.db}/auth/test-as-user`, { body: { user_id: f.userA.id, table: "secrets" } });
    expect(closed.body).toEqual({ actions: { select: "denied", insert: "denied", update: "denied", delete: "denied" }, total: 0, rows: [] });
    const users = await ctx.h.request("POST", `/api/v1/databases/${f.db}/auth/test-as-user`, { body: { user_id: f.userA.id, table: "users" } });
    expect(users.text).not.toMatch(/\$2[aby]\$/);
  });

  it("filters and pages the visible rows with the data API's grammar, verdicts for the page shown, hidden rows never reached", async () => {
    const as = (user_id: number, query?: string) => ctx.h.request("POST", `/api/v1/databases/${f.db}/auth/test-as-user`, { body: { user_id, table: "notes", query } });
    const titles = (r: { body: { rows: { record: { title: string } }[] } }) => r.body.rows.map((row) => row.record.title);
    const filtered = await as(f.userA.id, "rank_gte=2&_sort=-rank");
    expect(filtered.status, filtered.text).toBe(200);
    expect(titles(filtered)).toEqual(["alpha three", "alpha one", "alpha public"]);
    expect(filtered.body.total).toBe(3);
    // Page by page, every visible row is reached once, each with the verdicts the data API enforces.
    const seen: string[] = [];
    for (let offset = 0; offset < 5; offset += 2) {
      const page = await as(f.userA.id, `_sort=id&_limit=2&_offset=${offset}`);
      expect(page.body.total).toBe(5);
      for (const row of page.body.rows) {
        seen.push(row.record.title);
        const patch = await ctx.h.request("PATCH", `/v1/${f.db}/notes/${row.record.id}`, { ...bearer(f.userA.token), body: { rank: row.record.rank } });
        expect(patch.status === 200, `PATCH ${row.record.id}`).toBe(row.update);
      }
    }
    expect(seen).toEqual(["alpha one", "alpha two", "alpha three", "alpha public", "bravo public"]);
    // An OR group naming hidden rows reaches only the visible ones; the same group shows B their own.
    const group = `_or=${encodeURIComponent(`title=bravo one secret&owner_id=${f.userB.id}`)}`;
    expect(titles(await as(f.userA.id, group))).toEqual(["bravo public"]);
    expect(titles(await as(f.userB.id, group))).toEqual(["bravo one secret", "bravo two secret", "bravo public"]);
    for (const bad of ["nope=1", "rank_gt=x", "_select=title", `_or=${encodeURIComponent("ghost=1")}`]) {
      const refused = await as(f.userA.id, bad);
      expect(refused.status, bad).toBe(422);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(["query"]);
    }
  });
});

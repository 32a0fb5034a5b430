// /auth/login, /auth/signup, /auth/me, login rate limits and per-database CORS.
import { beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_ATTEMPTS } from "../../lib/auth/sign-in-limiter";
import { BCRYPT, expect401, expectError, expect422, MATRIX, useHarness } from "../contract/contract-helpers";
import { bearer, enableAuth, type Fixture, makeFixture, PASSWORD_A } from "./security-fixture";

describe.each(MATRIX)("database auth endpoints on $engine via $adapter", ({ engine, adapter }) => {
  // One trusted proxy, so each limit test comes from its own address (X-Forwarded-For) and starts at zero.
  const ctx = useHarness({ engine, adapter }, { config: { trustProxy: { hops: 1 } } });
  let f: Fixture;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    ctx.h.request("POST", `/v1/${f.db}${path}`, { body, key: null, headers });
  const from = (address: string) => ({ "x-forwarded-for": address });

  beforeAll(async () => {
    f = await makeFixture(ctx.h, `auth ${engine} ${adapter}`);
  });

  it("login: should allow the right password → 200 {token, token_type, expires_in, refresh_token, user} without the password", async () => {
    const r = await post("/auth/login", { email: "a@example.com", password: PASSWORD_A });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^rt_[\w-]{43}$/),
      user: { id: f.userA.id, email: "a@example.com", display_name: "Alpha", created_at: expect.any(String), updated_at: expect.any(String) },
    });
    expect(r.text).not.toContain(PASSWORD_A);
    expect(r.text).not.toMatch(/\$2[aby]\$/);
  });

  it("login: should block a wrong password and an unknown user with the very same 401 body", async () => {
    const wrong = await post("/auth/login", { email: "a@example.com", password: "not-the-password" });
    const unknown = await post("/auth/login", { email: "nobody@example.com", password: "not-the-password" });
    expect401(wrong);
    expect401(unknown);
    expect(wrong.text).toBe(unknown.text);
    expect(wrong.headers.get("www-authenticate")).toBe(unknown.headers.get("www-authenticate"));
  });

  it("login: should block a login that differs only in case or trailing space (exact match)", async () => {
    expect401(await post("/auth/login", { email: "A@example.com", password: PASSWORD_A }));
    expect401(await post("/auth/login", { email: "a@example.com ", password: PASSWORD_A }));
  });

  it("login: a body without the login column or the password is a 422 naming them", async () => {
    expect422(await post("/auth/login", { username: "a", pass: "x" }), "email", "password");
    expect422(await post("/auth/login", { email: 5, password: ["x"] }), "email", "password");
  });

  it("the password is never returned in plaintext: the key sees a bcrypt hash, users see no password column", async () => {
    const byKey = await ctx.h.request("GET", `/v1/${f.db}/users/${f.userA.id}`);
    expect(byKey.body.password).toMatch(BCRYPT);
    const me = await ctx.h.request("GET", `/v1/${f.db}/users/${f.userA.id}`, bearer(f.userA.token));
    expect(me.status).toBe(200);
    expect(me.body).not.toHaveProperty("password");
  });

  it("a user created by POST on the users table (secret key) can log in and see itself at /auth/me", async () => {
    const created = await ctx.h.request("POST", `/v1/${f.db}/users`, { body: { email: "c@example.com", password: "charlie-pass-3" } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.password).toMatch(BCRYPT);
    const r = await post("/auth/login", { email: "c@example.com", password: "charlie-pass-3" });
    expect(r.status, r.text).toBe(200);
    const me = await ctx.h.request("GET", `/v1/${f.db}/auth/me`, bearer(r.body.token));
    expect(me.status, me.text).toBe(200);
    expect(me.body).toEqual({ id: created.body.id, email: "c@example.com", display_name: null, created_at: expect.any(String), updated_at: expect.any(String) });
  });

  it("/auth/me: should block anonymous callers (401) and secret keys (403)", async () => {
    expect401(await ctx.h.request("GET", `/v1/${f.db}/auth/me`, { key: null }));
    expectError(await ctx.h.request("GET", `/v1/${f.db}/auth/me`), 403, "forbidden");
  });

  it("signup: should allow a new user when sign-up is on (201, token works); refuse extra columns and short passwords", async () => {
    const r = await post("/auth/signup", { email: "new@example.com", password: "new-user-pass" });
    expect(r.status, r.text).toBe(201);
    expect(r.body.user.email).toBe("new@example.com");
    expect((await ctx.h.request("GET", `/v1/${f.db}/auth/me`, bearer(r.body.token))).body.email).toBe("new@example.com");
    expect422(await post("/auth/signup", { email: "x@example.com", password: "long-enough-pw", display_name: "admin" }), "display_name");
    expect422(await post("/auth/signup", { email: "y@example.com", password: "short" }), "password");
    expectError(await post("/auth/signup", { email: "new@example.com", password: "new-user-pass" }), 409, "conflict");
  });

  it("signup: should block when sign-up is off (403), login still works", async () => {
    await enableAuth(ctx.h, f.db, { signup: false });
    expectError(await post("/auth/signup", { email: "z@example.com", password: "zulu-password" }), 403, "forbidden");
    expect((await post("/auth/login", { email: "a@example.com", password: PASSWORD_A })).status).toBe(200);
    await enableAuth(ctx.h, f.db, { signup: true });
  });

  it("auth paths: unknown database and auth switched off give the same 404; wrong verbs are 405", async () => {
    const plain = (await ctx.h.request("POST", "/api/v1/databases", { body: { name: "no auth" } })).body.instance;
    const off = await ctx.h.request("POST", `/v1/${plain}/auth/login`, { key: null, body: { email: "a", password: "b" } });
    const missing = await ctx.h.request("POST", "/v1/nosuchdb_zzzzzz/auth/login", { key: null, body: { email: "a", password: "b" } });
    expectError(off, 404, "not_found");
    expect(off.text).toBe(missing.text);
    expectError(await ctx.h.request("GET", `/v1/${f.db}/auth/login`, { key: null }), 405, "method_not_allowed");
  });

  it("login rate limit: should block the attempt after the limit with 429 and Retry-After, per login from any address", async () => {
    const email = "ratelimited@example.com";
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) expect401(await post("/auth/login", { email, password: `guess-${i}` }, from(`198.51.100.${i}`)));
    const limited = await post("/auth/login", { email, password: "guess-final" }, from("198.51.100.99"));
    expectError(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another login is not held back (its account and this address have failures to spare).
    expect((await post("/auth/login", { email: "a@example.com", password: PASSWORD_A }, from("198.51.100.99"))).status).toBe(200);
  });

  it("login rate limit: should block an address after its failures on many logins, the same answer for known and unknown ones", async () => {
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) expect401(await post("/auth/login", { email: `spray-${i}@example.com`, password: "guess" }, from("203.0.113.7")));
    const known = await post("/auth/login", { email: "a@example.com", password: PASSWORD_A }, from("203.0.113.7"));
    const unknown = await post("/auth/login", { email: "nobody@example.com", password: "guess" }, from("203.0.113.7"));
    expectError(known, 429, "rate_limited");
    expectError(unknown, 429, "rate_limited");
    expect(known.body.message.replace(/\d+/g, "N")).toBe(unknown.body.message.replace(/\d+/g, "N"));
    expect((await post("/auth/login", { email: "a@example.com", password: PASSWORD_A }, from("203.0.113.8"))).status).toBe(200);
  });

  it("login rate limit: the right password is also refused while limited (no bypass)", async () => {
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) await post("/auth/login", { email: "b@example.com", password: `guess-${i}` }, from(`192.0.2.${i}`));
    expectError(await post("/auth/login", { email: "b@example.com", password: "bravo-password-2" }, from("192.0.2.200")), 429, "rate_limited");
  });

  describe("CORS per database", () => {
    const allowed = "http://app.example.test:5173";
    beforeAll(async () => {
      await enableAuth(ctx.h, f.db, { signup: true, cors_origins: [allowed] });
    });
    it("preflight from an allowed origin is answered with the CORS headers; another origin gets none", async () => {
      await enableAuth(ctx.h, f.db, { signup: true, cors_origins: [allowed] });
      const ok = await ctx.h.request("OPTIONS", `/v1/${f.db}/auth/login`, { key: null, headers: { origin: allowed, "access-control-request-method": "POST" } });
      expect(ok.status).toBe(204);
      expect(ok.headers.get("access-control-allow-origin")).toBe(allowed);
      expect(ok.headers.get("access-control-allow-methods")).toContain("POST");
      expect(ok.headers.get("access-control-allow-headers")).toContain("authorization");
      const evil = await ctx.h.request("OPTIONS", `/v1/${f.db}/notes`, { key: null, headers: { origin: "https://evil.example" } });
      expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    });
    it("responses (errors included) carry Access-Control-Allow-Origin for the allowed origin only", async () => {
      const ok = await ctx.h.request("GET", `/v1/${f.db}/notes`, { ...bearer(f.userA.token), headers: { ...bearer(f.userA.token).headers, origin: allowed } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("access-control-allow-origin")).toBe(allowed);
      expect(ok.headers.get("access-control-expose-headers")).toContain("x-total-count");
      expect(ok.headers.get("access-control-expose-headers"), "a browser may follow cursor pages").toContain("link");
      const denied = await ctx.h.request("GET", `/v1/${f.db}/notes`, { key: null, headers: { origin: allowed } });
      expect(denied.status).toBe(401);
      expect(denied.headers.get("access-control-allow-origin")).toBe(allowed);
      const evil = await ctx.h.request("GET", `/v1/${f.db}/notes`, { ...bearer(f.userA.token), headers: { ...bearer(f.userA.token).headers, origin: "https://evil.example" } });
      expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    });
    it("cors_origins must be origins (no paths, no wildcards in hosts)", async () => {
      const r = await ctx.h.request("PUT", `/api/v1/databases/${f.db}/auth`, {
        body: { enabled: true, users_table: "users", cors_origins: ["https://ok.example", "https://bad.example/path", "*.example.com"] },
      });
      expect422(r, "cors_origins[1]", "cors_origins[2]");
    });
  });
});

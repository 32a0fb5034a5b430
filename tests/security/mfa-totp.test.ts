// TOTP two-factor authentication of database users (RFC 6238): enrolment, confirmation with recovery codes,
// the challenge every sign-in of an enrolled user answers, replays, single-use recovery codes, tries, the
// sign-in limiter, `mfa: "required"` (a sign-in that may only enrol), and the gate on a mailed one-time code
// (an SMTP server on loopback). Codes are computed here with otplib.
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_ATTEMPTS } from "../../lib/auth/sign-in-limiter";
import { createDatabase, expect401, expect422, expectError, MATRIX, useHarness } from "../contract/contract-helpers";
import { addUser, authClient, codeIn, makeAuthDatabase, PASSWORD, type Smtp, startSmtp, waitForMail } from "../db-auth/accounts-fixture";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { bearer, enableAuth, putPolicies } from "./security-fixture";

/** The code of the time step `step` steps from now (0 current, 1 next: accepted within the one-step drift). */
const totp = (secret: string, step: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * step });

describe.each(MATRIX)("TOTP MFA on $engine via $adapter", ({ engine, adapter }) => {
  const ctx = useHarness({ engine, adapter }, { config: { trustProxy: { hops: 1 } } });
  let db: string;
  let seq = 0;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => ctx.h.request("POST", `/v1/${db}${path}`, { body, key: null, headers });
  const from = (address: string) => ({ "x-forwarded-for": address });

  /** A new user with a password, signed in (no MFA yet): its email and bearer token. */
  const newUser = async () => {
    const email = `u${++seq}-${engine}@example.com`;
    const created = await ctx.h.request("POST", `/v1/${db}/users`, { body: { email, password: "user-password-1" } });
    expect(created.status, created.text).toBe(201);
    const login = await post("/auth/login", { email, password: "user-password-1" });
    expect(login.status, login.text).toBe(200);
    return { id: created.body.id as number, email, token: login.body.token as string };
  };

  /** A user with a confirmed authenticator (confirmed with the current step's code): its secret and recovery codes. */
  const enrolledUser = async () => {
    const user = await newUser();
    const enrolled = await ctx.h.request("POST", `/v1/${db}/auth/mfa/totp/enroll`, bearer(user.token));
    expect(enrolled.status, enrolled.text).toBe(200);
    const confirmed = await ctx.h.request("POST", `/v1/${db}/auth/mfa/totp/confirm`, { ...bearer(user.token), body: { code: await totp(enrolled.body.secret, 0) } });
    expect(confirmed.status, confirmed.text).toBe(200);
    return { ...user, secret: enrolled.body.secret as string, recovery: confirmed.body.recovery_codes as string[] };
  };

  const mfaToken = async (email: string) => {
    const r = await post("/auth/login", { email, password: "user-password-1" });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ mfa_required: true, mfa_token: expect.any(String), expires_in: 300 });
    return r.body.mfa_token as string;
  };

  beforeAll(async () => {
    db = await createDatabase(ctx.h, `mfa ${engine} ${adapter}`, [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
    ]);
    await enableAuth(ctx.h, db, { mfa: "optional" });
    await putPolicies(ctx.h, db, "users", { select: "id = auth.id" });
  });

  it("remove: a current code removes the authenticator (sign-in asks for no code), a recovery code does too; refused without proof", async () => {
    const user = await enrolledUser();
    const remove = (body: unknown, auth: { key?: null | undefined; headers?: Record<string, string> } = bearer(user.token)) =>
      ctx.h.request("POST", `/v1/${db}/auth/mfa/totp/remove`, { key: null, ...auth, body });
    expect422(await remove({ code: "000000" }), "code");
    expect422(await remove({}), "code");
    expect401(await remove({ code: await totp(user.secret, 1) }, { key: null }));
    expectError(await ctx.h.request("POST", `/v1/${db}/auth/mfa/totp/remove`, { body: { code: await totp(user.secret, 1) } }), 403, "forbidden");
    await mfaToken(user.email);
    const removed = await remove({ code: await totp(user.secret, 1) });
    expect(removed.status, removed.text).toBe(204);
    const plain = await post("/auth/login", { email: user.email, password: "user-password-1" });
    expect(plain.body).toEqual(expect.objectContaining({ token: expect.any(String) }));
    expectError(await remove({ code: user.recovery[0] }), 409, "conflict");

    const other = await enrolledUser();
    expect((await remove({ code: other.recovery[3] }, bearer(other.token))).status).toBe(204);
    expect((await post("/auth/login", { email: other.email, password: "user-password-1" })).body).toEqual(expect.objectContaining({ token: expect.any(String) }));
  });

  it("enroll answers a base32 secret and its otpauth URL; confirm with a current code turns MFA on with 10 recovery codes", async () => {
    const user = await newUser();
    const enrolled = await ctx.h.request("POST", `/v1/${db}/auth/mfa/totp/enroll`, bearer(user.token));
    expect(enrolled.status, enrolled.text).toBe(200);
    expect(enrolled.body.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(enrolled.body.otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(enrolled.body.otpauth_url).toContain(`secret=${enrolled.body.secret}`);
    expect(decodeURIComponent(enrolled.body.otpauth_url)).toContain(user.email);
    // Not on until confirmed: the password alone still signs in.
    expect((await post("/auth/login", { email: user.email, password: "user-password-1" })).body.token).toEqual(expect.any(String));
    expect422(await ctx.h.request("POST", `/v1/${db}/auth/mfa/totp/confirm`, { ...bearer(user.token), body: { code: "000000" } }), "code");
    const confirmed = await ctx.h.request("POST", `/v1/${db}/auth/mfa/totp/confirm`, { ...bearer(user.token), body: { code: await totp(enrolled.body.secret, 0) } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.recovery_codes).toHaveLength(10);
    expect(new Set(confirmed.body.recovery_codes).size).toBe(10);
    for (const code of confirmed.body.recovery_codes) expect(code).toMatch(/^[0-9a-f]{5}-[0-9a-f]{5}$/);
    expectError(await ctx.h.request("POST", `/v1/${db}/auth/mfa/totp/enroll`, bearer(user.token)), 409, "conflict");
  });

  it("enroll: should block anonymous callers (401) and secret keys (403); allow a user's JWT", async () => {
    expect401(await ctx.h.request("POST", `/v1/${db}/auth/mfa/totp/enroll`, { key: null }));
    expectError(await ctx.h.request("POST", `/v1/${db}/auth/mfa/totp/enroll`), 403, "forbidden");
    const user = await newUser();
    expect((await ctx.h.request("POST", `/v1/${db}/auth/mfa/totp/enroll`, bearer(user.token))).status).toBe(200);
  });

  it("login of an enrolled user answers an MFA token, not a session; the challenge with a current code gives the session", async () => {
    const user = await enrolledUser();
    const token = await mfaToken(user.email);
    expect401(await post("/auth/mfa/challenge", { mfa_token: token, code: (await totp(user.secret, 1)) === "123456" ? "654321" : "123456" }));
    const session = await post("/auth/mfa/challenge", { mfa_token: token, code: await totp(user.secret, 1) });
    expect(session.status, session.text).toBe(200);
    expect(session.body).toEqual(expect.objectContaining({ token: expect.any(String), token_type: "Bearer", user: expect.objectContaining({ id: user.id, email: user.email }) }));
    const me = await ctx.h.request("GET", `/v1/${db}/auth/me`, bearer(session.body.token));
    expect(me.body.id).toBe(user.id);
    // The MFA token is single use.
    expect401(await post("/auth/mfa/challenge", { mfa_token: token, code: await totp(user.secret, 1) }));
  });

  it("a TOTP code is accepted once: the same code (or an older one) on a new sign-in is refused", async () => {
    const user = await enrolledUser();
    const code = await totp(user.secret, 1);
    expect((await post("/auth/mfa/challenge", { mfa_token: await mfaToken(user.email), code })).status).toBe(200);
    const again = await mfaToken(user.email);
    expect401(await post("/auth/mfa/challenge", { mfa_token: again, code }));
    expect401(await post("/auth/mfa/challenge", { mfa_token: again, code: await totp(user.secret, 0) }));
  });

  it("a recovery code signs in once; the same recovery code again is refused", async () => {
    const user = await enrolledUser();
    const [first] = user.recovery;
    const ok = await post("/auth/mfa/challenge", { mfa_token: await mfaToken(user.email), code: first.toUpperCase() });
    expect(ok.status, ok.text).toBe(200);
    expect401(await post("/auth/mfa/challenge", { mfa_token: await mfaToken(user.email), code: first }));
    expect((await post("/auth/mfa/challenge", { mfa_token: await mfaToken(user.email), code: user.recovery[1] })).status).toBe(200);
  });

  it("an MFA token takes 5 wrong codes, then even the right code is refused", async () => {
    const user = await enrolledUser();
    const token = await mfaToken(user.email);
    for (let i = 0; i < 5; i++) expect401(await post("/auth/mfa/challenge", { mfa_token: token, code: `00000${i}` }, from(`198.51.100.${i}`)));
    expect401(await post("/auth/mfa/challenge", { mfa_token: token, code: await totp(user.secret, 1) }, from("198.51.100.50")));
  });

  it("wrong codes count against the sign-in limiter: past the limit, 429 even with the right code", async () => {
    const user = await enrolledUser();
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) {
      const token = await mfaToken(user.email);
      expect401(await post("/auth/mfa/challenge", { mfa_token: token, code: (await totp(user.secret, 1)) === "999999" ? "999998" : "999999" }, from(`203.0.113.${i}`)));
    }
    const limited = await post("/auth/mfa/challenge", { mfa_token: await mfaToken(user.email), code: await totp(user.secret, 1) }, from("203.0.113.99"));
    expectError(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("bad bodies are 422s naming the field; an unknown MFA token is 401", async () => {
    expect422(await post("/auth/mfa/challenge", { code: 5 }), "mfa_token", "code");
    expect422(await post("/auth/mfa/challenge", { mfa_token: "x", code: "1", extra: true }), "extra");
    expect401(await post("/auth/mfa/challenge", { mfa_token: "A".repeat(43), code: "123456" }));
    expectError(await ctx.h.request("GET", `/v1/${db}/auth/mfa/challenge`, { key: null }), 405, "method_not_allowed");
  });

  describe("mfa: required", () => {
    let required: string;
    beforeAll(async () => {
      required = await createDatabase(ctx.h, `mfa required ${engine} ${adapter}`, [
        { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
      ]);
      await enableAuth(ctx.h, required, { mfa: "required" });
    });
    const postTo = (path: string, body: unknown, headers: Record<string, string> = {}) => ctx.h.request("POST", `/v1/${required}${path}`, { body, key: null, headers });

    it("a user without a factor gets an enrolment token that only enrols; confirming it gives the session", async () => {
      const signup = await postTo("/auth/signup", { email: "new@example.com", password: "user-password-1" });
      expect(signup.body).toEqual({ mfa_required: true, enrollment_required: true, mfa_token: expect.any(String), expires_in: 900 });
      const login = await postTo("/auth/login", { email: "new@example.com", password: "user-password-1" });
      expect(login.status, login.text).toBe(200);
      expect(login.body).toEqual({ mfa_required: true, enrollment_required: true, mfa_token: expect.any(String), expires_in: 900 });
      const token = login.body.mfa_token;
      // It is no session: neither a bearer token nor an answer to a challenge.
      expect401(await ctx.h.request("GET", `/v1/${required}/auth/me`, bearer(token)));
      expect401(await postTo("/auth/mfa/challenge", { mfa_token: token, code: "123456" }));
      const enrolled = await postTo("/auth/mfa/totp/enroll", { mfa_token: token });
      expect(enrolled.status, enrolled.text).toBe(200);
      const confirmed = await postTo("/auth/mfa/totp/confirm", { mfa_token: token, code: await totp(enrolled.body.secret, 0) });
      expect(confirmed.status, confirmed.text).toBe(200);
      expect(confirmed.body.recovery_codes).toHaveLength(10);
      expect(confirmed.body.token).toEqual(expect.any(String));
      expect((await ctx.h.request("GET", `/v1/${required}/auth/me`, bearer(confirmed.body.token))).body.email).toBe("new@example.com");
      // The enrolment token is spent; the next login is a challenge.
      expect401(await postTo("/auth/mfa/totp/enroll", { mfa_token: token }));
      const next = await postTo("/auth/login", { email: "new@example.com", password: "user-password-1" });
      expect(next.body).toEqual({ mfa_required: true, mfa_token: expect.any(String), expires_in: 300 });
    });
  });

  it("mfa: off refuses enrolment (403) and signs enrolled users in with the password alone", async () => {
    const user = await enrolledUser();
    await enableAuth(ctx.h, db, { mfa: "off" });
    try {
      const login = await post("/auth/login", { email: user.email, password: "user-password-1" });
      expect(login.body.token).toEqual(expect.any(String));
      expectError(await ctx.h.request("POST", `/v1/${db}/auth/mfa/totp/enroll`, bearer(login.body.token)), 403, "forbidden");
    } finally {
      await enableAuth(ctx.h, db, { mfa: "optional" });
    }
  });
});

describe.each(ENGINES)("the MFA gate on the mailed ways in, %s", (engine) => {
  let h: Harness;
  let smtp: Smtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    h = await startHarness(engine, "node", { config: { trustProxy: { hops: 1 }, smtpUrl: smtp.url } });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
  });

  it("a one-time code of an enrolled user answers an MFA token, and the challenge gives the session", async () => {
    const db = await makeAuthDatabase(h, `mfa otp ${engine}`, { mfa: "optional" });
    const c = authClient(h, db, "10.9.0.1");
    const email = `otp-mfa-${engine}@example.com`;
    await addUser(h, db, email);
    const login = await c.post("login", { email, password: PASSWORD });
    const enrolled = await c.post("mfa/totp/enroll", {}, login.body.token);
    expect((await c.post("mfa/totp/confirm", { code: await totp(enrolled.body.secret, 0) }, login.body.token)).status).toBe(200);
    expect((await c.post("otp", { email })).status).toBe(202);
    const verified = await c.post("otp/verify", { email, code: codeIn(await waitForMail(smtp, email)) });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ mfa_required: true, mfa_token: expect.any(String), expires_in: 300 });
    const session = await c.post("mfa/challenge", { mfa_token: verified.body.mfa_token, code: await totp(enrolled.body.secret, 1) });
    expect(session.status, session.text).toBe(200);
    expect(session.body.refresh_token).toEqual(expect.any(String));
  });
});

// Email verification, password reset, one-time codes and magic links, delivered through a real SMTP server on
// loopback: the mails are read from what it received. Known and unknown addresses get the same answer after
// the same work (hashes computed, mails queued or dropped), and every token is single use and expires.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { expectError } from "../contract/contract-helpers";
import { workCounts } from "../../lib/db-auth/equal-work";
import { mailCounts } from "../../lib/mail/mail-counts";
import { addUser, APP_URL, authClient, codeIn, makeAuthDatabase, mailsTo, PASSWORD, type Smtp, startSmtp, tokenIn, waitForMail } from "./accounts-fixture";

const until = async (done: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
};

const SESSION = { token: expect.any(String), token_type: "Bearer", expires_in: 3600, refresh_token: expect.stringMatching(/^rt_/), user: expect.any(Object) };
const ACCEPTED = { accepted: true, message: expect.any(String) };

describe.each(ENGINES)("database auth by mail on %s", (engine) => {
  let h: Harness;
  let smtp: Smtp;
  let db: string;
  let address = 0;
  /** Each test from its own client address, so the sign-in limits of one do not reach another. */
  const client = (database = db) => authClient(h, database, `10.2.${engine === "sqlite" ? 1 : 2}.${++address}`);

  beforeAll(async () => {
    smtp = await startSmtp();
    h = await startHarness(engine, "node", { config: { trustProxy: { hops: 1 }, smtpUrl: smtp.url, mailRetryMs: 200 } });
    db = await makeAuthDatabase(h, `mail ${engine}`, { emails: { from: "Notes App <hello@notes.example>" } });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
  });

  it("verification required: signup → mail → login 403 until verify → session → refresh → reuse revokes → login again", async () => {
    const vdb = await makeAuthDatabase(h, `verify ${engine}`, { verification: "required" });
    const c = client(vdb);
    const email = `v-${engine}@example.com`;
    const up = await c.post("signup", { email, password: PASSWORD });
    expect(up.status, up.text).toBe(201);
    expect(up.body).toEqual({ user: expect.objectContaining({ email }), verification_sent: true });
    expect(up.body).not.toHaveProperty("token");
    expectError(await c.post("login", { email, password: PASSWORD }), 403, "email_not_verified");
    const mail = await waitForMail(smtp, email);
    expect(mail.from).toBe("no-reply@localhost");
    expect(mail.text).toMatch(/^Subject: Confirm your email for verify /m);
    expect(mail.text).toContain(`${APP_URL}?token=`);
    const verified = await c.post("verify", { token: tokenIn(mail) });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual(SESSION);
    expectError(await c.post("verify", { token: tokenIn(mail) }), 400, "token_used");
    const login = await c.post("login", { email, password: PASSWORD });
    expect(login.status, login.text).toBe(200);
    const next = await c.post("refresh", { refresh_token: login.body.refresh_token });
    expect(next.status).toBe(200);
    expectError(await c.post("refresh", { refresh_token: login.body.refresh_token }), 401, "refresh_token_reused");
    expectError(await c.post("refresh", { refresh_token: next.body.refresh_token }), 401, "unauthorized");
    expect((await c.post("login", { email, password: PASSWORD })).status).toBe(200);
  });

  it("verify/resend: a new mail for an unverified user; the earlier link stops working", async () => {
    const vdb = await makeAuthDatabase(h, `resend ${engine}`, { verification: "required" });
    const c = client(vdb);
    const email = `r-${engine}@example.com`;
    expect((await c.post("signup", { email, password: PASSWORD })).status).toBe(201);
    const first = await waitForMail(smtp, email);
    expect((await c.post("verify/resend", { email })).status).toBe(202);
    const second = await waitForMail(smtp, email, 1);
    expectError(await c.post("verify", { token: tokenIn(first) }), 400, "token_used");
    expect((await c.post("verify", { token: tokenIn(second) })).status).toBe(200);
  });

  it("password reset: mail → new password → every old session dead, the new password works, the token once", async () => {
    const email = `reset-${engine}@example.com`;
    await addUser(h, db, email);
    const c = client();
    const old = (await c.post("login", { email, password: PASSWORD })).body;
    const other = (await c.post("login", { email, password: PASSWORD })).body;
    expect((await c.post("password/forgot", { email })).status).toBe(202);
    const mail = await waitForMail(smtp, email);
    expect(mail.from).toBe("hello@notes.example");
    expect(mail.raw).toMatch(/^From: Notes App <hello@notes\.example>/m);
    expectError(await c.post("password/reset", { token: tokenIn(mail), password: "short" }), 422, "validation_failed", ["password"]);
    const reset = await c.post("password/reset", { token: tokenIn(mail), password: "second-password-2" });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.user.email).toBe(email);
    for (const s of [old, other]) {
      expectError(await c.get("me", s.token), 401, "unauthorized");
      expectError(await c.post("refresh", { refresh_token: s.refresh_token }), 401, "unauthorized");
    }
    expectError(await c.post("login", { email, password: PASSWORD }), 401, "unauthorized");
    expect((await c.post("login", { email, password: "second-password-2" })).status).toBe(200);
    expectError(await c.post("password/reset", { token: tokenIn(mail), password: "third-password-3" }), 400, "token_used");
  });

  it("one-time code: the mail holds a 6-digit code and a link; the code signs in once", async () => {
    const email = `otp-${engine}@example.com`;
    await addUser(h, db, email);
    const c = client();
    expect((await c.post("otp", { email })).status).toBe(202);
    const mail = await waitForMail(smtp, email);
    const code = codeIn(mail);
    expect(mail.text).toMatch(new RegExp(`^Subject: Your mail ${engine} sign-in code: ${code}`, "m"));
    expect(mail.text).toContain("type=otp");
    const signedIn = await c.post("otp/verify", { email, code });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body).toEqual(SESSION);
    expectError(await c.post("otp/verify", { email, code }), 400, "invalid_code");
    expectError(await c.post("otp/verify", { token: tokenIn(mail) }), 400, "token_used");
  });

  it("magic link: the link's token signs in once", async () => {
    const email = `magic-${engine}@example.com`;
    await addUser(h, db, email);
    const c = client();
    expect((await c.post("otp", { email })).status).toBe(202);
    const token = tokenIn(await waitForMail(smtp, email));
    const signedIn = await c.post("otp/verify", { token });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect((await c.get("me", signedIn.body.token)).body.email).toBe(email);
    expectError(await c.post("otp/verify", { token }), 400, "token_used");
  });

  it("a code takes 5 tries: after five wrong ones the right code fails too", async () => {
    const email = `tries-${engine}@example.com`;
    await addUser(h, db, email);
    const c = client();
    expect((await c.post("otp", { email })).status).toBe(202);
    const code = codeIn(await waitForMail(smtp, email));
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expectError(await c.post("otp/verify", { email, code: wrong }), 400, "invalid_code");
    expectError(await c.post("otp/verify", { email, code }), 400, "invalid_code");
    expectError(await c.post("otp/verify", { email, code: "12" }), 422, "validation_failed", ["code"]);
  });

  it("expired tokens and codes are token_expired; unknown tokens invalid_token; never a 500", async () => {
    const email = `exp-${engine}@example.com`;
    await addUser(h, db, email);
    const c = client();
    // Two mails to one address may arrive in either order: the second is asked for once the first is in.
    expect((await c.post("password/forgot", { email })).status).toBe(202);
    const reset = tokenIn(await waitForMail(smtp, email));
    expect((await c.post("otp", { email })).status).toBe(202);
    const code = codeIn(await waitForMail(smtp, email, 1));
    await h.app.engine.meta.updateTable("auth_mail_tokens").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("used_at", "is", null).execute();
    expectError(await c.post("password/reset", { token: reset, password: "another-password-9" }), 400, "token_expired");
    expectError(await c.post("otp/verify", { email, code }), 400, "token_expired");
    expectError(await c.post("verify", { token: "no-such-token" }), 400, "invalid_token");
    expectError(await c.post("password/reset", { token: reset.slice(1), password: "another-password-9" }), 400, "invalid_token");
    expectError(await c.post("verify", { token: reset }), 400, "invalid_token");
  });

  it("known and unknown emails: the same status and body, one hash and one mail queued or dropped each", async () => {
    const email = `known-${engine}@example.com`;
    await addUser(h, db, email);
    for (const path of ["password/forgot", "otp", "verify/resend"]) {
      const work = () => ({ hashes: workCounts(h.app).hashes, mails: mailCounts(h.app).queued + mailCounts(h.app).dropped });
      const before = work();
      const known = await client().post(path, { email });
      // A known address's token and mail are written just after the answer.
      await until(() => work().mails > before.mails);
      const middle = work();
      const unknown = await client().post(path, { email: `nobody-${engine}@example.com` });
      const after = work();
      expect(known.status, path).toBe(202);
      expect(unknown.status, path).toBe(202);
      expect(known.body).toEqual(ACCEPTED);
      expect(unknown.text, path).toBe(known.text);
      expect(middle.hashes - before.hashes, path).toBe(1);
      expect(after.hashes - middle.hashes, path).toBe(1);
      expect(middle.mails - before.mails, path).toBe(1);
      expect(after.mails - middle.mails, path).toBe(1);
    }
    expect(mailsTo(smtp, `nobody-${engine}@example.com`)).toHaveLength(0);
  });

  it("login: a known and an unknown email with a wrong password get the same 401 after one bcrypt comparison each", async () => {
    const email = `login-known-${engine}@example.com`;
    await addUser(h, db, email);
    const before = workCounts(h.app).hashes;
    const known = await client().post("login", { email, password: "not-the-password" });
    const middle = workCounts(h.app).hashes;
    const unknown = await client().post("login", { email: `login-nobody-${engine}@example.com`, password: "not-the-password" });
    expectError(known, 401, "unauthorized");
    expect(unknown.text).toBe(known.text);
    expect([middle - before, workCounts(h.app).hashes - middle]).toEqual([1, 1]);
  });

  describe("sign-up with verification required: a taken email answers as a new one", () => {
    let vdb: string;
    const admin = (id: number, verb: string) => h.request("POST", `/api/v1/databases/${vdb}/auth/users/${id}/${verb}`);
    const userCount = async () => (await h.request("GET", `/v1/${vdb}/users?_limit=1000`)).body.length as number;
    const work = () => ({ hashes: workCounts(h.app).hashes, queued: mailCounts(h.app).queued, dropped: mailCounts(h.app).dropped });
    const signupMeasured = async (email: string, password = PASSWORD) => {
      const before = work();
      const reply = await client(vdb).post("signup", { email, password });
      // A mailed user's token and mail are written just after the answer.
      await until(() => work().queued + work().dropped > before.queued + before.dropped);
      const after = work();
      return { reply, hashes: after.hashes - before.hashes, queued: after.queued - before.queued, dropped: after.dropped - before.dropped };
    };
    const sameAnswer = (a: { reply: { status: number; text: string } }, aEmail: string, b: typeof a, bEmail: string) => {
      expect(a.reply.status).toBe(201);
      expect(b.reply.status).toBe(201);
      expect(b.reply.text.replace(bEmail, "<email>")).toBe(a.reply.text.replace(aEmail, "<email>"));
    };

    beforeAll(async () => {
      vdb = await makeAuthDatabase(h, `taken ${engine}`, { verification: "required" });
    });

    it("a new email: 201 {user: {email}, verification_sent}, no id or session, one password hash and one token, one mail queued", async () => {
      const email = `fresh-${engine}@example.com`;
      const fresh = await signupMeasured(email);
      expect(fresh.reply.body).toEqual({ user: { email }, verification_sent: true });
      expect({ hashes: fresh.hashes, queued: fresh.queued, dropped: fresh.dropped }).toEqual({ hashes: 2, queued: 1, dropped: 0 });
      await waitForMail(smtp, email);
    });

    it("a confirmed owner's email: the same answer after the same work, the mail dropped, no user written, the password unchanged", async () => {
      const email = `owner-${engine}@example.com`;
      const id = await addUser(h, vdb, email);
      expect((await admin(id, "verify")).status).toBe(200);
      const users = await userCount();
      const fresh = await signupMeasured(`fresh2-${engine}@example.com`);
      const taken = await signupMeasured(email, "attacker-password-1");
      sameAnswer(fresh, `fresh2-${engine}@example.com`, taken, email);
      expect({ hashes: taken.hashes, queued: taken.queued, dropped: taken.dropped }).toEqual({ hashes: 2, queued: 0, dropped: 1 });
      expect(await userCount()).toBe(users + 1);
      expect(mailsTo(smtp, email)).toHaveLength(0);
      expectError(await client(vdb).post("login", { email, password: "attacker-password-1" }), 401, "unauthorized");
      expect((await client(vdb).post("login", { email, password: PASSWORD })).status).toBe(200);
    });

    it("an unconfirmed owner's email: the same answer, and the owner gets a new link that signs in with the first password", async () => {
      const email = `pending-${engine}@example.com`;
      expect((await client(vdb).post("signup", { email, password: PASSWORD })).status).toBe(201);
      const first = await waitForMail(smtp, email);
      const fresh = await signupMeasured(`fresh3-${engine}@example.com`);
      const taken = await signupMeasured(email, "attacker-password-2");
      sameAnswer(fresh, `fresh3-${engine}@example.com`, taken, email);
      expect({ hashes: taken.hashes, queued: taken.queued, dropped: taken.dropped }).toEqual({ hashes: 2, queued: 1, dropped: 0 });
      const second = await waitForMail(smtp, email, 1);
      expectError(await client(vdb).post("verify", { token: tokenIn(first) }), 400, "token_used");
      const verified = await client(vdb).post("verify", { token: tokenIn(second) });
      expect(verified.status, verified.text).toBe(200);
      expectError(await client(vdb).post("login", { email, password: "attacker-password-2" }), 401, "unauthorized");
      expect((await client(vdb).post("login", { email, password: PASSWORD })).status).toBe(200);
    });

    it("a disabled owner's email: the same answer, the mail dropped", async () => {
      const email = `off-${engine}@example.com`;
      const id = await addUser(h, vdb, email);
      expect((await admin(id, "disable")).status).toBe(200);
      const taken = await signupMeasured(email);
      expect(taken.reply.body).toEqual({ user: { email }, verification_sent: true });
      expect({ hashes: taken.hashes, queued: taken.queued, dropped: taken.dropped }).toEqual({ hashes: 2, queued: 0, dropped: 1 });
    });

    it("verification off: a taken email is still a 409 (a session cannot be faked)", async () => {
      const email = `open-${engine}@example.com`;
      await addUser(h, db, email);
      const reply = await client().post("signup", { email, password: PASSWORD });
      expectError(reply, 409, "conflict");
    });
  });

  it("redirect_to: an allowed one is the link's base; one outside the list is a 422 and nothing is sent", async () => {
    const email = `redir-${engine}@example.com`;
    await addUser(h, db, email);
    const c = client();
    const queued = mailCounts(h.app).queued;
    for (const bad of ["https://evil.example/auth/callback", "https://app.example.com/other", `${APP_URL}#x`, 5]) {
      expectError(await c.post("password/forgot", { email, redirect_to: bad }), 422, "validation_failed", ["redirect_to"]);
    }
    expect(mailCounts(h.app).queued).toBe(queued);
    expect((await c.post("password/forgot", { email, redirect_to: `${APP_URL}?lang=fr` })).status).toBe(202);
    expect((await waitForMail(smtp, email)).text).toContain(`${APP_URL}?lang=fr&token=`);
    expectError(await c.post("password/forgot", { email, extra: 1 }), 422, "validation_failed", ["extra"]);
  });

  it("the database's templates: subject, text and an HTML part with {{code}}, {{link}} and {{app}} filled in", async () => {
    const tdb = await makeAuthDatabase(h, `tpl ${engine}`, {
      emails: { from: "Tpl <tpl@notes.example>", otp: { subject: "Code {{code}} for {{app}}", text: "Code: {{code}}\nLink: {{link}}", html: "<p>Code <b>{{code}}</b> <a href=\"{{link}}\">sign in</a></p>" } },
    });
    const email = `tpl-${engine}@example.com`;
    await addUser(h, tdb, email);
    expect((await client(tdb).post("otp", { email })).status).toBe(202);
    const mail = await waitForMail(smtp, email);
    const code = codeIn(mail);
    expect(mail.text).toMatch(new RegExp(`^Subject: Code ${code} for tpl ${engine}`, "m"));
    expect(mail.text).toMatch(/Content-Type: text\/plain/);
    expect(mail.text).toMatch(/Content-Type: text\/html/);
    expect(mail.text).toContain(`Code: ${code}`);
    expect(mail.text).toContain(`<b>${code}</b>`);
    expect(mail.text).toContain(`Link: ${APP_URL}?token=`);
  });

  it("every mail route is under the sign-in limiter: 429 with Retry-After past it", async () => {
    const c = client();
    let last;
    for (let i = 0; i < 11; i++) last = await c.post("password/forgot", { email: `limit-${i}-${engine}@example.com` });
    expectError(last!, 429, "rate_limited");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expectError(await c.post("otp/verify", { email: "x@example.com", code: "123456" }), 429, "rate_limited");
  });
});

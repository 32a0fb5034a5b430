// The install's mailbox: without SMTP_URL every mail stays there, readable by the operator only, and the flows
// work from it; with the SMTP server down the request still answers 202, the mail waits there with its error,
// and it is sent once the server is back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { expectError } from "../contract/contract-helpers";
import { addUser, authClient, makeAuthDatabase, PASSWORD, type Smtp, startSmtp, tokenIn, waitForMail } from "./accounts-fixture";

const until = async <T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe.each(ENGINES)("the mailbox on %s", (engine) => {
  let h: Harness;
  let db: string;
  let smtp: Smtp | undefined;
  beforeAll(async () => {
    h = await startHarness(engine, "node", { config: { trustProxy: { hops: 1 }, mailRetryMs: 200 } });
    db = await makeAuthDatabase(h, `mailbox ${engine}`);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
  });
  const mailbox = (to: string, key?: string) => h.request("GET", `/api/v1/mailbox?to=${encodeURIComponent(to)}`, { key });

  it("without SMTP_URL the mail is kept in the mailbox, and its link works", async () => {
    const email = `kept-${engine}@example.com`;
    await addUser(h, db, email);
    const c = authClient(h, db, "10.3.0.1");
    expect((await c.post("password/forgot", { email })).status).toBe(202);
    const r = await until(
      () => mailbox(email),
      (reply) => reply.body.length > 0,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual([
      {
        id: expect.any(Number),
        kind: "reset",
        database: db,
        to: email,
        from: "Tabula <no-reply@localhost>",
        subject: expect.stringContaining("Reset your"),
        text: expect.stringContaining("token="),
        html: null,
        status: "kept",
        attempts: 0,
        next_attempt_at: null,
        error: null,
        created_at: expect.any(String),
        sent_at: null,
      },
    ]);
    const reset = await c.post("password/reset", { token: tokenIn(r.body[0]), password: "from-the-mailbox-1" });
    expect(reset.status, reset.text).toBe(200);
  });

  it("GET /api/v1/mailbox: should allow the operator; should block other accounts (403) and anonymous callers (401)", async () => {
    const other = await h.createAccount();
    expect((await mailbox("x@example.com")).status).toBe(200);
    expectError(await mailbox("x@example.com", other.key), 403, "forbidden");
    expectError(await h.request("GET", "/api/v1/mailbox", { key: null }), 401, "unauthorized");
    expectError(await h.request("GET", "/api/v1/mailbox?_limit=0"), 422, "validation_failed", ["_limit"]);
  });

  describe("POST /api/v1/mailbox/test", () => {
    const sendTest = (body: unknown, key?: string | null) => h.request("POST", "/api/v1/mailbox/test", { key, body });
    const audited = async (to: string) => (await h.app.engine.meta.selectFrom("audit_log").select(["action", "target"]).where("action", "=", "mail.test").where("target", "=", to).execute()).length;

    it("should allow the operator: without SMTP_URL the test mail is kept in the mailbox, audited", async () => {
      const to = `test-kept-${engine}@example.com`;
      const sent = await sendTest({ to });
      expect(sent.status, sent.text).toBe(201);
      expect(sent.body).toEqual(expect.objectContaining({ kind: "test", to, status: "kept", attempts: 0, error: null, subject: "Tabula test mail", database: null }));
      expect((await mailbox(to)).body).toEqual([sent.body]);
      expect(await audited(to)).toBe(1);
    });

    it("with SMTP_URL the mail reaches the SMTP server before the answer (sent); a server that is down leaves it queued with its error", async () => {
      const server = await startSmtp();
      h.app.config.smtpUrl = server.url;
      try {
        const to = `test-smtp-${engine}@example.com`;
        const sent = await sendTest({ to });
        expect(sent.status, sent.text).toBe(201);
        expect(sent.body).toEqual(expect.objectContaining({ kind: "test", to, status: "sent", attempts: 1, error: null, sent_at: expect.any(String) }));
        const received = await waitForMail(server, to);
        expect(received.text).toMatch(/^Subject: Tabula test mail/m);
        await server.close();
        const down = `test-down-${engine}@example.com`;
        const waiting = await sendTest({ to: down });
        expect(waiting.status, waiting.text).toBe(201);
        expect(waiting.body).toEqual(expect.objectContaining({ status: "queued", attempts: 1, error: expect.stringMatching(/ECONNREFUSED|connect/i) }));
      } finally {
        h.app.config.smtpUrl = undefined;
      }
    });

    it("should block other accounts (403), anonymous callers (401) and a bad address (422 on to); nothing is written", async () => {
      const other = await h.createAccount();
      const to = `test-refused-${engine}@example.com`;
      expectError(await sendTest({ to }, other.key), 403, "forbidden");
      expectError(await sendTest({ to }, null), 401, "unauthorized");
      expectError(await sendTest({ to: "not an address" }), 422, "validation_failed", ["to"]);
      expectError(await sendTest({ to, cc: to }), 422, "validation_failed", ["cc"]);
      expect((await mailbox(to)).body).toEqual([]);
      expect(await audited(to)).toBe(0);
    });
  });

  it("SMTP down: the request answers 202, the mail waits with its error, and is sent once the server is back", async () => {
    // A port nothing listens on: start a server to find one free, then stop it.
    const probe = await startSmtp();
    const port = probe.port;
    await probe.close();
    h.app.config.smtpUrl = `smtp://127.0.0.1:${port}`;
    try {
      const email = `down-${engine}@example.com`;
      await addUser(h, db, email);
      const c = authClient(h, db, "10.3.0.2");
      const started = Date.now();
      expect((await c.post("password/forgot", { email })).status).toBe(202);
      expect(Date.now() - started).toBeLessThan(2_000);
      const waiting = await until(
        () => mailbox(email),
        (r) => r.body[0]?.attempts >= 1,
      );
      expect(waiting.body[0]).toMatchObject({ status: "queued", error: expect.stringMatching(/ECONNREFUSED|connect/i), next_attempt_at: expect.any(String) });
      smtp = await startSmtp(port);
      const mail = await waitForMail(smtp, email, 0, 15_000);
      expect(mail.text).toContain("token=");
      const sent = await until(
        () => mailbox(email),
        (r) => r.body[0]?.status === "sent",
      );
      expect(sent.body[0]).toMatchObject({ status: "sent", sent_at: expect.any(String), attempts: expect.any(Number) });
      expect(sent.body[0].attempts).toBeGreaterThanOrEqual(2);
      expect((await c.post("password/reset", { token: tokenIn(mail), password: "after-the-outage-1" })).status).toBe(200);
      expect((await c.post("login", { email, password: "after-the-outage-1" })).status).toBe(200);
      expect((await c.post("login", { email, password: PASSWORD })).status).toBe(401);
    } finally {
      h.app.config.smtpUrl = undefined;
    }
  });
});

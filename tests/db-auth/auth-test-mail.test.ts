// A database's test mail (POST /api/v1/databases/{instance}/auth/test-mail): the database's own verification
// template and sender with a sample link, through the install's mailer (kept in the mailbox without SMTP_URL,
// sent through it with). Allowed to the owner and an admin member; refused to an editor and a viewer (403),
// unknown to another account (404); a bad address is a 422 on `to`. A refused call writes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { expectError } from "../contract/contract-helpers";
import { SAMPLE_TOKEN } from "../../lib/services/mail/send-test-mail";
import { addMember, error, newAccount, outcome, type Account } from "../teams/team-fixture";
import { startSmtp, waitForMail } from "./accounts-fixture";

const NOT_ADMIN = error(403, "forbidden", "Your role on this database does not include database:admin.");
const APP_URL = "https://app.example.com/welcome";
const TEMPLATE = { subject: "Welcome to {{app}}", text: "Hello from {{app}}! Confirm here: {{link}}", html: "<p>Confirm <a href=\"{{link}}\">here</a></p>" };
const FROM = "Shop <hello@shop.example.com>";

describe.each(ENGINES)("a database's test mail on %s", (engine) => {
  let h: Harness;
  let owner: Account;
  let db: string;
  let name: string;

  const sendAs = (key: string | null, body: unknown) => h.request("POST", `/api/v1/databases/${db}/auth/test-mail`, { key, body });
  const mailbox = async (to: string) => (await h.request("GET", `/api/v1/mailbox?to=${encodeURIComponent(to)}`)).body as unknown[];
  const audited = async (to: string) =>
    (await h.app.engine.meta.selectFrom("audit_log").select(["action", "target", "database_instance"]).where("action", "=", "auth.test_mail").where("target", "=", to).execute());

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    owner = await newAccount(h, "team");
    name = `test mail ${engine}`;
    const created = await h.request("POST", "/api/v1/databases", {
      key: owner.key,
      body: { name, tables: [{ name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] }] },
    });
    expect(created.status, created.text).toBe(201);
    db = created.body.instance;
    const auth = await h.request("PUT", `/api/v1/databases/${db}/auth`, {
      key: owner.key,
      body: { enabled: true, users_table: "users", login_column: "email", password_column: "password", redirect_urls: [APP_URL], emails: { from: FROM, verify: TEMPLATE } },
    });
    expect(auth.status, auth.text).toBe(200);
  }, 60_000);
  afterAll(async () => h?.close());

  it("the owner's test mail is the database's verification template and sender with a sample link, kept in the mailbox, audited", async () => {
    const to = `owner-${engine}@example.com`;
    const sent = await sendAs(owner.key, { to });
    expect(sent.status, sent.text).toBe(201);
    const link = `${APP_URL}?token=${SAMPLE_TOKEN}&type=verify`;
    expect(sent.body).toEqual(
      expect.objectContaining({
        kind: "test", database: db, to, from: FROM, status: "kept", error: null,
        subject: `Welcome to ${name}`, text: `Hello from ${name}! Confirm here: ${link}`, html: `<p>Confirm <a href="${link.replace("&", "&#38;")}">here</a></p>`,
      }),
    );
    expect(await mailbox(to)).toEqual([sent.body]);
    expect(await audited(to)).toEqual([{ action: "auth.test_mail", target: to, database_instance: db }]);
  });

  it("with SMTP_URL an admin member's test mail reaches the SMTP server before the answer (sent)", async () => {
    const admin = await addMember(h, owner, "admin");
    const server = await startSmtp();
    h.app.config.smtpUrl = server.url;
    try {
      const to = `admin-${engine}@example.com`;
      const sent = await sendAs(admin.key, { to });
      expect(sent.status, sent.text).toBe(201);
      expect(sent.body).toEqual(expect.objectContaining({ kind: "test", to, status: "sent", attempts: 1, sent_at: expect.any(String) }));
      const received = await waitForMail(server, to);
      expect(received.text).toMatch(new RegExp(`^Subject: Welcome to ${name}`, "m"));
      expect(received.text).toMatch(/^From: Shop <hello@shop\.example\.com>/m);
      expect(received.text).toContain(`token=${SAMPLE_TOKEN}`);
    } finally {
      h.app.config.smtpUrl = undefined;
      await server.close();
    }
  });

  it.each(["editor", "viewer"])("a %s is refused (403) and nothing is written", async (role) => {
    const member = await addMember(h, owner, role);
    const to = `${role}-${engine}@example.com`;
    expect(outcome(await sendAs(member.key, { to }))).toEqual(NOT_ADMIN);
    expect(await mailbox(to)).toEqual([]);
    expect(await audited(to)).toEqual([]);
  });

  it("another account gets 404 for the database, an anonymous caller 401, and nothing is written", async () => {
    const stranger = await newAccount(h);
    const to = `stranger-${engine}@example.com`;
    expect((await sendAs(stranger.key, { to })).status).toBe(404);
    expect((await sendAs(null, { to })).status).toBe(401);
    expect(await mailbox(to)).toEqual([]);
    expect(await audited(to)).toEqual([]);
  });

  it("a bad address is a 422 naming to; an unknown field names itself; nothing is written", async () => {
    expectError(await sendAs(owner.key, { to: "not an address" }), 422, "validation_failed", ["to"]);
    expectError(await sendAs(owner.key, { to: `extra-${engine}@example.com`, cc: "x@example.com" }), 422, "validation_failed", ["cc"]);
    expect(await mailbox(`extra-${engine}@example.com`)).toEqual([]);
    expect(await audited(`extra-${engine}@example.com`)).toEqual([]);
  });
});

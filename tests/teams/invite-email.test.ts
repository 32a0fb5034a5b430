// Invite emails: with SMTP_URL set, an invite with an email sends the link through that server; without it,
// or when the server refuses, no email goes out and the link works all the same. A loopback smtp-server
// stands in for the mail relay.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { accept, createInvite, members, newAccount, type Account } from "./team-fixture";

type Delivered = { from: string; to: string[]; raw: string };

/** An SMTP server on a free loopback port that keeps every message; refuses recipients at refused.example. */
const startSmtp = async () => {
  const delivered: Delivered[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo: (address, _session, callback) =>
      address.address.endsWith("@refused.example") ? callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 })) : callback(),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        delivered.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, delivered, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

/** The message's text with quoted-printable soft line breaks joined (long URLs are wrapped at 76 columns). */
const textOf = (raw: string) => raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");

describe.each(ENGINES)("invite emails on %s", (engine) => {
  let h: Harness;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let owner: Account;

  beforeAll(async () => {
    smtp = await startSmtp();
    h = await startHarness(engine, "node");
    owner = await newAccount(h, "team");
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
  });

  const withSmtp = async <T>(url: string | undefined, run: () => Promise<T>) => {
    h.app.config.smtpUrl = url;
    try {
      return await run();
    } finally {
      h.app.config.smtpUrl = undefined;
    }
  };

  it("sends the invite link to the invitee through SMTP_URL and says email_sent: true", async () => {
    const before = smtp.delivered.length;
    const reply = await withSmtp(smtp.url, () => createInvite(h, owner.key, { role: "editor", email: "Invitee@Example.com" }));
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ email: "invitee@example.com", email_sent: true });
    const sent = smtp.delivered.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].to).toEqual(["invitee@example.com"]);
    expect(sent[0].from).toBe("no-reply@localhost");
    const text = textOf(sent[0].raw);
    expect(text).toContain(`Accept the invite: ${reply.body.url}`);
    expect(text).toContain(`${owner.email} invited you to their Tabula workspace as editor.`);
    expect(text).toMatch(new RegExp(`^Subject: ${owner.email.replace(/[.]/g, "\\.")} invited you to their Tabula workspace`, "m"));
  });

  it("sends nothing for an invite without an email, even with SMTP_URL", async () => {
    const before = smtp.delivered.length;
    const reply = await withSmtp(smtp.url, () => createInvite(h, owner.key, { role: "viewer" }));
    expect(reply.status).toBe(201);
    expect(reply.body.email_sent).toBe(false);
    expect(smtp.delivered.length).toBe(before);
  });

  it("without SMTP_URL sends nothing, says email_sent: false, and the link still works", async () => {
    const before = smtp.delivered.length;
    const reply = await withSmtp(undefined, () => createInvite(h, owner.key, { role: "viewer", email: "nomail@example.com" }));
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ email: "nomail@example.com", email_sent: false, status: "pending" });
    expect(smtp.delivered.length).toBe(before);
    const invitee = await newAccount(h);
    expect((await accept(h, invitee.key, reply.body.token)).status).toBe(200);
    expect((await members(h, owner)).map((m) => m.account.id)).toContain(invitee.accountId);
  });

  it("keeps the invite when the mail server refuses the recipient: email_sent: false, the link works", async () => {
    const before = smtp.delivered.length;
    const reply = await withSmtp(smtp.url, () => createInvite(h, owner.key, { role: "viewer", email: "someone@refused.example" }));
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.email_sent).toBe(false);
    expect(smtp.delivered.length).toBe(before);
    const invitee = await newAccount(h);
    expect((await accept(h, invitee.key, reply.body.token)).status).toBe(200);
  });
});

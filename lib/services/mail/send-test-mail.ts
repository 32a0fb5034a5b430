// POST /api/v1/mailbox/test: a mail through the install's one mailer, so the operator sees SMTP_URL work (or
// the mailbox keep it) without walking a sign-up. POST /api/v1/databases/{instance}/auth/test-mail: the same
// for a database admin, with the database's own verification template and sender (a sample link, no token
// saved). The mail and its audit entry commit together; with SMTP_URL it is tried once before the answer,
// which shows what became of it (sent, or queued with the server's error).
import type { TestMailInput } from "../../contract/schemas/mailbox";
import { linkBase, renderAuthMail } from "../../db-auth/auth-mails";
import { noteAudit } from "../../meta/audit/audit-slot";
import { commitRows } from "../../meta/commit-meta";
import type { Ctx, DbCtx } from "../../meta/context";
import { deliverOne } from "../../mail/mail-delivery";
import { insertMail, type Mail } from "../../mail/mailer";
import { getMail } from "./list-mailbox";

/** Writes the mail with its audit entry, tries it once with SMTP_URL, and answers it as the mailbox shows it. */
const sendAndShow = async (ctx: Ctx, mail: Mail) => {
  const { app } = ctx;
  noteAudit(ctx, { target: mail.to });
  const id = await commitRows(ctx, (trx) => insertMail(app, mail, trx));
  if (app.config.smtpUrl) await deliverOne(app, id);
  return getMail(app, id);
};

export const sendTestMail = (ctx: Ctx, { body }: { body: TestMailInput }) =>
  sendAndShow(ctx, {
    kind: "test",
    to: body.to,
    subject: "Tabula test mail",
    text: `This is a test mail from the Tabula install at ${ctx.origin ?? "this server"}. ${ctx.app.config.smtpUrl ? "It went through SMTP_URL." : "Without SMTP_URL it stays in the mailbox."}`,
  });

/** The token a database's test mail carries in its link: a sample, never saved, so the link verifies nobody. */
export const SAMPLE_TOKEN = "sample-test-mail-token";

export const sendAuthTestMail = (ctx: DbCtx, { body }: { instance: string; body: TestMailInput }) => {
  const { database } = ctx;
  const settings = database.auth ?? { emails: {}, redirect_urls: [] };
  const withAuth = { schema: database.schema, auth: settings };
  const base = linkBase({ origin: ctx.origin ?? "" }, withAuth, "verify", undefined);
  return sendAndShow(ctx, { ...renderAuthMail(withAuth, { kind: "verify", to: body.to, base, token: SAMPLE_TOKEN }), kind: "test" });
};

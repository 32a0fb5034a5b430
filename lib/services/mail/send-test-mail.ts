// POST /api/v1/mailbox/test: a mail through the install's one mailer, so the operator sees SMTP_URL work (or
// the mailbox keep it) without walking a sign-up. The mail and its audit entry commit together; with SMTP_URL
// it is tried once before the answer, which shows what became of it (sent, or queued with the server's error).
import type { TestMailInput } from "../../contract/schemas/mailbox";
import { noteAudit } from "../../meta/audit/audit-slot";
import { commitRows } from "../../meta/commit-meta";
import type { Ctx } from "../../meta/context";
import { deliverOne } from "../../mail/mail-delivery";
import { insertMail } from "../../mail/mailer";
import { getMail } from "./list-mailbox";

export const sendTestMail = async (ctx: Ctx, { body }: { body: TestMailInput }) => {
  const { app } = ctx;
  noteAudit(ctx, { target: body.to });
  const mail = {
    kind: "test" as const,
    to: body.to,
    subject: "Tabula test mail",
    text: `This is a test mail from the Tabula install at ${ctx.origin ?? "this server"}. ${app.config.smtpUrl ? "It went through SMTP_URL." : "Without SMTP_URL it stays in the mailbox."}`,
  };
  const id = await commitRows(ctx, (trx) => insertMail(app, mail, trx));
  if (app.config.smtpUrl) await deliverOne(app, id);
  return getMail(app, id);
};

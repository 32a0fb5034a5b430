import { z } from "zod";
import { defineRoute } from "./route";
import { MailboxMessage, MailboxQuery, TestMailInput } from "../contract/schemas/mailbox";
import { listMailbox } from "../services/mail/list-mailbox";
import { sendTestMail } from "../services/mail/send-test-mail";

export const MAIL_ROUTES = [
  defineRoute({
    method: "GET", path: "mailbox", permission: "operator", tag: "Accounts", operationId: "listMailbox",
    summary: "The install's mailbox (operator)",
    description: "Every mail the install wrote (team invites, database users' verify, reset and one-time-code mails), newest first: kept here without `SMTP_URL`, or queued, sent or failed through it with the last SMTP error.",
    query: MailboxQuery, status: 200, response: z.array(MailboxMessage),
    run: (ctx, { query }) => listMailbox(ctx, { query }),
  }),
  defineRoute({
    method: "POST", path: "mailbox/test", permission: "operator", tag: "Accounts", operationId: "sendTestMail",
    summary: "Send a test mail (operator)",
    description:
      "Writes a test mail to `to` through the install's mailer and answers it as the mailbox shows it: `kept` without `SMTP_URL`; with it, tried once at once, so `sent`, or `queued` with the SMTP server's error (tried again later) or `failed`.",
    body: TestMailInput, status: 201, response: MailboxMessage,
    run: (ctx, { body }) => sendTestMail(ctx, { body }),
  }),
];

import { z } from "zod";
import { defineRoute } from "./route";
import { MailboxMessage, MailboxQuery } from "../contract/schemas/mailbox";
import { listMailbox } from "../services/mail/list-mailbox";

export const MAIL_ROUTES = [
  defineRoute({
    method: "GET", path: "mailbox", permission: "operator", tag: "Accounts", operationId: "listMailbox",
    summary: "The install's mailbox (operator)",
    description: "Every mail the install wrote (team invites, database users' verify, reset and one-time-code mails), newest first: kept here without `SMTP_URL`, or queued, sent or failed through it with the last SMTP error.",
    query: MailboxQuery, status: 200, response: z.array(MailboxMessage),
    run: (ctx, { query }) => listMailbox(ctx, { query }),
  }),
];

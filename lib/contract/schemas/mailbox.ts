// The install's mailbox as the management API shows it (GET /api/v1/mailbox, operator only).
import { z } from "zod";
import { component } from "./common";

export const MAIL_STATUSES = ["kept", "queued", "sent", "failed"] as const;

export const MailboxQuery = z.object({
  status: z.enum(MAIL_STATUSES).optional().meta({ description: "Only mails in this state." }),
  to: z.string().max(320).optional().meta({ description: "Only mails to this address (exact)." }),
  _limit: z.coerce.number().int().min(1).max(200).optional().meta({ description: "How many mails, newest first (default 50, at most 200)." }),
});

export const MailboxMessage = component(
  "MailboxMessage",
  z
    .object({
      id: z.int(),
      kind: z.enum(["invite", "verify", "reset", "otp", "test"]),
      database: z.string().nullable().meta({ description: "The database the mail is for (its users' mails); null for team invites." }),
      to: z.string(),
      from: z.string(),
      subject: z.string(),
      text: z.string(),
      html: z.string().nullable(),
      status: z.enum(MAIL_STATUSES).meta({
        description: "`kept`: no SMTP_URL, the mail lives here only; `queued`: waiting for (another) try; `sent`: the SMTP server took it; `failed`: refused for good or out of tries.",
      }),
      attempts: z.int(),
      next_attempt_at: z.string().nullable().meta({ description: "When a queued mail is tried again." }),
      error: z.string().nullable().meta({ description: "The SMTP server's last error." }),
      created_at: z.string(),
      sent_at: z.string().nullable(),
    })
    .meta({ description: "One mail of the install's mailbox." }),
);

export type MailboxMessage = z.output<typeof MailboxMessage>;

export const TestMailInput = component(
  "TestMailInput",
  z
    .object({ to: z.email().max(320).meta({ description: "Where the test mail goes." }) })
    .strict()
    .meta({ description: "A test mail through the install's mailer.", example: { to: "ops@example.com" } }),
);
export type TestMailInput = z.output<typeof TestMailInput>;

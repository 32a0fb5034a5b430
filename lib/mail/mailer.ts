// The app's one mailer. Every mail (team invites, database users' verify, reset and one-time-code mails) is
// written to the install's mailbox first; with SMTP_URL it is then sent, and one the server did not take stays
// queued with its error and is tried again with backoff (mail-delivery.ts). Without SMTP_URL it stays in the
// mailbox, readable by the operator, so every flow works on a fresh install.
import type { Kysely } from "kysely";
import type { App } from "../app-type";
import type { MetaDb } from "../db/meta-schema";
import { deliverOne, kickDelivery } from "./mail-delivery";
import { mailCounts } from "./mail-counts";

export type MailKind = "invite" | "verify" | "reset" | "otp" | "test";

export type Mail = {
  kind: MailKind;
  to: string;
  /** The sender; MAIL_FROM (or Tabula <no-reply@localhost>) when absent. */
  from?: string;
  subject: string;
  /** The plain-text part, always sent. */
  text: string;
  html?: string;
  /** The database the mail is for, if any (its users' mails). */
  databaseId?: number;
};

export const DEFAULT_FROM = "Tabula <no-reply@localhost>";

/** Writes the mail to the mailbox (pass a transaction to join it); kept without SMTP_URL, else queued. */
export const insertMail = async (app: App, mail: Mail, db: Kysely<MetaDb> = app.engine.meta) => {
  const now = new Date().toISOString();
  const inserted = await db
    .insertInto("mailbox")
    .values({
      database_id: mail.databaseId ?? null,
      kind: mail.kind,
      to_address: mail.to,
      from_address: mail.from ?? app.config.mailFrom ?? DEFAULT_FROM,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      status: app.config.smtpUrl ? "queued" : "kept",
      attempts: 0,
      next_attempt_at: now,
      claimed_until: null,
      error: null,
      created_at: now,
      sent_at: null,
    })
    .executeTakeFirstOrThrow();
  return Number(inserted.insertId);
};

/** Queues a mail and returns at once (the request does not wait for SMTP); the delivery loop sends it. */
export const queueMail = async (app: App, mail: Mail): Promise<number> => {
  const id = await insertMail(app, mail);
  mailCounts(app).queued++;
  if (app.config.smtpUrl) kickDelivery(app);
  return id;
};

/**
 * Where a known address would get a mail, an unknown one gets this: nothing is written or sent, but it is
 * counted beside queued mails, so tests can see that both answers did the same work.
 */
export const dropMail = (app: App) => {
  mailCounts(app).dropped++;
};

/** Writes a mail and tries it once before answering (team invites report `email_sent`); true when the server took it. */
export const sendMailNow = async (app: App, mail: Mail): Promise<boolean> => {
  const id = await insertMail(app, mail);
  mailCounts(app).queued++;
  if (!app.config.smtpUrl) return false;
  return (await deliverOne(app, id)) === "sent";
};

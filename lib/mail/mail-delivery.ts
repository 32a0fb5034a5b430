// Sends the mailbox's queued mails through SMTP_URL: one pass now and then (and at once after a mail is
// queued), each mail claimed by one process before it is tried. A mail the server refuses for good (a 5xx
// reply) fails at once; any other error keeps it queued, its error shown, and it is tried again after
// MAIL_RETRY_MS, doubling each time up to an hour, at most MAX_ATTEMPTS times.
import type { Transporter } from "nodemailer";
import type { App } from "../app-type";
import { logger } from "../ops/logger";
import { mailCounts } from "./mail-counts";

const MAX_ATTEMPTS = 8;
const DEFAULT_RETRY_MS = 30_000;
const MAX_RETRY_MS = 3_600_000;
const CLAIM_MS = 60_000;
const BATCH = 20;

const transports = new WeakMap<App, Map<string, Transporter>>();

/** nodemailer loads with the first mail sent, not at start. */
const transportFor = async (app: App, url: string) => {
  let byUrl = transports.get(app);
  if (!byUrl) transports.set(app, (byUrl = new Map()));
  let transport = byUrl.get(url);
  if (!transport) {
    const { default: nodemailer } = await import("nodemailer");
    transport = nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    byUrl.set(url, transport);
  }
  return transport;
};

const retryMs = (app: App, attempts: number) => Math.min(MAX_RETRY_MS, (app.config.mailRetryMs ?? DEFAULT_RETRY_MS) * 2 ** Math.max(0, attempts - 1));
const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Claims one queued mail for this process and tries it: "sent", "queued" (to be retried), "failed", or "taken" (another has it). */
export const deliverOne = async (app: App, id: number): Promise<"sent" | "queued" | "failed" | "taken"> => {
  const url = app.config.smtpUrl;
  const meta = app.engine.meta;
  const now = new Date().toISOString();
  if (!url) return "taken";
  const claimed = await meta
    .updateTable("mailbox")
    .set({ claimed_until: isoIn(CLAIM_MS) })
    .where("id", "=", id)
    .where("status", "=", "queued")
    .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return "taken";
  const mail = await meta.selectFrom("mailbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  try {
    await (await transportFor(app, url)).sendMail({ from: mail.from_address, to: mail.to_address, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) });
    await meta.updateTable("mailbox").set({ status: "sent", sent_at: new Date().toISOString(), attempts: mail.attempts + 1, claimed_until: null }).where("id", "=", id).execute();
    mailCounts(app).sent++;
    return "sent";
  } catch (err) {
    const e = err as Error & { responseCode?: number };
    const attempts = mail.attempts + 1;
    const final = (e.responseCode !== undefined && e.responseCode >= 500) || attempts >= MAX_ATTEMPTS;
    const error = `${e.responseCode ? `${e.responseCode} ` : ""}${e.message}`.slice(0, 500);
    await meta
      .updateTable("mailbox")
      .set({ status: final ? "failed" : "queued", attempts, error, claimed_until: null, next_attempt_at: isoIn(retryMs(app, attempts)) })
      .where("id", "=", id)
      .execute();
    mailCounts(app).failedAttempts++;
    logger.warn({ mail: id, to: mail.to_address, attempts, err: error }, final ? "mail failed" : "mail not sent; will retry");
    return final ? "failed" : "queued";
  }
};

/** One pass: every due queued mail, a batch at a time. */
const deliverDue = async (app: App) => {
  for (;;) {
    const due = await app.engine.meta
      .selectFrom("mailbox")
      .select("id")
      .where("status", "=", "queued")
      .where("next_attempt_at", "<=", new Date().toISOString())
      .orderBy("id")
      .limit(BATCH)
      .execute();
    let progressed = false;
    for (const { id } of due) if ((await deliverOne(app, id)) !== "taken") progressed = true;
    if (due.length < BATCH || !progressed) return;
  }
};

type Loop = { running: boolean; again: boolean; stopped: boolean };
const loops = new WeakMap<App, Loop>();

const runPass = (app: App) => {
  const loop = loops.get(app);
  if (!loop || loop.stopped || !app.config.smtpUrl) return;
  if (loop.running) {
    loop.again = true;
    return;
  }
  loop.running = true;
  deliverDue(app)
    .catch((err) => logger.warn({ err: (err as Error).message }, "mail delivery pass failed"))
    .finally(() => {
      loop.running = false;
      if (loop.again && !loop.stopped) {
        loop.again = false;
        runPass(app);
      }
    });
};

/** Runs a pass soon (a mail was just queued). */
export const kickDelivery = (app: App) => {
  setImmediate(() => runPass(app));
};

/** Starts the delivery loop (lib/app.ts); returns its stop. */
export const startMailDelivery = (app: App) => {
  const loop: Loop = { running: false, again: false, stopped: false };
  loops.set(app, loop);
  const every = Math.max(50, Math.min(5_000, app.config.mailRetryMs ?? DEFAULT_RETRY_MS));
  const timer = setInterval(() => runPass(app), every);
  timer.unref();
  return () => {
    loop.stopped = true;
    clearInterval(timer);
  };
};

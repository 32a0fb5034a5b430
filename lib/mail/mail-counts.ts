// Counters of the mailer, per app: mails written (queued or kept) and mails dropped for unknown addresses.
import type { App } from "../app-type";

export type MailCounts = { queued: number; dropped: number; sent: number; failedAttempts: number };

const counts = new WeakMap<App, MailCounts>();

export const mailCounts = (app: App): MailCounts => {
  let c = counts.get(app);
  if (!c) counts.set(app, (c = { queued: 0, dropped: 0, sent: 0, failedAttempts: 0 }));
  return c;
};

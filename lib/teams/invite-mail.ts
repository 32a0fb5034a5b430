import type { Transporter } from "nodemailer";
import type { App } from "../app-type";
import { logger } from "../ops/logger";

const transports = new WeakMap<App, Transporter>();

/** nodemailer loads with the first invite mail, not at start. */
const transportFor = async (app: App, url: string) => {
  let transport = transports.get(app);
  if (!transport) {
    const { default: nodemailer } = await import("nodemailer");
    transport = nodemailer.createTransport(url);
    transports.set(app, transport);
  }
  return transport;
};

export type InviteMail = { to: string; url: string; inviter: string; role: string; expiresAt: string };

/**
 * Emails an invite link through SMTP_URL. Returns whether it was sent; without SMTP_URL, or when the server
 * refuses, the invite still stands and its link still works (the admin can copy it from the Team page).
 */
export const sendInviteMail = async (app: App, mail: InviteMail): Promise<boolean> => {
  const url = app.config.smtpUrl;
  if (!url) return false;
  try {
    await (await transportFor(app, url)).sendMail({
      from: app.config.mailFrom ?? "Tabula <no-reply@localhost>",
      to: mail.to,
      subject: `${mail.inviter} invited you to their Tabula workspace`,
      text: [
        `${mail.inviter} invited you to their Tabula workspace as ${mail.role}.`,
        "",
        `Accept the invite: ${mail.url}`,
        "",
        `The link works until ${mail.expiresAt}. If you have no account yet, you can create one from the link.`,
      ].join("\n"),
    });
    return true;
  } catch (err) {
    logger.warn({ to: mail.to, err: (err as Error).message }, "invite email failed");
    return false;
  }
};

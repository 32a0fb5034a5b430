// The invite mail of a team invite, sent through the app's one mailer (lib/mail).
import type { App } from "../app-type";
import { sendMailNow } from "../mail/mailer";

export type InviteMail = { to: string; url: string; inviter: string; role: string; expiresAt: string };

/**
 * Emails an invite link and returns whether the SMTP server took it. Without SMTP_URL the mail stays in the
 * install's mailbox; when the server refuses, it is kept there with its error (and retried unless refused for
 * good). Either way the invite stands and its link works (the admin can copy it from the Team page).
 */
export const sendInviteMail = (app: App, mail: InviteMail): Promise<boolean> =>
  sendMailNow(app, {
    kind: "invite",
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

// The mails of database auth (verify, reset, otp): the database's sender and templates (or the built-in ones)
// with {{link}}, {{code}} and {{app}} filled in, a plain-text part always, and links only to allowed URLs.
import type { App } from "../app-type";
import { invalidField } from "../errors";
import type { CoreRequest } from "../http/core-types";
import { dropMail, type Mail, queueMail } from "../mail/mailer";
import type { LoadedDatabase } from "../meta/schema-cache";
import type { AuthMailTemplate, DatabaseAuth } from "../schema/types";
import type { AuthDatabase } from "./auth-database";
import type { MailTokenKind } from "./mail-tokens";

const BUILT_IN: Record<MailTokenKind, AuthMailTemplate> = {
  verify: {
    subject: "Confirm your email for {{app}}",
    text: "Confirm your email address for {{app}} by opening this link:\n\n{{link}}\n\nThe link works for 24 hours. If you did not sign up, ignore this mail.",
  },
  reset: {
    subject: "Reset your {{app}} password",
    text: "Someone asked to reset the password of your {{app}} account. To choose a new one, open this link:\n\n{{link}}\n\nThe link works for one hour. If it was not you, ignore this mail; your password stays as it is.",
  },
  otp: {
    subject: "Your {{app}} sign-in code: {{code}}",
    text: "Your sign-in code for {{app}}:\n\n{{code}}\n\nOr sign in with this link:\n\n{{link}}\n\nThe code and the link work for 10 minutes, once. If you did not ask for them, ignore this mail.",
  },
};

/** Where each kind's token goes when the database lists no redirect URL: its own API path. */
const API_PATH: Record<MailTokenKind, string> = { verify: "verify", reset: "password/reset", otp: "otp/verify" };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const fill = (template: string, values: Record<string, string>, escape: (s: string) => string = (s) => s) =>
  template.replace(/\{\{\s*(link|code|app)\s*\}\}/g, (_, name: string) => escape(values[name] ?? ""));

/** Compares URLs by origin and path (query and fragment aside), as redirect_urls are matched. */
const sameTarget = (a: URL, b: URL) => a.origin === b.origin && a.pathname === b.pathname;

/**
 * The base of a mail's link: `redirect_to` when the database allows it (else a 422 on `redirect_to`, before
 * anything is looked up or sent), the first redirect URL when absent, or the API path the token goes to.
 */
export const linkBase = (req: Pick<CoreRequest, "origin">, database: Pick<LoadedDatabase, "schema"> & { auth: Pick<DatabaseAuth, "redirect_urls"> }, kind: MailTokenKind, redirectTo: unknown): string => {
  const allowed = database.auth.redirect_urls;
  if (redirectTo !== undefined) {
    const refused = () => invalidField("redirect_to", "not_allowed", "redirect_to must be one of this database's redirect_urls (same origin and path)");
    if (typeof redirectTo !== "string") throw refused();
    let url: URL;
    try {
      url = new URL(redirectTo);
    } catch {
      throw refused();
    }
    if (url.hash || !allowed.some((a) => sameTarget(new URL(a), url))) throw refused();
    return url.toString();
  }
  return allowed[0] ?? `${req.origin}/v1/${database.schema.instance}/auth/${API_PATH[kind]}`;
};

const linkWith = (base: string, kind: MailTokenKind, token: string) => {
  const url = new URL(base);
  url.searchParams.set("token", token);
  url.searchParams.set("type", kind);
  return url.toString();
};

export type AuthMail = { kind: MailTokenKind; to: string; base: string; token: string; code?: string };

/** A mail of the database's templates (or the built-in ones) with its sender, ready for the mailer. */
export const renderAuthMail = (database: Pick<LoadedDatabase, "schema"> & { auth: Pick<DatabaseAuth, "emails"> }, mail: AuthMail): Mail => {
  const template = database.auth.emails[mail.kind] ?? BUILT_IN[mail.kind];
  const values = { link: linkWith(mail.base, mail.kind, mail.token), code: mail.code ?? "", app: database.schema.name };
  return {
    kind: mail.kind,
    to: mail.to,
    from: database.auth.emails.from,
    subject: fill(template.subject, values).replace(/[\r\n]+/g, " "),
    text: fill(template.text, values),
    html: template.html === undefined ? undefined : fill(template.html, values, escapeHtml),
    databaseId: database.schema.id,
  };
};

/** Renders a mail of the database's templates; the same work for a known address (queued) and an unknown one (dropped). */
export const sendAuthMail = async (app: App, database: AuthDatabase, mail: AuthMail, known: boolean) => {
  const rendered = renderAuthMail(database, mail);
  if (known) await queueMail(app, rendered);
  else dropMail(app);
};

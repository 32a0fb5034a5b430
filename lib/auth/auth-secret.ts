import { createHmac } from "node:crypto";
import type { App } from "../app-type";

/**
 * The next-auth secret: NEXTAUTH_SECRET when set, else derived from the install's master secret, so every
 * process of one install (and both copies of this module: the custom server's and Next's bundle) agree.
 */
export const authSecret = (app: App) =>
  process.env.NEXTAUTH_SECRET || createHmac("sha256", app.secret).update("tabula:nextauth").digest("base64url");

/** next-auth reads NEXTAUTH_URL to build its own URLs; default to this server on localhost. */
export const ensureAuthUrl = () => {
  process.env.NEXTAUTH_URL ||= `http://localhost:${process.env.PORT || 3000}`;
};

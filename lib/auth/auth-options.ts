import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { App } from "../app-type";
import { authSecret, ensureAuthUrl } from "./auth-secret";
import type { CountedSignIn } from "./limit-dashboard-sign-in";
import { SESSION_MAX_AGE_SECONDS, sessionVersionOf } from "./session-version";
import { ACCOUNT_DISABLED_ERROR } from "./sign-in-errors";

import { verifyCredentials } from "./verify-credentials";
import { recordSignIn } from "./record-sign-in";

/**
 * next-auth for the dashboard: email + password (bcrypt) against the accounts table, JWT sessions that carry
 * the account's session version. limitDashboardSignIn reads and counts a sign-in around the route and hands it
 * here: authorize checks that reading, never next-auth's own, and refuses a sign-in that was not counted.
 */
export const authOptions = (app: App, signIn?: CountedSignIn): NextAuthOptions => {
  ensureAuthUrl();
  return {
    secret: authSecret(app),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize: async () => {
          if (!signIn) return null;
          const account = await verifyCredentials(app, signIn);
          if (account?.disabled) {
            await recordSignIn(app, signIn, account, "disabled");
            throw new Error(ACCOUNT_DISABLED_ERROR);
          }
          await recordSignIn(app, signIn, account, account ? undefined : "credentials");
          if (!account) return null;
          await app.signInLimiter.forgive(signIn.attempt);
          return { id: String(account.id), email: account.email, isOperator: account.isOperator, sessionVersion: account.sessionVersion };
        },
      }),
    ],
    callbacks: {
      jwt: async ({ token, user }) => {
        if (user) {
          const signedIn = user as { isOperator?: boolean; sessionVersion?: number };
          return { ...token, isOperator: signedIn.isOperator === true, sv: signedIn.sessionVersion ?? 0 };
        }
        // A session whose version is past (password changed, signed out everywhere, reset, disabled) is over:
        // throwing makes next-auth clear its cookie.
        const row = await app.engine.meta.selectFrom("accounts").select(["session_version", "disabled_at"]).where("id", "=", Number(token.sub)).executeTakeFirst();
        if (!row || row.disabled_at !== null || row.session_version !== sessionVersionOf(token)) throw new Error("SessionEnded");
        return token;
      },
      session: ({ session, token }) => ({
        ...session,
        user: { ...session.user, id: token.sub, isOperator: token.isOperator === true },
      }),
    },
  };
};

import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { App } from "../app";
import { authSecret, ensureAuthUrl } from "./auth-secret";
import { ACCOUNT_DISABLED_ERROR } from "./sign-in-errors";
import { verifyCredentials } from "./verify-credentials";

export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;


/** next-auth for the dashboard: email + password (bcrypt) against the accounts table, JWT sessions. */
export const authOptions = (app: App): NextAuthOptions => {
  ensureAuthUrl();
  return {
    secret: authSecret(app),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize: async (credentials) => {
          const account = await verifyCredentials(app, credentials ?? {});
          if (account?.disabled) throw new Error(ACCOUNT_DISABLED_ERROR);
          return account && { id: String(account.id), email: account.email, isOperator: account.isOperator };
        },
      }),
    ],
    callbacks: {
      jwt: ({ token, user }) => {
        if (user) token.isOperator = (user as { isOperator?: boolean }).isOperator === true;
        return token;
      },
      session: ({ session, token }) => ({
        ...session,
        user: { ...session.user, id: token.sub, isOperator: token.isOperator === true },
      }),
    },
  };
};

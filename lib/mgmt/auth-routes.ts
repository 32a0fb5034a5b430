import { getAuth } from "../services/auth/get-auth";
import { impersonateUser } from "../services/auth/impersonate-user";
import { rotateAuthSecret } from "../services/auth/rotate-auth-secret";
import { testAsUser } from "../services/auth/test-as-user";
import { updateAuth } from "../services/auth/update-auth";
import { getPolicies } from "../services/policies/get-policies";
import { updatePolicies } from "../services/policies/update-policies";
import { listAuthUsers } from "../services/auth-users/list-auth-users";
import { disableAuthUser, enableAuthUser, endAuthUserSessions, resetAuthUserMfa, sendAuthUserReset, verifyAuthUser } from "../services/auth-users/auth-user-actions";
import { AuthUserActionResult, AuthUsersPage, AuthUsersQuery } from "../contract/schemas/auth-users";
import { MailboxMessage, TestMailInput } from "../contract/schemas/mailbox";
import { sendAuthTestMail } from "../services/mail/send-test-mail";
import { defineRoute } from "./route";
import { AuthSettings, AuthSettingsInput, Impersonate, Policies, PoliciesInput, TestAsUserInput, TestAsUserResult, UserToken } from "../contract/schemas/auth";

const AUTH = "databases/:instance/auth";
const POLICIES = "databases/:instance/tables/:table/policies";
const USER = `${AUTH}/users/:user`;

/** The users admin's writes on one user: same shape, one line each. */
const USER_ACTIONS = [
  { verb: "verify", operationId: "verifyAuthUser", run: verifyAuthUser, summary: "Mark a user's email verified", description: "As if the user had followed its verification link." },
  { verb: "disable", operationId: "disableAuthUser", run: disableAuthUser, summary: "Disable a user", description: "The user can no longer sign in or refresh; every session it has ends at once." },
  { verb: "enable", operationId: "enableAuthUser", run: enableAuthUser, summary: "Enable a disabled user", description: "The user may sign in again (its ended sessions stay ended)." },
  {
    verb: "send-reset", operationId: "sendAuthUserReset", run: sendAuthUserReset, summary: "Mail a user a password reset",
    description: "The same mail as `POST /v1/{db}/auth/password/forgot` (its link goes to the first redirect URL). 409 for a disabled user or one without an address.",
  },
  {
    verb: "reset-mfa", operationId: "resetAuthUserMfa", run: resetAuthUserMfa, summary: "Remove a user's second factor",
    description: "Removes its authenticator app and recovery codes (for a user who lost both); it signs in with its password alone, or enrols again where MFA is required. Its sessions stay.",
  },
] as const;

export const AUTH_ROUTES = [
  defineRoute({
    method: "GET", path: AUTH, permission: "database:read", tag: "Auth", operationId: "getAuth",
    summary: "Get the database auth settings", description: "The settings (never the signing secret).",
    status: 200, response: AuthSettings,
    run: (ctx, { instance }) => getAuth(ctx, { instance }),
  }),
  defineRoute({
    method: "PUT", path: AUTH, permission: "database:admin", tag: "Auth", operationId: "updateAuth",
    summary: "Replace the database auth settings", description: "Validates the users table and its login and password columns when enabled.",
    body: AuthSettingsInput, status: 200, response: AuthSettings,
    run: (ctx, { instance, body }) => updateAuth(ctx, { instance, body }),
  }),
  defineRoute({
    method: "POST", path: `${AUTH}/rotate-secret`, permission: "database:admin", tag: "Auth", operationId: "rotateAuthSecret",
    summary: "Rotate the signing secret", description: "A new HS256 secret: every token issued so far stops working (all sessions end).",
    status: 200, response: AuthSettings,
    run: (ctx, { instance }) => rotateAuthSecret(ctx, { instance }),
  }),
  defineRoute({
    method: "POST", path: `${AUTH}/test-mail`, permission: "database:admin", tag: "Auth", operationId: "sendAuthTestMail",
    summary: "Send a test mail with the database's templates",
    description:
      "The database's verification mail (its template and sender, or the built-in ones) to `to`, with a sample link that verifies nobody, through the install's mailer; answered as the mailbox shows it (`kind: \"test\"`): `kept` without `SMTP_URL`; with it tried once at once, so `sent`, or `queued` with the SMTP server's error, or `failed`.",
    body: TestMailInput, status: 201, response: MailboxMessage,
    run: (ctx, { instance, body }) => sendAuthTestMail(ctx, { instance, body }),
  }),
  defineRoute({
    method: "POST", path: `${AUTH}/impersonate`, permission: "database:admin", noDatabaseKeys: true, tag: "Auth", operationId: "impersonateUser",
    summary: "Get a short-lived token for one user",
    description: 'A JWT for `user_id` valid at most 5 minutes, to see the data API as that user ("test as user"). 409 while database auth is off. A key limited to one database is refused (403).',
    body: Impersonate, status: 200, response: UserToken, errors: ["conflict"],
    run: (ctx, { instance, body }) => impersonateUser(ctx, { instance, body }),
  }),
  defineRoute({
    method: "POST", path: `${AUTH}/test-as-user`, permission: "database:read", tag: "Auth", operationId: "testAsUser",
    summary: "See a table as one user",
    description:
      "The actions open to the user on the table, the rows they can see, and per row whether they may update or delete it, from the same predicates the data API applies. Reads only. 409 while database auth is off.",
    body: TestAsUserInput, status: 200, response: TestAsUserResult, errors: ["conflict"],
    run: (ctx, { instance, body }) => testAsUser(ctx, { instance, body }),
  }),
  defineRoute({
    method: "GET", path: `${AUTH}/users`, permission: "database:admin", tag: "Auth", operationId: "listAuthUsers",
    summary: "List and search the database's users",
    description: "Users in id order with their verified, disabled, provider, MFA and session state; `q` searches the login and email columns. 409 while database auth is off.",
    query: AuthUsersQuery, status: 200, response: AuthUsersPage, errors: ["conflict"],
    run: (ctx, { instance, query }) => listAuthUsers(ctx, { instance, query }),
  }),
  ...USER_ACTIONS.map(({ verb, operationId, run, summary, description }) =>
    defineRoute({
      method: "POST", path: `${USER}/${verb}`, permission: "database:admin", tag: "Auth", operationId, summary,
      description: `${description} 404 for an unknown user, 409 while database auth is off.`,
      status: 200, response: AuthUserActionResult, errors: ["conflict"],
      run: (ctx, { instance, user }) => run(ctx, { instance, user }),
    }),
  ),
  defineRoute({
    method: "DELETE", path: `${USER}/sessions`, permission: "database:admin", tag: "Auth", operationId: "endAuthUserSessions",
    summary: "End every session of a user", description: "Its refresh tokens stop working at once (access tokens expire on their own). 404 for an unknown user.",
    status: 200, response: AuthUserActionResult, errors: ["conflict"],
    run: (ctx, { instance, user }) => endAuthUserSessions(ctx, { instance, user }),
  }),
  defineRoute({
    method: "GET", path: POLICIES, permission: "database:read", tag: "Auth", operationId: "getPolicies",
    summary: "Get a table's row policies", description: "Every action with its policy; null where none (denied to JWT users).",
    status: 200, response: Policies,
    run: (ctx, { instance, table }) => getPolicies(ctx, { instance, table }),
  }),
  defineRoute({
    method: "PUT", path: POLICIES, permission: "database:admin", tag: "Auth", operationId: "updatePolicies",
    summary: "Replace a table's row policies",
    description: "Each policy is parsed against the table; a problem is a 422 entry with the action as `field` and the 1-based `position`.",
    body: PoliciesInput, status: 200, response: Policies,
    run: (ctx, { instance, table, body }) => updatePolicies(ctx, { instance, table, body }),
  }),
];

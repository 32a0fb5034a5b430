import { addAccount } from "../services/accounts/add-account";
import { getCurrentAccount } from "../services/accounts/get-current-account";
import { listAccounts } from "../services/accounts/list-accounts";
import { changeOwnPassword } from "../services/accounts/change-own-password";
import { endAllSessions } from "../services/accounts/end-all-sessions";
import { resetAccountPassword } from "../services/accounts/reset-account-password";
import { setAccountDisabled } from "../services/accounts/set-account-disabled";
import { getSettings } from "../services/settings/get-settings";
import { updateSettings } from "../services/settings/update-settings";
import { z } from "zod";
import { defineRoute } from "./route";
import { Account, AccountCreate, PasswordChange, PasswordReset, PasswordResetResult, Settings, SettingsPatch } from "../contract/schemas/accounts";

export const ACCOUNT_ROUTES = [
  defineRoute({
    method: "GET", path: "account", permission: "authenticated", tag: "Accounts", operationId: "getAccount",
    summary: "The signed-in account", description: "Who the session or key belongs to (a database key included).",
    status: 200, response: Account,
    run: (ctx) => getCurrentAccount(ctx, {}),
  }),
  defineRoute({
    method: "GET", path: "accounts", permission: "operator", tag: "Accounts", operationId: "listAccounts",
    summary: "List accounts (operator)", description: "Every account of this install.",
    status: 200, response: z.array(Account),
    run: (ctx) => listAccounts(ctx, {}),
  }),
  defineRoute({
    method: "POST", path: "accounts", permission: "operator", tag: "Accounts", operationId: "addAccount",
    summary: "Add an account (operator)", description: "Creates an account that can sign in to the dashboard; an email already taken is 409.",
    body: AccountCreate, status: 201, response: Account, errors: ["conflict"],
    run: (ctx, { body }) => addAccount(ctx, { body }),
  }),
  defineRoute({
    method: "POST", path: "accounts/:account/disable", permission: "operator", tag: "Accounts", operationId: "disableAccount",
    summary: "Disable an account (operator)", description: "The account can no longer sign in, its sessions end and its keys are refused (403) on the management and data APIs, its databases' included. Its data stays. The operator's own account cannot be disabled (409).",
    status: 200, response: Account, errors: ["not_found", "conflict"],
    run: (ctx, { account }) => setAccountDisabled(ctx, { account, disabled: true }),
  }),
  defineRoute({
    method: "POST", path: "accounts/:account/enable", permission: "operator", tag: "Accounts", operationId: "enableAccount",
    summary: "Enable an account again (operator)", description: "Undoes a disable: the account signs in again and its keys work again.",
    status: 200, response: Account, errors: ["not_found"],
    run: (ctx, { account }) => setAccountDisabled(ctx, { account, disabled: false }),
  }),
  defineRoute({
    method: "POST", path: "accounts/:account/password", permission: "operator", tag: "Accounts", operationId: "resetAccountPassword",
    summary: "Reset an account's password (operator)", description: "Sets the password you give, or generates one and returns it in `generated_password` this once (it is stored only as a bcrypt hash). Every session of the account ends.",
    body: PasswordReset, status: 200, response: PasswordResetResult, errors: ["not_found"],
    run: (ctx, { account, body }) => resetAccountPassword(ctx, { account, body }),
  }),
  defineRoute({
    method: "PUT", path: "account/password", permission: "account:write", tag: "Accounts", operationId: "changeOwnPassword",
    summary: "Change your password", description: "Needs the current password: a wrong one is 422 naming `current_password`. Your other dashboard sessions end; the one that made the change stays signed in.",
    body: PasswordChange, status: 204,
    run: (ctx, { body }) => changeOwnPassword(ctx, { body }),
  }),
  defineRoute({
    method: "DELETE", path: "account/sessions", permission: "account:write", tag: "Accounts", operationId: "endAllSessions",
    summary: "Sign out everywhere", description: "Ends every dashboard session of your account, this one included. Secret keys are not sessions: revoke them separately.",
    status: 204,
    run: (ctx) => endAllSessions(ctx, {}),
  }),
  defineRoute({
    method: "GET", path: "settings", permission: "operator", tag: "Accounts", operationId: "getSettings",
    summary: "Install settings (operator)", description: "Who may create accounts.",
    status: 200, response: Settings,
    run: (ctx) => getSettings(ctx, {}),
  }),
  defineRoute({
    method: "PATCH", path: "settings", permission: "operator", tag: "Accounts", operationId: "updateSettings",
    summary: "Change install settings (operator)", description: "Opens or closes sign-up.",
    body: SettingsPatch, status: 200, response: Settings,
    run: (ctx, { body }) => updateSettings(ctx, { body }),
  }),
];

import { addAccount, getCurrentAccount, listAccounts } from "../auth/sign-up";
import { getSettings, updateSettings } from "../settings/update-settings";
import { z } from "zod";
import { defineRoute } from "./route";
import { Account, AccountCreate, Settings, SettingsPatch } from "./schemas/accounts";

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

// Accounts and install settings in the management API's OpenAPI document.
import type { ErrorResponseName } from "./shared-components";

type Json = Record<string, unknown>;
type Op = (method: string, path: string, spec: any) => Json;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const ACCOUNT_MANAGEMENT_SCHEMAS: Record<string, Json> = {
  Account: {
    type: "object",
    required: ["id", "email", "is_operator", "created_at"],
    properties: {
      id: { type: "integer" },
      email: { type: "string", format: "email" },
      is_operator: { type: "boolean", description: "The install's first account; it manages accounts and settings." },
      created_at: { type: "string", format: "date-time" },
    },
  },
  AccountCreate: {
    type: "object",
    required: ["email", "password"],
    additionalProperties: false,
    properties: { email: { type: "string", format: "email" }, password: { type: "string", minLength: 8, maxLength: 72 } },
  },
  Settings: {
    type: "object",
    required: ["signup"],
    additionalProperties: false,
    properties: {
      signup: { type: "string", enum: ["operator", "open"], description: "`operator`: only the operator adds accounts; `open`: anyone may sign up." },
    },
  },
};

const OPERATOR: ErrorResponseName[] = ["Forbidden"];

export const accountManagementPaths = (op: Op): Record<string, Json> => ({
  "/account": {
    get: op("get", "/account", {
      tag: "Accounts", operationId: "getAccount", summary: "The signed-in account",
      description: "Who the session or key belongs to.", status: "200", result: ref("Account"), errors: [],
    }),
  },
  "/accounts": {
    get: op("get", "/accounts", {
      tag: "Accounts", operationId: "listAccounts", summary: "List accounts (operator)",
      description: "Every account of this install.", status: "200", result: { type: "array", items: ref("Account") }, errors: OPERATOR,
    }),
    post: op("post", "/accounts", {
      tag: "Accounts", operationId: "addAccount", summary: "Add an account (operator)",
      description: "Creates an account that can sign in to the dashboard.", status: "201", result: ref("Account"),
      body: { schema: "AccountCreate", example: { email: "teammate@example.com", password: "correct horse battery" } },
      errors: [...OPERATOR, "Conflict", "ValidationFailed"],
    }),
  },
  "/settings": {
    get: op("get", "/settings", {
      tag: "Accounts", operationId: "getSettings", summary: "Install settings (operator)",
      description: "Who may create accounts.", status: "200", result: ref("Settings"), errors: OPERATOR,
    }),
    patch: op("patch", "/settings", {
      tag: "Accounts", operationId: "updateSettings", summary: "Change install settings (operator)",
      description: "Opens or closes sign-up.", status: "200", result: ref("Settings"),
      body: { schema: "Settings", example: { signup: "open" } }, errors: [...OPERATOR, "ValidationFailed"],
    }),
  },
});

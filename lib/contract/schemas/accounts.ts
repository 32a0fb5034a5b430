import { z } from "zod";
import { PASSWORD_MAX_BYTES } from "../../schema/value-checks";
import { component, rule, Timestamp } from "./common";
import { CreditBalances, Plan } from "./plans";

const SignupMode = z.enum(["operator", "open"]).meta({ description: "`operator`: only the operator adds accounts; `open`: anyone may sign up." });

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

const PASSWORD_RULE = `8 characters or more, and at most ${PASSWORD_MAX_BYTES} bytes in UTF-8 (bcrypt's limit): ${PASSWORD_MAX_BYTES} ASCII characters, fewer with accented letters or emoji.`;

/**
 * bcrypt reads a password's first 72 bytes, so a longer one is refused rather than cut. OpenAPI counts
 * characters: its maxLength is the bound every accepted password keeps (a character is one byte or more).
 */
const Password = (field: string) =>
  z
    .string()
    .min(8)
    .check(rule((v: string) => (utf8Bytes(v) > PASSWORD_MAX_BYTES ? { code: "too_long", message: `${field} is at most ${PASSWORD_MAX_BYTES} bytes in UTF-8 (bcrypt's limit)` } : undefined)))
    .meta({ maxLength: PASSWORD_MAX_BYTES, description: PASSWORD_RULE });

/** An account's email, stored trimmed and lowercased. */
const Email = z.string().trim().toLowerCase().max(255).check(z.email());

export const Account = component(
  "Account",
  z
    .object({
      id: z.int(),
      email: z.string().meta({ format: "email" }),
      is_operator: z.boolean().meta({ description: "The install's first account; it manages accounts and settings, and its plan is unlimited." }),
      created_at: Timestamp,
      disabled_at: Timestamp.nullable().meta({ description: "When the operator disabled the account (null: active). A disabled account cannot sign in and its keys are refused (403)." }),
      plan: Plan,
      usage: z
        .object({ databases: z.int(), invitees: z.int(), ai_calls_this_month: z.int(), storage_bytes: z.int().meta({ description: "Bytes of uploaded files the account's databases hold." }) })
        .meta({ description: "What counts against the plan now." }),
      limits: z
        .object({ databases: z.int().nullable() })
        .meta({ description: "Limits in force: the plan's, raised for good by the database credits spent on it; null = unlimited." }),
      credits: CreditBalances,
    })
    .meta({
      example: {
        id: 2,
        email: "teammate@example.com",
        is_operator: false,
        created_at: "2024-05-01T12:00:00.000Z",
        disabled_at: null,
        plan: { name: "free", max_databases: 2, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 10, requests_per_second: 10, max_webhooks_per_database: 3, storage_bytes: 104857600 },
        usage: { databases: 2, invitees: 0, ai_calls_this_month: 0, storage_bytes: 0 },
        limits: { databases: 3 },
        credits: { databases: 0, ai_calls: 0 },
      },
    }),
);

export const AccountCreate = component(
  "AccountCreate",
  z
    .strictObject({ email: Email, password: Password("password") })
    .meta({ example: { email: "teammate@example.com", password: "correct horse battery" } }),
);

export const PasswordReset = component(
  "PasswordReset",
  z
    .strictObject({ password: Password("password").optional().meta({ description: `The new password; omit it to have one generated (returned once). ${PASSWORD_RULE}` }) })
    .meta({ example: { password: "a new long password" } }),
);

export const PasswordResetResult = component(
  "PasswordResetResult",
  z
    .object({
      account: Account,
      generated_password: z.string().nullable().meta({ description: "The generated password, shown this once; null when you gave one." }),
    })
    .meta({ example: { account: Account.meta()?.example, generated_password: "hY3k-9QmZ-f2Lp-x8Wd" } }),
);

export const PasswordChange = component(
  "PasswordChange",
  z
    .strictObject({ current_password: z.string().min(1), new_password: Password("new_password") })
    .meta({ example: { current_password: "correct horse battery", new_password: "a new long password" } }),
);

export const Settings = component("Settings", z.object({ signup: SignupMode }).meta({ example: { signup: "operator" } }));

export const SettingsPatch = component("SettingsPatch", z.strictObject({ signup: SignupMode.optional() }).meta({ example: { signup: "open" } }));

export type Account = z.output<typeof Account>;
export type AccountCreate = z.input<typeof AccountCreate>;
export type NewAccount = z.output<typeof AccountCreate>;
export type Settings = z.output<typeof Settings>;
export type PasswordReset = z.input<typeof PasswordReset>;
export type PasswordResetResult = z.output<typeof PasswordResetResult>;
export type PasswordChange = z.input<typeof PasswordChange>;
export type SettingsPatch = z.input<typeof SettingsPatch>;
export type SignupMode = z.output<typeof SignupMode>;

import { z } from "zod";
import { component, rule, TableRecord } from "./common";

const MAX_TOKEN_TTL = 30 * 24 * 3600;
const ORIGIN_RE = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:]+\](:\d{1,5})?$/;

const Origin = z
  .string()
  .check(
    rule((o: string) =>
      o === "*" || ORIGIN_RE.test(o) ? undefined : { code: "invalid_format", message: 'must be an origin like "https://app.example.com" (scheme, host, optional port; no path) or "*"' },
    ),
  )
  .meta({ pattern: `^\\*$|${ORIGIN_RE.source}` });

const MAX_REFRESH_TTL = 365 * 24 * 3600;

// Where mailed links and OAuth sign-ins may send users: absolute http(s) URLs without a fragment.
const RedirectUrl = z
  .string()
  .max(2048)
  .check(
    rule((u: string) => {
      try {
        const url = new URL(u);
        if ((url.protocol === "https:" || url.protocol === "http:") && !url.hash && !url.username && !url.password) return undefined;
      } catch {
        /* reported below */
      }
      return { code: "invalid_format", message: 'must be an absolute http(s) URL without a fragment or credentials, like "https://app.example.com/auth/callback"' };
    }),
  );

const Provider = z
  .strictObject({
    id: z.enum(["google", "github", "oidc"]),
    name: z.string().min(1).max(100).optional().meta({ description: "The button's label; the provider's name when absent." }),
    client_id: z.string().min(1).max(500),
    client_secret: z.string().min(1).max(2000).optional().meta({
      description: 'Write-only: read back as "********". Left out (or sent back as the mask), the stored secret of the same provider is kept.',
    }),
    issuer: z.url({ protocol: /^https?$/ }).max(2048).optional().meta({ description: "The OpenID Connect issuer (required for `oidc`)." }),
  })
  .check((ctx) => {
    if (ctx.value.id === "oidc" && !ctx.value.issuer) ctx.issues.push({ code: "custom", message: '"issuer" is required for an oidc provider', input: ctx.value, path: ["issuer"], params: { code: "required" } });
  });

const TEMPLATE_TEXT = "Placeholders: `{{link}}`, `{{code}}` (one-time codes), `{{app}}` (the database's name).";
const MailTemplate = z
  .strictObject({
    subject: z.string().min(1).max(300),
    text: z.string().min(1).max(20_000).meta({ description: `The plain-text part (always sent). ${TEMPLATE_TEXT}` }),
    html: z.string().max(100_000).optional().meta({ description: "An HTML part beside the text; values put into it are HTML-escaped." }),
  })
  .meta({ description: TEMPLATE_TEXT });

const Emails = z
  .strictObject({
    from: z.string().min(3).max(320).optional().meta({ description: 'The sender, e.g. "My App <no-reply@example.com>"; the install\'s MAIL_FROM when absent.' }),
    verify: MailTemplate.optional(),
    reset: MailTemplate.optional(),
    otp: MailTemplate.optional(),
  })
  .meta({ description: "The sender and mail templates of this database's users; each absent template takes the built-in text." });

const AUTH_EXAMPLE = {
  enabled: true,
  users_table: "users",
  login_column: "email",
  password_column: "password",
  token_ttl_seconds: 3600,
  signup: false,
  cors_origins: ["https://app.example.com"],
  email_column: null,
  verification: "off",
  redirect_urls: ["https://app.example.com/auth/callback"],
  providers: [],
  mfa: "off",
  refresh_ttl_seconds: 2592000,
  emails: { from: "My App <no-reply@example.com>" },
};

const authProperties = {
  enabled: z.boolean().meta({ default: false }),
  users_table: z.string().meta({ default: "users" }),
  login_column: z.string().meta({ default: "email", description: "A unique varchar or text column (email or username)." }),
  password_column: z.string().meta({ default: "password", description: "A column of type password." }),
  token_ttl_seconds: z.int().min(1).max(MAX_TOKEN_TTL).meta({ default: 3600 }),
  signup: z.boolean().meta({ default: false, description: "Whether `POST /v1/{instance}/auth/signup` is open." }),
  cors_origins: z
    .array(Origin)
    .max(100)
    .meta({ default: [], description: 'Origins (scheme://host[:port]) or "*" allowed by CORS.' }),
  email_column: z
    .string()
    .nullable()
    .meta({ default: null, description: "The users table's column holding the address mails go to; null: the login column." }),
  verification: z.enum(["off", "required"]).meta({ default: "off", description: "`required`: users cannot log in until they confirm their email." }),
  redirect_urls: z
    .array(RedirectUrl)
    .max(50)
    .meta({ default: [], description: "Where mailed links and OAuth sign-ins may send users; a `redirect_to` outside this list is a 422." }),
  providers: z.array(Provider).max(20).meta({ default: [], description: "OAuth 2.0 / OpenID Connect providers users may sign in with." }),
  mfa: z.enum(["off", "optional", "required"]).meta({ default: "off", description: "TOTP second factor: off, optional per user, or required of every user." }),
  refresh_ttl_seconds: z.int().min(60).max(MAX_REFRESH_TTL).meta({ default: 2592000, description: "How long a refresh token stays usable (30 days by default)." }),
  emails: Emails.meta({ default: {} }),
};

export const AuthSettings = component(
  "AuthSettings",
  z.object(authProperties).meta({ description: "Database auth settings (never the signing secret).", example: AUTH_EXAMPLE }),
);

export const AuthSettingsInput = component(
  "AuthSettingsInput",
  z.strictObject(authProperties).partial().meta({
    description: "PUT replaces the whole object; omitted fields take their defaults. The users table and its columns are checked when enabled.",
    example: AUTH_EXAMPLE,
  }),
);

const POLICY = z.string().max(2000).nullable().optional().meta({ description: "An expression, `true` for every row, or null: denied to JWT users." });
const POLICIES_EXAMPLE = { select: "published = true or owner_id = auth.id", insert: "owner_id = auth.id", update: "owner_id = auth.id", delete: null };

// Loose on purpose: an unknown action goes on to the service, which lists it beside the policies' own
// parse errors in one 422 (it is refused all the same, hence additionalProperties: false in the docs).
export const PoliciesInput = component(
  "PoliciesInput",
  z
    .looseObject({ select: POLICY, insert: POLICY, update: POLICY, delete: POLICY })
    .meta({ additionalProperties: false, description: "Row Level Security policies of one table, per action. PUT replaces all four.", example: POLICIES_EXAMPLE }),
);

const POLICY_VIEW = z.string().nullable();
export const Policies = component(
  "Policies",
  z.object({ select: POLICY_VIEW, insert: POLICY_VIEW, update: POLICY_VIEW, delete: POLICY_VIEW }).meta({ example: POLICIES_EXAMPLE }),
);

export const Impersonate = component("Impersonate", z.strictObject({ user_id: z.int().min(1) }).meta({ example: { user_id: 1 } }));

export const TestAsUserInput = component(
  "TestAsUserInput",
  z
    .strictObject({
      user_id: z.int().min(1),
      table: z.string(),
      query: z.string().optional().meta({
        description: "A data API query string for the rows to show: filters, `_or`, `_sort`, `_limit` (default 100), `_offset`. A bad one is a 422 naming `query`.",
      }),
    })
    .meta({ example: { user_id: 1, table: "notes", query: "rank_gte=2&_sort=-rank&_limit=25&_offset=0" } }),
);

const Verdict = z.enum(["allowed", "denied"]);

export const TestAsUserResult = component(
  "TestAsUserResult",
  z.object({
    actions: z
      .object({ select: Verdict, insert: Verdict, update: Verdict, delete: Verdict })
      .meta({ description: "Each action: `allowed` (on rows matching its policy) or `denied` (403)." }),
    total: z.int().meta({ description: "How many rows the user can see that match the query's filters." }),
    rows: z
      .array(z.object({ record: TableRecord, update: z.boolean(), delete: z.boolean() }))
      .meta({ description: "The page of visible rows `query` asks for (the first 100 without one), each with whether the user may update and delete it." }),
  }),
);

export const UserToken = component(
  "UserToken",
  z.object({ token: z.string(), token_type: z.literal("Bearer"), expires_in: z.int(), user: TableRecord }),
);

export type MailTemplate = z.output<typeof MailTemplate>;
export type AuthEmails = z.output<typeof Emails>;
export type AuthProvider = z.output<typeof Provider>;

export type AuthSettings = z.output<typeof AuthSettings>;
export type AuthSettingsInput = z.input<typeof AuthSettingsInput>;
export type Policies = z.output<typeof Policies>;
export type PolicyAction = keyof Policies;
export type TestAsUserResult = z.output<typeof TestAsUserResult>;
export type UserToken = z.output<typeof UserToken>;

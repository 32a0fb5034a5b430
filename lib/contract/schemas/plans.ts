import { z } from "zod";
import { CREDIT_KINDS, LEDGER_ENTRIES } from "../../credits/ledger-kinds";
import { MEMBER_ROLES, PLAN_NAME_RE } from "../../plans/default-plans";
import { component, Timestamp } from "./common";

const Limit = (what: string) => z.int().min(0).max(1_000_000_000).nullable().meta({ description: `${what}; null = unlimited.` });

const PlanLimits = {
  max_databases: Limit("Databases the account may own"),
  max_invitees: Limit("Members plus pending invites of the account's workspace"),
  roles: z.array(z.enum(MEMBER_ROLES)).max(MEMBER_ROLES.length).meta({ description: "The member roles the account may give." }),
  custom_domain: z.boolean().meta({ description: "Whether API docs may be served on the account's own domain." }),
  ai_calls_per_month: Limit("Agentic AI calls each calendar month (UTC) before AI credits are used"),
  requests_per_second: Limit("Data-API requests per second for all the account's databases together (burst: one second's worth)"),
  // Optional on PUT (omitted: unlimited), so a body written before this limit existed still fits.
  max_webhooks_per_database: Limit("Webhooks each of the account's databases may have").default(null),
  // Optional on PUT like the webhook cap; bytes, so past Limit's range.
  storage_bytes: z.int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().default(null).meta({ description: "Bytes of uploaded files across all the account's databases; null = unlimited." }),
};

const FREE = { max_databases: 2, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 10, requests_per_second: 10, max_webhooks_per_database: 3, storage_bytes: 104857600 };

export const PlanName = z
  .string()
  .regex(PLAN_NAME_RE, "must be 1 to 32 lowercase letters, digits, - or _, starting with a letter")
  .meta({ description: "The plan's name, e.g. `free`." });

export const Plan = component("Plan", z.object({ name: z.string(), ...PlanLimits }).meta({ example: { name: "free", ...FREE } }));

export const PlanPut = component(
  "PlanPut",
  z.strictObject(PlanLimits).meta({ example: { ...FREE, max_databases: 5, requests_per_second: 20 } }),
);

export const AccountPlanPatch = component(
  "AccountPlanPatch",
  z.strictObject({ plan: PlanName }).meta({ example: { plan: "pro" } }),
);

const CreditKind = z.enum(CREDIT_KINDS).meta({ description: "`databases`: raises the database limit by one for good; `ai_calls`: pays one agentic call past the month's allowance." });

const Source = z.string().min(1).max(191).meta({ description: "The purchase these credits come from; the same source grants once." });

export const CreditGrantCreate = component(
  "CreditGrantCreate",
  z
    .strictObject({
      kind: CreditKind,
      amount: z.int().min(1).max(1_000_000),
      source: Source.optional(),
      note: z.string().max(255).optional(),
    })
    .meta({ example: { kind: "databases", amount: 1, source: "order_1042" } }),
);

export const BillingWebhook = component(
  "BillingWebhook",
  z
    .strictObject({
      account: z.union([z.int().min(1), z.email()]).meta({ description: "The account's id or email." }),
      kind: CreditKind,
      amount: z.int().min(1).max(1_000_000),
      source: Source.meta({ description: "The purchase (e.g. the payment id); required here, so a replayed call grants once." }),
      note: z.string().max(255).optional(),
    })
    .meta({ example: { account: "buyer@example.com", kind: "ai_calls", amount: 100, source: "pi_3Nq8" } }),
);

export const LedgerEntry = component(
  "LedgerEntry",
  z
    .object({
      id: z.int(),
      kind: CreditKind,
      entry: z.enum(LEDGER_ENTRIES).meta({ description: "`grant` adds; `hold` reserves before an AI call; `spend` uses (settling a hold, or at once); `release` gives a hold back." }),
      amount: z.int(),
      delta: z.int().meta({ description: "What the entry did to the balance." }),
      source: z.string().nullable(),
      hold_id: z.int().nullable().meta({ description: "The hold a spend or release settles." }),
      note: z.string().nullable(),
      actor: z.string().meta({ description: "`account:<id>`, `webhook` or `system`." }),
      created_at: Timestamp,
    })
    .meta({
      example: { id: 3, kind: "databases", entry: "grant", amount: 1, delta: 1, source: "order_1042", hold_id: null, note: null, actor: "account:1", created_at: "2024-05-01T12:00:00.000Z" },
    }),
);

export const CreditBalances = component(
  "CreditBalances",
  z.object({ databases: z.int(), ai_calls: z.int() }).meta({ description: "Credits left; they never expire while the account is active.", example: { databases: 1, ai_calls: 0 } }),
);

export const CreditGrant = component(
  "CreditGrant",
  z
    .object({
      account: z.int(),
      entry: LedgerEntry,
      duplicate: z.boolean().meta({ description: "True when this source was granted before: nothing was added, `entry` is the first grant." }),
      balances: CreditBalances,
    })
    .meta({
      example: {
        account: 2,
        entry: { id: 3, kind: "databases", entry: "grant", amount: 1, delta: 1, source: "order_1042", hold_id: null, note: null, actor: "account:1", created_at: "2024-05-01T12:00:00.000Z" },
        duplicate: false,
        balances: { databases: 1, ai_calls: 0 },
      },
    }),
);

export const CreditLedger = component(
  "CreditLedger",
  z.object({ balances: CreditBalances, entries: z.array(LedgerEntry).meta({ description: "Newest first." }) }),
);

export type Plan = z.output<typeof Plan>;
export type PlanPut = z.input<typeof PlanPut>;
export type CreditGrantCreate = z.input<typeof CreditGrantCreate>;
export type CreditGrant = z.output<typeof CreditGrant>;
export type CreditLedger = z.output<typeof CreditLedger>;
export type LedgerEntry = z.output<typeof LedgerEntry>;

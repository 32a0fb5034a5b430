// The one metering point: a management route declares `quota: <kind>`; the kernel (handleManagementRequest)
// puts a meter on the route's ctx, and the service's metadata transaction (transact) applies it first, so the
// count and the write it guards commit together. Teams add invitees, the AI builder its calls: one row each.
import type { Kysely, Transaction } from "kysely";
import type { App } from "../app-type";
import type { MetaDb } from "../db/meta-schema";
import { ApiError } from "../errors";
import { type CreditKind, creditBalances, directSpends, lockAccount, spendCredits } from "../credits/ledger";
import type { MemberRole, Plan } from "./default-plans";
import { effectivePlan } from "./effective-plan";
import type { Meter, QuotaOutcome } from "./meter";

type Trx = Transaction<MetaDb>;

/**
 * What each quota reads of its route's parsed input. A route declaring `quota: kind` must have this input
 * (lib/mgmt/route.ts checks it at compile time), so no check reads the raw body.
 */
export type QuotaInputs = {
  invitees: { body: { role: MemberRole; max_uses?: number } };
  member_role: { body: { role: MemberRole } };
  ai_calls: unknown;
  custom_domain: { body: { domain?: string | null } };
  webhooks: { instance: string };
  databases: unknown;
};

type Quota<Input> = {
  /** A plan feature the request needs (a role it may give): a refusal, or undefined when the plan allows it. */
  allows?: (plan: Plan, input: Input) => { message: string; limit: number; kind?: string } | undefined;
  /** The plan's limit; null is unlimited. Absent: a feature check only. */
  limit?: (plan: Plan) => number | null;
  /** How many uses the request takes (an invite with max_uses 3 holds three seats); 1 when absent. */
  amount?: (input: Input) => number;
  /** What counts against the limit now (`input`: the request's, for a limit per database). */
  used: (db: Kysely<MetaDb>, accountId: number, input: Input) => Promise<number>;
  /** The credit that pays past the limit, if there is one. */
  credit?: CreditKind;
  /** `raise` (default): spending one raises the limit by one for good. `hold`: the request holds one, its service settles it. */
  creditMode?: "raise" | "hold";
  /** Uses that cost nothing (the offline AI planner). */
  free?: (app: App) => boolean;
  /** "databases" in "Your free plan allows 2 databases", and its singular. */
  noun: string;
  one: string;
  /** What the caller can do about it. */
  advice: string;
  /** What holds the uses, in "and this account has 2"; "this account" when absent. */
  holder?: string;
};

/** The roles a plan lets its owner give; a refusal names them. */
const roleAllowed = (plan: Plan, { body: { role } }: { body: { role: MemberRole } }) => {
  if (plan.roles.includes(role)) return undefined;
  const allowed = plan.roles.length ? plan.roles.join(", ") : "none";
  return { message: `Your ${plan.name} plan does not let you give the ${role} role (it allows: ${allowed}). Ask the operator of this install for a larger plan.`, limit: plan.roles.length };
};

export const QUOTAS = {
  invitees: {
    allows: roleAllowed,
    limit: (plan) => plan.max_invitees,
    amount: (input) => input.body.max_uses ?? 1,
    used: async (db, ownerId) => {
      const members = await db.selectFrom("members").select((eb) => eb.fn.countAll<number | string>().as("n")).where("owner_id", "=", ownerId).executeTakeFirst();
      const seats = await db
        .selectFrom("invites")
        .select((eb) => eb.fn.sum<number | string | null>(eb("max_uses", "-", eb.ref("uses"))).as("n"))
        .where("owner_id", "=", ownerId)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", new Date().toISOString())
        .executeTakeFirst();
      return Number(members?.n ?? 0) + Number(seats?.n ?? 0);
    },
    noun: "invitees",
    one: "invitee",
    advice: "Revoke a pending invite, remove a member, or ask the operator of this install for a larger plan.",
  },
  member_role: {
    allows: roleAllowed,
    used: async () => 0,
    noun: "roles",
    one: "role",
    advice: "Ask the operator of this install for a larger plan.",
  },
  ai_calls: {
    limit: (plan) => plan.ai_calls_per_month,
    used: async (db, ownerId) => {
      const month = new Date().toISOString().slice(0, 7);
      const row = await db
        .selectFrom("ai_builds")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("owner_id", "=", ownerId)
        .where("charge", "=", "allowance")
        .where("credit", "!=", "released")
        .where("created_at", ">=", `${month}-01`)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    credit: "ai_calls",
    creditMode: "hold",
    free: (app) => !app.config.ai,
    noun: "AI calls this month",
    one: "AI call this month",
    advice: "Wait for next month, buy AI-call credits, or ask the operator of this install for a larger plan.",
  },
  /** Setting a custom docs domain (a body with a `domain`); removing one is always allowed. */
  custom_domain: {
    allows: (plan, input) =>
      typeof input.body.domain === "string" && !plan.custom_domain
        ? { kind: "custom_domain", limit: 0, message: `Your ${plan.name} plan does not include custom domains for the API docs. Ask the operator of this install for a plan with custom domains.` }
        : undefined,
    used: async () => 0,
    noun: "custom domains",
    one: "custom domain",
    advice: "Ask the operator of this install for a plan with custom domains.",
  },
  /** Webhooks of the database in the path (`input.instance`), capped per database. */
  webhooks: {
    limit: (plan) => plan.max_webhooks_per_database,
    used: async (db, _ownerId, input) => {
      const row = await db
        .selectFrom("webhooks")
        .innerJoin("databases", "databases.id", "webhooks.database_id")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("databases.instance", "=", input.instance)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    noun: "webhooks per database",
    one: "webhook per database",
    holder: "this database",
    advice: "Delete a webhook of this database, or ask the operator of this install for a larger plan.",
  },
  databases: {
    limit: (plan) => plan.max_databases,
    used: async (db, accountId) => {
      const row = await db.selectFrom("databases").select((eb) => eb.fn.countAll<number | string>().as("n")).where("owner_id", "=", accountId).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    credit: "databases",
    noun: "databases",
    one: "database",
    advice: "Delete a database, add a database credit, or ask the operator of this install for a larger plan.",
  },
} satisfies { [K in keyof QuotaInputs]: Quota<QuotaInputs[K]> };

export type QuotaKind = keyof QuotaInputs;

/**
 * Checks one more use of `kind` for the account, inside the writing transaction: locks the account (so
 * concurrent requests queue here), then allows it under the plan's limit plus the credits already spent on
 * raising it, or spends one credit to raise it for good, or refuses with 402 quota_exceeded.
 */
const checkQuota = async <K extends QuotaKind>(trx: Trx, kind: K, accountId: number, actor: string, input: QuotaInputs[K], app?: App): Promise<QuotaOutcome> => {
  const quota = QUOTAS[kind] as Quota<QuotaInputs[K]>;
  if (app && quota.free?.(app)) return "free";
  await lockAccount(trx, accountId);
  const plan = await effectivePlan(trx, accountId);
  const refusal = quota.allows?.(plan, input);
  if (refusal) throw new ApiError("quota_exceeded", refusal.message, { quota: { kind: refusal.kind ?? "roles", limit: refusal.limit, used: 0, credits: 0 } });
  const base = quota.limit?.(plan) ?? null;
  if (base === null) return "allowance";
  const need = quota.amount?.(input) ?? 1;
  const used = await quota.used(trx, accountId, input);
  const raised = quota.credit ? await directSpends(trx, accountId, quota.credit) : 0;
  const limit = base + raised;
  if (used + need <= limit) return "allowance";
  const credits = quota.credit ? (await creditBalances(trx, accountId))[quota.credit] : 0;
  if (quota.credit && need === 1 && credits > 0) {
    if (quota.creditMode === "hold") return "credit";
    await spendCredits(trx, { accountId, kind: quota.credit, amount: 1, note: `${quota.noun} limit raised to ${limit + 1}`, actor });
    return "allowance";
  }
  const withCredits = raised ? ` (${limit} with the credits already used)` : "";
  const asked = need > 1 ? `; this asks for ${need} more` : "";
  throw new ApiError("quota_exceeded", `Your ${plan.name} plan allows ${base} ${base === 1 ? quota.one : quota.noun}${withCredits} and ${quota.holder ?? "this account"} has ${used}${asked}. ${quota.advice}`, {
    quota: { kind, limit, used, credits },
  });
};

/** A quota that reads no input may be metered without it (the AI builder's database creates). */
type MeterArgs<K extends QuotaKind> = unknown extends QuotaInputs[K] ? [input?: QuotaInputs[K], app?: App] : [input: QuotaInputs[K], app?: App];

/** The meter of one request: the service's transaction applies it once, first thing. */
export const quotaMeter = <K extends QuotaKind>(kind: K, accountId: number, actor: string, ...[input, app]: MeterArgs<K>): Meter => {
  let applied = false;
  let outcome: QuotaOutcome | undefined;
  return {
    apply: async (trx) => {
      if (applied) return;
      applied = true;
      outcome = await checkQuota(trx, kind, accountId, actor, input as QuotaInputs[K], app);
    },
    reset: () => {
      applied = false;
      outcome = undefined;
    },
    get applied() {
      return applied;
    },
    get outcome() {
      return outcome;
    },
  };
};

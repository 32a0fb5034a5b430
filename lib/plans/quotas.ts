// The one metering point: a management route declares `quota: <kind>`; the kernel (handleManagementRequest)
// puts a meter on the route's ctx, and the service's metadata transaction (transact) applies it first, so the
// count and the write it guards commit together. Teams add invitees, the AI builder its calls: one row each.
import type { Kysely, Transaction } from "kysely";
import type { MetaDb } from "../db/meta-schema";
import { ApiError } from "../errors";
import { type CreditKind, creditBalances, directSpends, lockAccount, spendCredits } from "../credits/ledger";
import type { Plan } from "./default-plans";
import { effectivePlan } from "./plans";

type Trx = Transaction<MetaDb>;

type Quota = {
  /** The plan's limit; null is unlimited. */
  limit: (plan: Plan) => number | null;
  /** What counts against the limit now. */
  used: (db: Kysely<MetaDb>, accountId: number) => Promise<number>;
  /** The credit that raises the limit by one for good when it is reached, if there is one. */
  credit?: CreditKind;
  /** "databases" in "Your free plan allows 2 databases", and its singular. */
  noun: string;
  one: string;
  /** What the caller can do about it. */
  advice: string;
};

export const QUOTAS = {
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
} satisfies Record<string, Quota>;

export type QuotaKind = keyof typeof QUOTAS;

/**
 * Checks one more use of `kind` for the account, inside the writing transaction: locks the account (so
 * concurrent requests queue here), then allows it under the plan's limit plus the credits already spent on
 * raising it, or spends one credit to raise it for good, or refuses with 402 quota_exceeded.
 */
export const checkQuota = async (trx: Trx, kind: QuotaKind, accountId: number, actor: string) => {
  await lockAccount(trx, accountId);
  const quota: Quota = QUOTAS[kind];
  const plan = await effectivePlan(trx, accountId);
  const base = quota.limit(plan);
  if (base === null) return;
  const used = await quota.used(trx, accountId);
  const raised = quota.credit ? await directSpends(trx, accountId, quota.credit) : 0;
  const limit = base + raised;
  if (used < limit) return;
  const credits = quota.credit ? (await creditBalances(trx, accountId))[quota.credit] : 0;
  if (quota.credit && credits > 0) {
    await spendCredits(trx, { accountId, kind: quota.credit, amount: 1, note: `${quota.noun} limit raised to ${limit + 1}`, actor });
    return;
  }
  const withCredits = raised ? ` (${limit} with the credits already used)` : "";
  throw new ApiError("quota_exceeded", `Your ${plan.name} plan allows ${base} ${base === 1 ? quota.one : quota.noun}${withCredits} and this account has ${used}. ${quota.advice}`, {
    quota: { kind, limit, used, credits },
  });
};

export type Meter = { apply: (trx: Trx) => Promise<void>; readonly applied: boolean };

/** The meter of one request: the service's transaction applies it once, first thing. */
export const quotaMeter = (kind: QuotaKind, accountId: number, actor: string): Meter => {
  let applied = false;
  return {
    apply: async (trx) => {
      if (applied) return;
      applied = true;
      await checkQuota(trx, kind, accountId, actor);
    },
    get applied() {
      return applied;
    },
  };
};

import type { App } from "../../app-type";
import { storageUsed } from "../../api/files/storage-usage";
import { creditBalances, directSpends } from "../../credits/ledger";
import { effectivePlan } from "../../plans/effective-plan";
import { QUOTAS } from "../../plans/quotas";

export const ACCOUNT_COLUMNS = ["id", "email", "is_operator", "created_at", "disabled_at"] as const;

type AccountRow = { id: number; email: string; is_operator: number; created_at: string; disabled_at: string | null };

/**
 * An account as the management API shows it: its plan in force, what counts against the plan, the limits in
 * force (the plan's raised by the credits spent on them), and its credit balances. Invitees are members plus
 * unused invite seats; AI calls are this month's builds paid by the allowance (not released ones).
 */
export const accountView = async (app: App, row: AccountRow) => {
  const meta = app.engine.meta;
  const [plan, databases, invitees, aiCalls, credits, raised, storage] = await Promise.all([
    effectivePlan(meta, row.id),
    QUOTAS.databases.used(meta, row.id),
    QUOTAS.invitees.used(meta, row.id),
    QUOTAS.ai_calls.used(meta, row.id),
    creditBalances(meta, row.id),
    directSpends(meta, row.id, "databases"),
    storageUsed(app, row.id),
  ]);
  return {
    id: row.id,
    email: row.email,
    is_operator: row.is_operator === 1,
    created_at: row.created_at,
    disabled_at: row.disabled_at,
    plan,
    usage: { databases, invitees, ai_calls_this_month: aiCalls, storage_bytes: storage },
    limits: { databases: plan.max_databases === null ? null : plan.max_databases + raised },
    credits,
  };
};

/** One account by id, as the API shows it. */
export const readAccount = async (app: App, accountId: number) =>
  accountView(app, await app.engine.meta.selectFrom("accounts").select(ACCOUNT_COLUMNS).where("id", "=", accountId).executeTakeFirstOrThrow());

import type { Kysely, Selectable, Transaction } from "kysely";
import type { MetaDb, PlansTable } from "../db/meta-schema";
import { invalidField, notFound } from "../errors";
import { type Ctx, nowIso } from "../meta/context";
import { commitMeta } from "../meta/commit-meta";
import type { Plan } from "./default-plans";
import { PLAN_NAME_RE, UNLIMITED_PLAN } from "./default-plans";
import { readAccount } from "./account-view";
import { pathId } from "../http/path-id";

type MetaReader = Kysely<MetaDb> | Transaction<MetaDb>;

export const planFromRow = (row: Selectable<PlansTable>): Plan => ({
  name: row.name,
  max_databases: row.max_databases,
  max_invitees: row.max_invitees,
  roles: JSON.parse(row.roles),
  custom_domain: row.custom_domain === 1,
  ai_calls_per_month: row.ai_calls_per_month,
  requests_per_second: row.requests_per_second,
  max_webhooks_per_database: row.max_webhooks_per_database,
});

const planRow = (plan: Plan) => ({
  max_databases: plan.max_databases,
  max_invitees: plan.max_invitees,
  roles: JSON.stringify(plan.roles),
  custom_domain: plan.custom_domain ? 1 : 0,
  ai_calls_per_month: plan.ai_calls_per_month,
  requests_per_second: plan.requests_per_second,
  max_webhooks_per_database: plan.max_webhooks_per_database,
  updated_at: nowIso(),
});

/** The plan in force for an account: the one its row names, or unlimited for the operator. */
export const effectivePlan = async (db: MetaReader, accountId: number): Promise<Plan> => {
  const row = await db
    .selectFrom("accounts")
    .leftJoin("plans", "plans.name", "accounts.plan")
    .selectAll("plans")
    .select(["accounts.is_operator", "accounts.plan as account_plan"])
    .where("accounts.id", "=", accountId)
    .executeTakeFirst();
  if (!row) throw notFound(`Account ${accountId} was not found.`);
  if (row.is_operator === 1) return UNLIMITED_PLAN;
  // A plan row cannot be deleted, so a missing one means the install's data was edited by hand: limit to nothing.
  if (row.name === null) return { ...UNLIMITED_PLAN, name: row.account_plan, max_databases: 0, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 0, requests_per_second: 0, max_webhooks_per_database: 0 };
  return planFromRow(row as Selectable<PlansTable>);
};

export const planExists = async (db: MetaReader, name: string) =>
  !!(await db.selectFrom("plans").select("name").where("name", "=", name).executeTakeFirst());

export const listPlans = async (ctx: Ctx, _input: Record<string, never>) => {
  const rows = await ctx.app.engine.meta.selectFrom("plans").selectAll().orderBy("name").execute();
  return rows.map(planFromRow);
};

export type PutPlanInput = { plan: string; body: Omit<Plan, "name"> };

/** PUT /plans/{name}: creates or replaces a plan; accounts on it get the new limits at their next request. */
export const putPlan = async (ctx: Ctx, { plan: name, body }: PutPlanInput) => {
  if (!PLAN_NAME_RE.test(name)) throw invalidField("name", "invalid_name", "a plan name is 1 to 32 lowercase letters, digits, - or _, starting with a letter");
  const plan: Plan = { ...body, name };
  await commitMeta(ctx, { kind: "plans" }, async (trx) => {
    if (await planExists(trx, name)) await trx.updateTable("plans").set(planRow(plan)).where("name", "=", name).execute();
    else await trx.insertInto("plans").values({ name, ...planRow(plan) }).execute();
  });
  return plan;
};

export type SetAccountPlanInput = { account: string; body: { plan: string } };

/** PATCH /accounts/{id}: moves an account to another plan (operator); returns the account as the API shows it. */
export const setAccountPlan = async (ctx: Ctx, { account, body }: SetAccountPlanInput) => {
  const accountId = pathId(account, `Account ${account} was not found.`);
  await commitMeta(ctx, { kind: "plans" }, async (trx) => {
    if (!(await planExists(trx, body.plan))) throw invalidField("plan", "unknown_plan", `there is no plan "${body.plan}"`);
    const exists = await trx.selectFrom("accounts").select("id").where("id", "=", accountId).executeTakeFirst();
    if (!exists) throw notFound(`Account ${account} was not found.`);
    await trx.updateTable("accounts").set({ plan: body.plan }).where("id", "=", accountId).execute();
  });
  return readAccount(ctx.app.engine.meta, accountId);
};

import { type Ctx, nowIso } from "../../meta/context";
import { commitMeta } from "../../meta/commit-meta";
import type { Plan } from "../../plans/default-plans";
import { planExists } from "../../plans/effective-plan";

export type PutPlanInput = { plan: string; body: Omit<Plan, "name"> };

const planRow = (plan: Plan) => ({
  max_databases: plan.max_databases,
  max_invitees: plan.max_invitees,
  roles: JSON.stringify(plan.roles),
  custom_domain: plan.custom_domain ? 1 : 0,
  ai_calls_per_month: plan.ai_calls_per_month,
  requests_per_second: plan.requests_per_second,
  max_webhooks_per_database: plan.max_webhooks_per_database,
  storage_bytes: plan.storage_bytes,
  updated_at: nowIso(),
});

/** PUT /plans/{name}: creates or replaces a plan; accounts on it get the new limits at their next request. */
export const putPlan = async (ctx: Ctx, { plan: name, body }: PutPlanInput) => {
  const plan: Plan = { ...body, name };
  await commitMeta(ctx, { kind: "plans" }, async (trx) => {
    if (await planExists(trx, name)) await trx.updateTable("plans").set(planRow(plan)).where("name", "=", name).execute();
    else await trx.insertInto("plans").values({ name, ...planRow(plan) }).execute();
  });
  return plan;
};

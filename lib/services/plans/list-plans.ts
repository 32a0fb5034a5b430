import type { Ctx } from "../../meta/context";
import { planFromRow } from "../../plans/effective-plan";

export type ListPlansInput = Record<string, never>;

/** GET /plans: every plan of this install, by name. */
export const listPlans = async (ctx: Ctx, _input: ListPlansInput) => {
  const rows = await ctx.app.engine.meta.selectFrom("plans").selectAll().orderBy("name").execute();
  return rows.map(planFromRow);
};

// GET /ai/planner: who plans a build here, so the dashboard can say so before anyone applies a plan.
import type { Ctx } from "../meta/context";

/** The configured model's name, or the offline planner when AI_BASE_URL is unset. Never the endpoint or key. */
export const getPlanner = async (ctx: Ctx) => {
  const ai = ctx.app.config.ai;
  return { offline: !ai, model: ai?.model ?? null };
};

import type { MemberRole, Plan, PlanPut } from "../api/types";
import { type LimitKey, PLAN_LIMITS } from "./plan-wording";

/** One limit as the form holds it: the typed text, or unlimited. */
export type LimitDraft = { text: string; unlimited: boolean };

export type PlanDraft = { limits: Record<LimitKey, LimitDraft>; roles: MemberRole[]; custom_domain: boolean };

export const draftOf = (plan: PlanPut | Plan): PlanDraft => ({
  limits: Object.fromEntries(
    PLAN_LIMITS.map(({ key }) => [key, { text: plan[key] === null ? "" : String(plan[key]), unlimited: plan[key] === null }]),
  ) as PlanDraft["limits"],
  roles: [...plan.roles],
  custom_domain: plan.custom_domain,
});

/**
 * The PUT body of a draft, or the fields to fix first. A blank or non-whole number must be caught here:
 * JSON would send it as null, which means unlimited.
 */
export const readDraft = (draft: PlanDraft): { body: PlanPut; problems?: undefined } | { body?: undefined; problems: Record<string, string> } => {
  const problems: Record<string, string> = {};
  const limits = {} as Record<LimitKey, number | null>;
  for (const { key } of PLAN_LIMITS) {
    const { text, unlimited } = draft.limits[key];
    if (unlimited) limits[key] = null;
    else if (/^\d{1,10}$/.test(text.trim())) limits[key] = Number(text.trim());
    else problems[key] = "Enter a whole number (0 or more), or tick Unlimited.";
  }
  if (Object.keys(problems).length) return { problems };
  return { body: { ...limits, roles: draft.roles, custom_domain: draft.custom_domain } };
};

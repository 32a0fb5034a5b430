import type { CreditKind, Plan } from "../api/types";

/** How the dashboard names each credit kind (and each quota kind: they are the same words). */
export const KIND_NOUNS: Record<CreditKind, { one: string; many: string; title: string }> = {
  databases: { one: "database", many: "databases", title: "Databases" },
  ai_calls: { one: "AI call", many: "AI calls", title: "AI calls" },
};

/** "database" or "databases" for a count; an unknown kind is shown as the API names it. */
export const nounOf = (kind: string, n: number | null) => {
  const noun = KIND_NOUNS[kind as CreditKind] ?? { one: kind, many: kind };
  return n === 1 ? noun.one : noun.many;
};

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** "1 database credit", "3 AI call credits". */
export const creditsOf = (n: number, kind: string) => plural(n, `${nounOf(kind, 1)} credit`);

/** A limit as text: null is unlimited. */
export const limitText = (limit: number | null) => (limit === null ? "unlimited" : limit.toLocaleString());

export type LimitKey = "max_databases" | "max_invitees" | "ai_calls_per_month" | "requests_per_second" | "max_webhooks_per_database";

/** The numeric limits of a plan, in the order the pages show them. */
export const PLAN_LIMITS: { key: LimitKey; label: string; hint: string }[] = [
  { key: "max_databases", label: "Databases", hint: "Databases an account may own; each database credit adds one." },
  { key: "max_invitees", label: "Invitees", hint: "Members plus pending invites of its workspace." },
  { key: "ai_calls_per_month", label: "AI calls per month", hint: "Per calendar month (UTC); AI credits pay for more." },
  { key: "requests_per_second", label: "Requests per second", hint: "Data API, all the account's databases together." },
  { key: "max_webhooks_per_database", label: "Webhooks per database", hint: "Webhooks each of the account's databases may have." },
];

export const rolesText = (roles: Plan["roles"]) => (roles.length ? roles.join(", ") : "none");

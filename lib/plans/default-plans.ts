// The plans an install starts with (docs/api.md, Plans). The operator edits them through PUT /api/v1/plans/{name}.

export const MEMBER_ROLES = ["viewer", "editor", "admin"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const PLAN_NAME_RE = /^[a-z][a-z0-9_-]{0,31}$/;

/** A plan as the API shows it; null is unlimited. */
export type Plan = {
  name: string;
  max_databases: number | null;
  max_invitees: number | null;
  /** The member roles an account on this plan may give. */
  roles: MemberRole[];
  custom_domain: boolean;
  ai_calls_per_month: number | null;
  /** Data-API requests per second for all of the account's databases together (burst: one second's worth). */
  requests_per_second: number | null;
  /** Webhooks each of the account's databases may have. */
  max_webhooks_per_database: number | null;
  /** Bytes of uploaded files across all of the account's databases. */
  storage_bytes: number | null;
};

const MB = 1024 * 1024;
const GB = 1024 * MB;

export const DEFAULT_PLANS: Plan[] = [
  { name: "free", max_databases: 2, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 10, requests_per_second: 10, max_webhooks_per_database: 3, storage_bytes: 100 * MB },
  { name: "pro", max_databases: 10, max_invitees: 3, roles: ["viewer", "editor"], custom_domain: false, ai_calls_per_month: 100, requests_per_second: 100, max_webhooks_per_database: 10, storage_bytes: 10 * GB },
  { name: "team", max_databases: 50, max_invitees: 25, roles: ["viewer", "editor", "admin"], custom_domain: true, ai_calls_per_month: 500, requests_per_second: 500, max_webhooks_per_database: 25, storage_bytes: 100 * GB },
];

/** What the operator's own account has, whatever plan its row names. */
export const UNLIMITED_PLAN: Plan = {
  name: "operator",
  max_databases: null,
  max_invitees: null,
  roles: [...MEMBER_ROLES],
  custom_domain: true,
  ai_calls_per_month: null,
  requests_per_second: null,
  max_webhooks_per_database: null,
  storage_bytes: null,
};

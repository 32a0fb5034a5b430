// What each management route may require, and which database role grants what. Today every database has
// one role, its owner; the teams feature adds member roles as rows of ROLE_PERMISSIONS, nothing else.

/**
 * Account-wide: keys and the account's database list. Database: routes under /databases/{instance}. Billing:
 * the payment provider's webhook, authenticated by its signature instead of a caller.
 */
export const PERMISSIONS = [
  "authenticated",
  "billing",
  "account:read",
  "account:write",
  "operator",
  "database:read",
  "database:write",
  "database:admin",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export type DatabasePermission = Extract<Permission, `database:${string}`>;

export const isDatabasePermission = (p: Permission): p is DatabasePermission => p.startsWith("database:");

export type DatabaseRole = "owner";

/** role → the database permissions it holds; a member role (viewer, editor, admin) becomes one more row. */
export const ROLE_PERMISSIONS: Record<DatabaseRole, readonly DatabasePermission[]> = {
  owner: ["database:read", "database:write", "database:admin"],
};

/** One line per permission: who passes it (docs/api.md and the OpenAPI descriptions say the same). */
export const PERMISSION_SUMMARY: Record<Permission, string> = {
  authenticated: "any valid session or secret key",
  billing: "no session or key: the body signed with BILLING_WEBHOOK_SECRET in `X-Tabula-Signature: sha256=<hex HMAC-SHA256>`",
  "account:read": "the account's session or an account-wide key",
  "account:write": "the account's session or an account-wide key",
  operator: "the operator's session or an account-wide key of the operator",
  "database:read": "a role on the database with read (owner), through a session, an account-wide key or this database's key",
  "database:write": "a role on the database with write (owner), through a session, an account-wide key or this database's key",
  "database:admin": "a role on the database with admin (owner), through a session, an account-wide key or this database's key",
};

/** Whether some authenticated caller can be refused this permission (then the route documents a 403). */
export const canRefuse = (p: Permission) => p !== "authenticated" && p !== "billing";

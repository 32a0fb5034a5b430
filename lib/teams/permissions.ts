// What each management route may require, and which role grants what. A workspace is an owner's databases;
// its owner holds every permission, its members one role each (viewer, editor, admin) over all of it.
import type { MemberRole } from "../plans/default-plans";

/**
 * Account-wide: keys and the account's database list. Workspace: the team routes and creating a database in a
 * workspace (the caller's own unless the route names another). Database: routes under /databases/{instance}.
 * Billing: the payment provider's webhook, authenticated by its signature instead of a caller.
 */
export const PERMISSIONS = [
  "authenticated",
  "billing",
  "account:read",
  "account:write",
  "operator",
  "workspace:read",
  "workspace:write",
  "workspace:admin",
  "database:read",
  "database:write",
  "database:admin",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export type Level = "read" | "write" | "admin";

export type DatabasePermission = Extract<Permission, `database:${string}`>;
export type WorkspacePermission = Extract<Permission, `workspace:${string}`>;

export const isDatabasePermission = (p: Permission): p is DatabasePermission => p.startsWith("database:");
export const isWorkspacePermission = (p: Permission): p is WorkspacePermission => p.startsWith("workspace:");

/** `database:write` → `write`. */
const levelOf = (p: DatabasePermission | WorkspacePermission) => p.split(":")[1] as Level;

export type DatabaseRole = "owner" | MemberRole;

/** role → the levels it holds, on every database of the workspace and on the workspace itself. */
export const ROLE_LEVELS: Record<DatabaseRole, readonly Level[]> = {
  owner: ["read", "write", "admin"],
  admin: ["read", "write", "admin"],
  editor: ["read", "write"],
  viewer: ["read"],
};

export const roleAllows = (role: DatabaseRole, p: DatabasePermission | WorkspacePermission) => ROLE_LEVELS[role].includes(levelOf(p));

/** One line per permission: who passes it (docs/api.md and the OpenAPI descriptions say the same). */
export const PERMISSION_SUMMARY: Record<Permission, string> = {
  authenticated: "any valid session or secret key",
  billing: "no session or key: the body signed with BILLING_WEBHOOK_SECRET in `X-Tabula-Signature: sha256=<hex HMAC-SHA256>`",
  "account:read": "the account's session or an account-wide key",
  "account:write": "the account's session or an account-wide key",
  operator: "the operator's session or an account-wide key of the operator",
  "workspace:read": "the workspace's owner or any member (viewer, editor, admin), through a session or an account-wide key",
  "workspace:write": "the workspace's owner, an editor or an admin, through a session or an account-wide key",
  "workspace:admin": "the workspace's owner or an admin, through a session or an account-wide key",
  "database:read": "a role on the database with read (owner, admin, editor, viewer), through a session, an account-wide key or this database's key",
  "database:write": "a role on the database with write (owner, admin, editor), through a session, an account-wide key or this database's key",
  "database:admin": "a role on the database with admin (owner, admin), through a session, an account-wide key or this database's key",
};

/** Whether some authenticated caller can be refused this permission (then the route documents a 403). */
export const canRefuse = (p: Permission) => p !== "authenticated" && p !== "billing";

import { ApiError, notFound } from "../errors";
import type { Ctx } from "../meta/context";
import { loadDatabase } from "../meta/load-schema";
import { workspaceRole } from "../teams/roles";
import { isDatabasePermission, isWorkspacePermission, type Permission, roleAllows } from "../teams/permissions";
import type { Route } from "./route";

export const REFUSALS = {
  databaseKeyOutside: "This key is limited to one database; use an account-wide key or the dashboard for this.",
  databaseKeyElsewhere: "This key is limited to another database of this account.",
  databaseKeyNotHere: "A key limited to one database cannot do this; use an account-wide key or the dashboard.",
  operatorOnly: "Only the operator of this install can do this.",
  roleLacks: (permission: Permission) => `Your role on this database does not include ${permission}.`,
  workspaceRoleLacks: (permission: Permission) => `Your role in this workspace does not include ${permission}.`,
  databaseNotFound: (instance: string) => `Database "${instance}" was not found.`,
  workspaceNotFound: (owner: number) => `Workspace ${owner} was not found (you are neither its owner nor a member).`,
};

const forbidden = (message: string) => new ApiError("forbidden", message);

/** What authorize reads of a route's parsed input: the database it names, and a workspace named in its query or body. */
export type AuthorizeInput = { instance?: string; query?: { workspace?: number }; body?: { workspace?: number } };

/** The workspace a workspace route names (its parsed `?workspace=` or body `workspace`), else the caller's own. */
const namedWorkspace = (route: Pick<Route, "workspaceFrom">, input: AuthorizeInput, own: number): number =>
  (route.workspaceFrom && input[route.workspaceFrom]?.workspace) ?? own;

/**
 * The one permission decision of the management API, made before a route runs. An unreachable database or
 * workspace is the same 404 as an unknown one; a database key elsewhere, a role without the permission or a
 * non-operator is a 403. On database and workspace routes it leaves the caller's role (and the workspace) on ctx,
 * on database routes the loaded database too (getDatabaseOrThrow then answers from ctx).
 */
export const authorize = async (ctx: Ctx, route: Pick<Route, "permission" | "workspaceFrom" | "noDatabaseKeys">, input: AuthorizeInput): Promise<void> => {
  const { actor } = ctx;
  const { permission } = route;
  const meta = ctx.app.engine.meta;
  // The billing webhook's signature was checked when its caller was resolved (lib/billing/webhook.ts).
  if (permission === "authenticated" || permission === "billing") return;
  if (isWorkspacePermission(permission)) {
    if (actor.keyDatabaseId !== null) throw forbidden(REFUSALS.databaseKeyOutside);
    const ownerId = namedWorkspace(route, input, actor.accountId);
    const role = await workspaceRole(meta, ownerId, actor.accountId);
    if (!role) throw notFound(REFUSALS.workspaceNotFound(ownerId));
    if (!roleAllows(role, permission)) throw forbidden(REFUSALS.workspaceRoleLacks(permission));
    ctx.workspaceId = ownerId;
    ctx.role = role;
    return;
  }
  if (!isDatabasePermission(permission)) {
    if (actor.keyDatabaseId !== null) throw forbidden(REFUSALS.databaseKeyOutside);
    if (permission === "operator" && !actor.isOperator) throw forbidden(REFUSALS.operatorOnly);
    return;
  }
  const { instance } = input;
  const database = instance === undefined ? undefined : await loadDatabase(ctx.app, instance);
  const schema = database?.schema;
  const role = schema && (await workspaceRole(meta, schema.ownerId, actor.accountId));
  if (!database || !schema || !role) throw notFound(REFUSALS.databaseNotFound(instance ?? ""));
  if (actor.keyDatabaseId !== null && actor.keyDatabaseId !== schema.id) throw forbidden(REFUSALS.databaseKeyElsewhere);
  if (actor.keyDatabaseId !== null && route.noDatabaseKeys) throw forbidden(REFUSALS.databaseKeyNotHere);
  if (!roleAllows(role, permission)) throw forbidden(REFUSALS.roleLacks(permission));
  ctx.workspaceId = schema.ownerId;
  ctx.role = role;
  ctx.database = database;
};

import { ApiError, notFound } from "../errors";
import type { Ctx } from "../meta/context";
import { loadSchema } from "../meta/load-schema";
import type { DatabaseSchema } from "../schema/types";
import { type DatabaseRole, isDatabasePermission, type Permission, ROLE_PERMISSIONS } from "./permissions";
import type { Route } from "./route";

export const REFUSALS = {
  databaseKeyOutside: "This key is limited to one database; use an account-wide key or the dashboard for this.",
  databaseKeyElsewhere: "This key is limited to another database of this account.",
  operatorOnly: "Only the operator of this install can do this.",
  roleLacks: (permission: Permission) => `Your role on this database does not include ${permission}.`,
  databaseNotFound: (instance: string) => `Database "${instance}" was not found.`,
};

const forbidden = (message: string) => new ApiError("forbidden", message);

/** The caller's role on a database, or undefined when its account cannot reach it (teams add members here). */
const roleOn = (ctx: Ctx, schema: DatabaseSchema): DatabaseRole | undefined =>
  schema.ownerId === ctx.actor.accountId ? "owner" : undefined;

/**
 * The one permission decision of the management API, made before a route runs. An unreachable database is
 * the same 404 as an unknown one; a database key elsewhere, a missing role or a non-operator is a 403.
 */
export const authorize = async (ctx: Ctx, route: Pick<Route, "permission">, params: Record<string, string>): Promise<void> => {
  const { actor } = ctx;
  const { permission } = route;
  // The billing webhook's signature was checked when its caller was resolved (lib/billing/webhook.ts).
  if (permission === "authenticated" || permission === "billing") return;
  if (!isDatabasePermission(permission)) {
    if (actor.keyDatabaseId !== null) throw forbidden(REFUSALS.databaseKeyOutside);
    if (permission === "operator" && !actor.isOperator) throw forbidden(REFUSALS.operatorOnly);
    return;
  }
  const instance = params.instance;
  const schema = instance === undefined ? undefined : await loadSchema(ctx.app, instance);
  const role = schema && roleOn(ctx, schema);
  if (!schema || !role) throw notFound(REFUSALS.databaseNotFound(instance ?? ""));
  if (actor.keyDatabaseId !== null && actor.keyDatabaseId !== schema.id) throw forbidden(REFUSALS.databaseKeyElsewhere);
  if (!ROLE_PERMISSIONS[role].includes(permission)) throw forbidden(REFUSALS.roleLacks(permission));
};

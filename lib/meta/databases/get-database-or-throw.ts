import { notFound } from "../../errors";
import type { DatabaseSchema } from "../../schema/types";
import type { Ctx } from "../context";
import { loadSchema } from "../load-schema";
import { workspaceRole } from "../../teams/roles";

/**
 * The database if the actor's account can reach it (owner or member); any other is the same 404 as an unknown
 * one. On a database route authorize already loaded and checked it: that one is returned, nothing is read, as
 * long as it is still the cached schema (a change made since, by this request or another, drops that entry).
 */
export const getDatabaseOrThrow = async (ctx: Ctx, instance: string): Promise<DatabaseSchema> => {
  if (ctx.database?.instance === instance && ctx.app.schemas.get(instance) === ctx.database) return ctx.database;
  const schema = typeof instance === "string" ? await loadSchema(ctx.app, instance) : undefined;
  if (!schema || !(await workspaceRole(ctx.app.engine.meta, schema.ownerId, ctx.actor.accountId))) throw notFound(`Database "${instance}" was not found.`);
  return schema;
};

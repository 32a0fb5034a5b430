import { notFound } from "../../errors";
import type { LoadedDatabase } from "../../meta/schema-cache";
import type { Ctx } from "../../meta/context";
import { loadDatabase } from "../../meta/load-schema";
import { workspaceRole } from "../../teams/roles";

/**
 * The database if the actor's account can reach it (owner or member); any other is the same 404 as an unknown
 * one. Database routes never call it (authorize put the database on ctx): it is for a database named in a body.
 */
export const getDatabaseOrThrow = async (ctx: Ctx, instance: string): Promise<LoadedDatabase> => {
  const database = typeof instance === "string" ? await loadDatabase(ctx.app, instance) : undefined;
  if (!database || !(await workspaceRole(ctx.app.engine.meta, database.schema.ownerId, ctx.actor.accountId))) throw notFound(`Database "${instance}" was not found.`);
  return database;
};

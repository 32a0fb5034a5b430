import { notFound } from "../../errors";
import type { DatabaseSchema } from "../../schema/types";
import type { Ctx } from "../../meta/context";
import { loadSchema } from "../../meta/load-schema";
import { workspaceRole } from "../../teams/roles";

/**
 * The database if the actor's account can reach it (owner or member); any other is the same 404 as an unknown
 * one. Database routes never call it (authorize put the database on ctx): it is for a database named in a body.
 */
export const getDatabaseOrThrow = async (ctx: Ctx, instance: string): Promise<DatabaseSchema> => {
  const schema = typeof instance === "string" ? await loadSchema(ctx.app, instance) : undefined;
  if (!schema || !(await workspaceRole(ctx.app.engine.meta, schema.ownerId, ctx.actor.accountId))) throw notFound(`Database "${instance}" was not found.`);
  return schema;
};

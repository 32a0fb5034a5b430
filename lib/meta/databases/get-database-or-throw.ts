import { notFound } from "../../errors";
import type { DatabaseSchema } from "../../schema/types";
import type { Ctx } from "../context";
import { loadSchema } from "../load-schema";

/** The database if this actor may reach it; otherwise the same 404 as for one that does not exist. */
export const getDatabaseOrThrow = async (ctx: Ctx, instance: string): Promise<DatabaseSchema> => {
  const schema = typeof instance === "string" ? await loadSchema(ctx.app, instance) : undefined;
  const { actor } = ctx;
  const reachable =
    schema && schema.ownerId === actor.accountId && (actor.keyDatabaseId === null || actor.keyDatabaseId === schema.id);
  if (!reachable) throw notFound(`Database "${instance}" was not found.`);
  return schema;
};

import { notFound } from "../../errors";
import type { DatabaseSchema } from "../../schema/types";
import type { Ctx } from "../context";
import { loadSchema } from "../load-schema";

/** The database if the actor's account owns it; another account's database is the same 404 as an unknown one. */
export const getDatabaseOrThrow = async (ctx: Ctx, instance: string): Promise<DatabaseSchema> => {
  const schema = typeof instance === "string" ? await loadSchema(ctx.app, instance) : undefined;
  if (!schema || schema.ownerId !== ctx.actor.accountId) throw notFound(`Database "${instance}" was not found.`);
  return schema;
};

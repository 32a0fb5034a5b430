import type { Ctx } from "../context";
import { databaseDetail } from "./database-detail";
import { getDatabaseOrThrow } from "./get-database-or-throw";

export type GetDatabaseInput = { instance: string };

export const getDatabase = async (ctx: Ctx, { instance }: GetDatabaseInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const row = await ctx.app.engine.meta.selectFrom("databases").select(["created_at", "updated_at"]).where("id", "=", schema.id).executeTakeFirstOrThrow();
  return databaseDetail(ctx, schema, row);
};

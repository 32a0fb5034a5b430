import type { DbCtx } from "../../meta/context";
import { databaseDetail } from "./database-detail";

export type GetDatabaseInput = { instance: string };

export const getDatabase = async (ctx: DbCtx, _input: GetDatabaseInput) => {
  const { schema } = ctx.database;
  const row = await ctx.app.engine.meta.selectFrom("databases").select(["created_at", "updated_at"]).where("id", "=", schema.id).executeTakeFirstOrThrow();
  return databaseDetail(ctx, schema, row);
};

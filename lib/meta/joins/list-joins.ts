import { type Ctx, requireAccountScope } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { joinView } from "./join-view";

export const listJoins = async (ctx: Ctx, instance: string) => {
  requireAccountScope(ctx);
  const schema = await getDatabaseOrThrow(ctx, instance);
  return [...(schema.joins?.values() ?? [])].map((j) => joinView(schema, j));
};

import { type Ctx, requireAccountScope } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { getJoinOrThrow } from "./get-join-or-throw";
import { joinView } from "./join-view";

export const getJoin = async (ctx: Ctx, instance: string, name: string) => {
  requireAccountScope(ctx);
  const schema = await getDatabaseOrThrow(ctx, instance);
  return joinView(schema, getJoinOrThrow(schema, name));
};

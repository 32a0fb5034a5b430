import type { Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { getJoinOrThrow } from "./get-join-or-throw";
import { joinView } from "./join-view";

export type GetJoinInput = { instance: string; join: string };

export const getJoin = async (ctx: Ctx, { instance, join: name }: GetJoinInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  return joinView(schema, getJoinOrThrow(schema, name));
};

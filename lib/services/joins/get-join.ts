import type { DbCtx } from "../../meta/context";
import { getJoinOrThrow } from "./get-join-or-throw";
import { joinView } from "./join-view";

export type GetJoinInput = { instance: string; join: string };

export const getJoin = async (ctx: DbCtx, { join: name }: GetJoinInput) => {
  const { schema } = ctx.database;
  return joinView(schema, getJoinOrThrow(schema, name));
};

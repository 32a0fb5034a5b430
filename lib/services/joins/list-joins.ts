import type { DbCtx } from "../../meta/context";
import { joinView } from "./join-view";

export type ListJoinsInput = { instance: string };

export const listJoins = async (ctx: DbCtx, _input: ListJoinsInput) => {
  const { schema } = ctx.database;
  return [...(schema.joins?.values() ?? [])].map((j) => joinView(schema, j));
};

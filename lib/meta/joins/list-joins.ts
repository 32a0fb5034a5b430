import type { Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { joinView } from "./join-view";

export type ListJoinsInput = { instance: string };

export const listJoins = async (ctx: Ctx, { instance }: ListJoinsInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  return [...(schema.joins?.values() ?? [])].map((j) => joinView(schema, j));
};

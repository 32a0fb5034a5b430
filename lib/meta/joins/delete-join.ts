import type { Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { changeSchema } from "../schema-change/change-schema";
import { getJoinOrThrow } from "./get-join-or-throw";

export type DeleteJoinInput = { instance: string; join: string };

export const deleteJoin = async (ctx: Ctx, { instance, join: name }: DeleteJoinInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const join = getJoinOrThrow(schema, name);
  await changeSchema(ctx, schema, { kind: "joins", join: join.name }, {
    metadata: async (trx) => void (await trx.deleteFrom("joins").where("id", "=", join.id).execute()),
  });
};

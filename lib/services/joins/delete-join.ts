import type { DbCtx } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { getJoinOrThrow } from "./get-join-or-throw";

export type DeleteJoinInput = { instance: string; join: string };

export const deleteJoin = async (ctx: DbCtx, { join: name }: DeleteJoinInput) => {
  const { schema } = ctx.database;
  const join = getJoinOrThrow(schema, name);
  await changeSchema(ctx, schema, { kind: "joins", join: join.name }, {
    metadata: async (trx) => void (await trx.deleteFrom("joins").where("id", "=", join.id).execute()),
  });
};

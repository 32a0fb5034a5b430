import type { z } from "zod";
import type { JoinInput } from "../../contract/schemas/joins";
import { type DbCtx, nowIso } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { joinView } from "./join-view";
import { checkNameFree, readJoinInput } from "./read-join-input";

export type CreateJoinInput = { instance: string; body: z.output<typeof JoinInput> };

/** POST .../joins with `{name, sql}` or `{name, base, joins, columns}` → 201 with the structured form. */
export const createJoin = async (ctx: DbCtx, { body: input }: CreateJoinInput) => {
  const { schema } = ctx.database;
  const spec = await readJoinInput(input, schema);
  checkNameFree(schema, spec.name);
  const { name, sql, ...definition } = spec;
  const values = { database_id: schema.id, name, definition: JSON.stringify(definition), sql: sql ?? null, created_at: nowIso() };
  const id = await changeSchema(ctx, schema, { kind: "joins", join: name }, {
    metadata: async (trx) => Number((await trx.insertInto("joins").values(values).executeTakeFirstOrThrow()).insertId),
  });
  return joinView(schema, { id, ...spec });
};

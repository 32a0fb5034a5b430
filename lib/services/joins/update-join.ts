import type { z } from "zod";
import type { JoinPatch } from "../../contract/schemas/joins";
import type { JoinDef } from "../../schema/types";
import type { DbCtx } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { getJoinOrThrow } from "./get-join-or-throw";
import { joinView } from "./join-view";
import { checkNameFree, readJoinInput } from "./read-join-input";

export type UpdateJoinInput = { instance: string; join: string; body: z.output<typeof JoinPatch> };

/**
 * PATCH .../joins/{name}: `{name}` renames; `{sql}` replaces the definition from SQL; any of base/joins/columns
 * replace those parts of the structure (its SQL text is then dropped, as it no longer describes the join).
 */
export const updateJoin = async (ctx: DbCtx, { join: name, body: patch }: UpdateJoinInput) => {
  const { schema } = ctx.database;
  const current = getJoinOrThrow(schema, name);
  const structural = patch.base !== undefined || patch.joins !== undefined || patch.columns !== undefined;
  const fromSql = patch.sql !== undefined && patch.sql !== null;
  const structure = { base: current.base, joins: current.joins, columns: current.columns };
  const spec = await readJoinInput(fromSql ? { name: current.name, ...patch } : { name: current.name, ...structure, ...patch }, schema);
  // A rename alone keeps the SQL text the join was made from.
  if (!fromSql && !structural && current.sql) spec.sql = current.sql;
  checkNameFree(schema, spec.name, current.name);
  const next: JoinDef = { id: current.id, ...spec };
  const { id, name: newName, sql, ...definition } = next;
  const row = { name: newName, definition: JSON.stringify(definition), sql: sql ?? null };
  await changeSchema(ctx, schema, { kind: "joins", join: current.name }, {
    metadata: async (trx) => void (await trx.updateTable("joins").set(row).where("id", "=", id).execute()),
  });
  return joinView(schema, next);
};

import { notFound } from "../../errors";
import type { DbCtx } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { storedIndexes } from "../../meta/serialize";
import { getTableOrThrow } from "../tables/get-table-or-throw";

export type DropIndexInput = { instance: string; table: string; index: string };

/** Drops one of a table's indexes over several columns by name (a column's own index: PATCH it with `"index": false`). */
export const dropIndex = async (ctx: DbCtx, { table: tableName, index: name }: DropIndexInput) => {
  const { schema } = ctx.database;
  const table = getTableOrThrow(schema, tableName);
  if (!table.indexes?.some((i) => i.name === name)) throw notFound(`Index "${name}" was not found on table "${table.name}".`);
  const indexes = storedIndexes(table.indexes.filter((i) => i.name !== name));
  await changeSchema(ctx, schema, { kind: "indexes", table }, {
    metadata: async (trx) => void (await trx.updateTable("tables").set({ indexes }).where("id", "=", table.id).execute()),
  });
};

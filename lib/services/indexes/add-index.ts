import { sql } from "kysely";
import type { UserDb } from "../../db/engine";
import { isUniqueViolation } from "../../db/unique-violation";
import type { z } from "zod";
import { invalidField, validationFailed } from "../../errors";
import type { IndexInput } from "../../contract/schemas/columns";
import { parseIndex } from "../../schema/indexes";
import type { IndexDef, TableDef } from "../../schema/types";
import type { DbCtx } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { indexView, storedIndexes } from "../../meta/serialize";
import { getTableOrThrow } from "../tables/get-table-or-throw";

const duplicateRows = (table: TableDef, index: IndexDef) =>
  invalidField("unique", "duplicate_values", `rows of "${table.name}" repeat values of (${index.columns.join(", ")}), so the index cannot be unique`);

/** Whether two rows hold the same non-null values in the index's columns (NULLs never collide in a unique index). */
const hasDuplicates = async (udb: UserDb, table: string, columns: string[]) => {
  const ids = sql.join(columns.map((c) => sql.id(c)));
  const present = sql.join(columns.map((c) => sql`${sql.id(c)} IS NOT NULL`), sql` AND `);
  const { rows } = await sql`SELECT 1 AS x FROM ${udb.table(table)} WHERE ${present} GROUP BY ${ids} HAVING COUNT(*) > 1 LIMIT 1`.execute(udb.db);
  return rows.length > 0;
};

export type AddIndexInput = { instance: string; table: string; body: z.output<typeof IndexInput> };

/** Adds an index over several columns `{columns, unique?, name?}`; built on both engines before the 201. */
export const addIndex = async (ctx: DbCtx, { table: tableName, body }: AddIndexInput) => {
  const { schema } = ctx.database;
  const table = getTableOrThrow(schema, tableName);
  const { index, errors } = parseIndex(body, "", table);
  if (!index) throw validationFailed(errors);
  if (index.unique && (await hasDuplicates(ctx.app.engine.userDb(schema.physical), table.name, index.columns))) throw duplicateRows(table, index);
  const indexes = storedIndexes([...(table.indexes ?? []), index]);
  try {
    await changeSchema(ctx, schema, { kind: "indexes", table }, {
      metadata: async (trx) => void (await trx.updateTable("tables").set({ indexes }).where("id", "=", table.id).execute()),
    });
  } catch (err) {
    // A row written meanwhile can still repeat a value: the engine refuses the unique index, nothing is kept.
    if (isUniqueViolation(err)) throw duplicateRows(table, index);
    throw err;
  }
  return indexView(index);
};

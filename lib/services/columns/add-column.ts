import { addColumnDdl } from "../../ddl/add-column-ddl";
import { countRows, existingIds, rowCount } from "../../ddl/column-values";
import type { z } from "zod";
import { conflict, invalidField, validationFailed } from "../../errors";
import { toColumnDef } from "../../contract/schemas/column-rules";
import type { ColumnInput } from "../../contract/schemas/columns";
import { TYPE_SPECS } from "../../schema/column-types";
import { limitFieldOf, tableLimitErrors } from "../../schema/table-limits";
import type { DbCtx } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { columnView } from "../../meta/serialize";
import { assertReferenceExists } from "./assert-reference-exists";
import { getTableOrThrow } from "../tables/get-table-or-throw";

export type AddColumnInput = { instance: string; table: string; body: z.output<typeof ColumnInput> };

/** Adds one column to a table; existing rows get its default (required for NOT NULL on a non-empty table). */
export const addColumn = async (ctx: DbCtx, { table: tableName, body: input }: AddColumnInput) => {
  const { schema } = ctx.database;
  const table = getTableOrThrow(schema, tableName);
  assertReferenceExists(schema, input);
  const column = toColumnDef(input);
  if (table.columns.some((c) => c.name === column.name)) {
    throw conflict(`Column "${column.name}" already exists in table "${table.name}".`);
  }
  const limits = tableLimitErrors([...table.columns, column], limitFieldOf(column));
  if (limits.length) throw validationFailed(limits);
  const udb = ctx.app.engine.userDb(schema.physical);
  const check = column.default === undefined ? undefined : TYPE_SPECS[column.type].fromJson(column.default, column);
  const fill = check?.ok ? check.value : null;
  const rows = await countRows(udb, table.name);
  if (rows > 0 && fill === null && !column.nullable) {
    throw invalidField(
      "nullable",
      "rows_need_value",
      `table "${table.name}" has ${rowCount(rows)} that would have no value in "${column.name}"; give the column a default or make it nullable`,
    );
  }
  if (rows > 1 && fill !== null && column.unique) {
    throw invalidField(
      "unique",
      "duplicate_values",
      `all ${rows} existing rows would get the same default, so "${column.name}" cannot be unique; add it without unique, fill it, then make it unique`,
    );
  }
  if (rows > 0 && fill !== null && column.references && !(await existingIds(udb, column.references, [fill as number])).size) {
    throw invalidField("default", "unknown_reference", `default ${fill} is not the id of a row in "${column.references}"`);
  }
  const columns = JSON.stringify([...table.columns, column]);
  await changeSchema(ctx, schema, { kind: "add-column", table, column }, {
    metadata: async (trx) => void (await trx.updateTable("tables").set({ columns }).where("id", "=", table.id).execute()),
    ddl: (udb) => addColumnDdl(udb, schema.physical, table, column, fill),
  });
  return columnView(column);
};

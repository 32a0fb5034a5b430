import { type AddedColumn, addColumnsDdl } from "../../ddl/add-column-ddl";
import { countRows, existingIds, rowCount } from "../../ddl/column-values";
import type { z } from "zod";
import { conflict, type FieldError, validationFailed } from "../../errors";
import { toColumnDef } from "../../contract/schemas/column-rules";
import type { ColumnInput, ColumnsInput } from "../../contract/schemas/columns";
import { TYPE_SPECS } from "../../schema/column-types";
import { limitFieldOf, tableLimitErrors } from "../../schema/table-limits";
import type { ColumnDef, TableDef } from "../../schema/types";
import type { DbCtx } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { columnView } from "../../meta/serialize";
import { getTableOrThrow } from "../tables/get-table-or-throw";

export type AddColumnsInput = { instance: string; table: string; body: z.output<typeof ColumnsInput> };

/** Where a column's problems are named: `nullable` for a single add, `columns[2].nullable` in a batch. */
type FieldOf = (i: number, field: string) => string;
const BATCH: FieldOf = (i, field) => `columns[${i}].${field}`;

/** What existing rows would get in each column, or the problems that refuse it (a row count named in each). */
const planFills = async (ctx: DbCtx, table: TableDef, columns: ColumnDef[], at: FieldOf) => {
  const udb = ctx.app.engine.userDb(ctx.database.schema.physical);
  const rows = await countRows(udb, table.name);
  const errors: FieldError[] = [];
  const added: AddedColumn[] = [];
  for (const [i, column] of columns.entries()) {
    const check = column.default === undefined ? undefined : TYPE_SPECS[column.type].fromJson(column.default, column);
    const fill = check?.ok ? check.value : null;
    added.push({ column, fill });
    const fail = (field: string, code: string, message: string) => errors.push({ field: at(i, field), code, message });
    if (rows > 0 && fill === null && !column.nullable) {
      fail("nullable", "rows_need_value", `table "${table.name}" has ${rowCount(rows)} that would have no value in "${column.name}"; give the column a default or make it nullable`);
    } else if (rows > 1 && fill !== null && column.unique) {
      fail("unique", "duplicate_values", `all ${rows} existing rows would get the same default, so "${column.name}" cannot be unique; add it without unique, fill it, then make it unique`);
    } else if (rows > 0 && fill !== null && column.references && !(await existingIds(udb, column.references, [fill as number])).size) {
      fail("default", "unknown_reference", `default ${fill} is not the id of a row in "${column.references}"`);
    }
  }
  return { added, errors };
};

/**
 * Adds columns to a table in one schema change: every problem of every column is found first (each named by its
 * field), and one refused column refuses them all. Existing rows get each column's default.
 */
export const addColumnsTo = async (ctx: DbCtx, tableName: string, inputs: z.output<typeof ColumnInput>[], at: FieldOf) => {
  const { schema } = ctx.database;
  const table = getTableOrThrow(schema, tableName);
  const columns = inputs.map(toColumnDef);
  const unknown = inputs.flatMap((c, i) =>
    c.references !== undefined && !schema.tables.has(c.references) ? [{ field: at(i, "references"), code: "unknown_table", message: `table "${c.references}" does not exist` }] : [],
  );
  if (unknown.length) throw validationFailed(unknown);
  const taken = columns.flatMap((c, i) => (table.columns.some((t) => t.name === c.name) ? [{ field: at(i, "name"), code: "conflict", message: `column "${c.name}" already exists in table "${table.name}"` }] : []));
  if (taken.length) throw conflict(`Column "${columns.find((c) => table.columns.some((t) => t.name === c.name))?.name}" already exists in table "${table.name}".`, at === BATCH ? taken : undefined);
  const limits = tableLimitErrors([...table.columns, ...columns], at === BATCH ? "columns" : limitFieldOf(columns[0]));
  if (limits.length) throw validationFailed(limits);
  const { added, errors } = await planFills(ctx, table, columns, at);
  if (errors.length) throw validationFailed(errors);
  const all = JSON.stringify([...table.columns, ...columns]);
  await changeSchema(ctx, schema, { kind: "add-column", table, columns }, {
    metadata: async (trx) => void (await trx.updateTable("tables").set({ columns: all }).where("id", "=", table.id).execute()),
    ddl: (udb) => addColumnsDdl(udb, schema.physical, table, added),
  });
  return columns.map(columnView);
};

/** Adds several columns at once, all or none (`POST .../columns/batch`). */
export const addColumns = (ctx: DbCtx, { table, body }: AddColumnsInput) => addColumnsTo(ctx, table, body.columns, BATCH);

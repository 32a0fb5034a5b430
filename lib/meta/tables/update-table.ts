import { renameTableSql } from "../../ddl/rename-table-sql";
import { conflict, type FieldError, validationFailed } from "../../errors";
import { checkTableName } from "../../schema/names";
import type { Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { checkNameFree } from "../joins/read-join-input";
import { changeSchema } from "../schema-change/change-schema";
import { tableView } from "../serialize";
import { getTableOrThrow } from "./get-table-or-throw";
import { retargetColumns } from "./references-dependent";

const TABLE_PATCH_KEYS = new Set(["name"]);

const parseTablePatch = (input: unknown): { name?: string } => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw validationFailed([{ field: "body", code: "invalid_type", message: "the body must be a JSON object like {\"name\": \"orders\"}" }]);
  }
  const body = input as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of Object.keys(body)) {
    if (!TABLE_PATCH_KEYS.has(key)) errors.push({ field: key, code: "unknown_property", message: `unknown table property "${key}"` });
  }
  const nameError = body.name === undefined ? undefined : checkTableName(body.name);
  if (nameError) errors.push(nameError);
  if (errors.length) throw validationFailed(errors);
  return { name: body.name as string | undefined };
};

export type UpdateTableInput = { instance: string; table: string; body: unknown };

/** PATCH `{name}` renames a table; reference columns pointing at it (its own included) and joins follow the new name. */
export const updateTable = async (ctx: Ctx, { instance, table: tableName, body: input }: UpdateTableInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const table = getTableOrThrow(schema, tableName);
  const { name } = parseTablePatch(input);
  if (name === undefined || name === table.name) return tableView(table);
  if (schema.joins?.has(name)) checkNameFree(schema, name);
  if (schema.tables.has(name)) throw conflict(`Table "${name}" already exists in database "${schema.instance}".`);
  await changeSchema(ctx, schema, { kind: "rename-table", table, to: name }, {
    metadata: async (trx) => void (await trx.updateTable("tables").set({ name }).where("id", "=", table.id).execute()),
    ddl: async (udb) => void (await renameTableSql(udb, table.name, name).execute(udb.db)),
  });
  return tableView({ ...table, name, columns: retargetColumns(table.columns, table.name, name) });
};

import { notFound } from "../../errors";
import type { DatabaseSchema, TableDef } from "../../schema/types";

export const getTableOrThrow = (schema: DatabaseSchema, name: string): TableDef => {
  const table = schema.tables.get(name);
  if (!table) throw notFound(`Table "${name}" was not found in database "${schema.instance}".`);
  return table;
};

import { invalidField } from "../../errors";
import type { DatabaseSchema } from "../../schema/types";

/** A reference column must point at a table of the database (422 unknown_table naming `references`). */
export const assertReferenceExists = (schema: DatabaseSchema, column: { references?: string }) => {
  if (column.references !== undefined && !schema.tables.has(column.references)) {
    throw invalidField("references", "unknown_table", `table "${column.references}" does not exist`);
  }
};

import type { FieldError } from "../errors";
import { checkTableName } from "./names";
import { parseColumn } from "./parse-column";
import { parseIndexes } from "./indexes";
import { tableLimitErrors } from "./table-limits";
import type { ColumnDef, IndexDef } from "./types";

export type TableInput = { name: string; columns: ColumnDef[]; indexes: IndexDef[] };

const TABLE_KEYS = new Set(["name", "columns", "indexes"]);

/**
 * Validates a table object `{name, columns}`. `tableExists` tells which reference targets exist, including
 * the other tables of the same quick create.
 */
export const parseTable = (
  input: unknown,
  at: string,
  tableExists: (name: string) => boolean,
): { table?: TableInput; errors: FieldError[] } => {
  const errors: FieldError[] = [];
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { errors: [{ field: at || "body", code: "invalid_type", message: "a table must be an object {\"name\", \"columns\"}" }] };
  }
  const obj = input as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!TABLE_KEYS.has(key)) errors.push({ field: `${at}${key}`, code: "unknown_property", message: `unknown table property "${key}"` });
  }
  const nameError = checkTableName(obj.name, `${at}name`);
  if (nameError) errors.push(nameError);
  const rawColumns = obj.columns ?? [];
  if (!Array.isArray(rawColumns)) {
    errors.push({ field: `${at}columns`, code: "invalid_type", message: "columns must be an array of column objects" });
    return { errors };
  }
  const columns: ColumnDef[] = [];
  const seen = new Set<string>();
  rawColumns.forEach((raw, i) => {
    const parsed = parseColumn(raw, `${at}columns[${i}].`, tableExists);
    errors.push(...parsed.errors);
    if (!parsed.column) return;
    if (seen.has(parsed.column.name)) {
      errors.push({ field: `${at}columns[${i}].name`, code: "duplicate", message: `column "${parsed.column.name}" is defined twice` });
    }
    seen.add(parsed.column.name);
    columns.push(parsed.column);
  });
  if (errors.length === 0) errors.push(...tableLimitErrors(columns, `${at}columns`));
  if (errors.length) return { errors };
  const parsed = parseIndexes(obj.indexes, at, { id: 0, name: obj.name as string, columns });
  if (parsed.errors.length) return { errors: parsed.errors };
  return { table: { name: obj.name as string, columns, indexes: parsed.indexes }, errors };
};

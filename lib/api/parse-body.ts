import type { FieldError } from "../errors";
import { TYPE_SPECS } from "../schema/column-types";
import { AUTH_ID_DEFAULT } from "../schema/types";
import type { TableIndex } from "./table-index";
import { isFile, isSecret } from "../schema/type-traits";
import { resolveFileValue } from "../schema/file-value";

export type WriteMode = "create" | "replace" | "update";

/** Column values ready to bind, plus the password columns that still need hashing. */
export type ParsedWrite = { values: Record<string, unknown>; passwords: string[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Validates one record body against the table. `current` is the stored record (JSON form) for PUT/PATCH:
 * automatic columns may repeat their stored value (GET → edit → PUT works), and a password column given its
 * stored hash keeps it. Every problem is reported, each with its field (prefixed by `at`, e.g. `[3].`).
 */
export const parseRecordBody = (
  index: TableIndex,
  body: unknown,
  mode: WriteMode,
  at = "",
  current?: Record<string, unknown>,
  authId?: number,
): { write: ParsedWrite; errors: FieldError[] } => {
  const errors: FieldError[] = [];
  const write: ParsedWrite = { values: {}, passwords: [] };
  if (!isObject(body)) {
    errors.push({ field: at ? at.replace(/\.$/, "") : "body", code: "invalid_type", message: "a record must be a JSON object" });
    return { write, errors };
  }
  for (const [name, value] of Object.entries(body)) {
    const column = index.byName.get(name);
    if (!column) {
      errors.push({ field: `${at}${name}`, code: "unknown_column", message: `"${name}" is not a column of ${index.table.name}` });
      continue;
    }
    if (column.system) {
      if (mode === "create" || current?.[name] !== value) {
        errors.push({ field: `${at}${name}`, code: "read_only", message: `"${name}" is set automatically and cannot be written` });
      }
      continue;
    }
    if (value === null) {
      if (!column.nullable) errors.push({ field: `${at}${name}`, code: "required", message: `"${name}" cannot be null` });
      else write.values[name] = null;
      continue;
    }
    if (isSecret(column) && current && current[name] === value) continue;
    // A file column's value is made from the request's uploads and the row's stored files, never taken as sent.
    const resolved = isFile(column) ? resolveFileValue(column, value, current?.[name]) : undefined;
    if (resolved && !resolved.ok) {
      errors.push({ field: `${at}${name}`, code: resolved.code, message: `"${name}" ${resolved.message}` });
      continue;
    }
    const check = TYPE_SPECS[column.type].fromJson(resolved ? resolved.value : value, column);
    if (!check.ok) {
      errors.push({ field: `${at}${name}`, code: check.code, message: `"${name}" ${check.message}` });
      continue;
    }
    write.values[name] = check.value;
    if (isSecret(column)) write.passwords.push(name);
  }
  if (mode === "update") return { write, errors };
  for (const column of index.table.columns) {
    if (column.name in body) continue;
    // An owner column (default auth.id) fills itself with the JWT user's id; a secret key must send it.
    if (mode === "create" && column.default === AUTH_ID_DEFAULT) {
      if (authId !== undefined) write.values[column.name] = TYPE_SPECS[column.type].sort === "text" ? String(authId) : authId;
      else if (!column.nullable) errors.push({ field: `${at}${column.name}`, code: "required", message: `"${column.name}" is required (it defaults to auth.id only for JWT users)` });
      continue;
    }
    if (mode === "create" && column.default !== undefined && column.default !== null) {
      const check = TYPE_SPECS[column.type].fromJson(column.default, column);
      if (check.ok) write.values[column.name] = check.value;
      // A default saved before today's limits (e.g. JSON 33 deep) is not sent to the engine: the value is asked for.
      else errors.push({ field: `${at}${column.name}`, code: "invalid_default", message: `"${column.name}" needs a value: its default ${check.message}` });
      continue;
    }
    if (!column.nullable) {
      errors.push({ field: `${at}${column.name}`, code: "required", message: `"${column.name}" is required` });
    } else if (mode === "replace") {
      write.values[column.name] = null;
    }
  }
  return { write, errors };
};

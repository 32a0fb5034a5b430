// A row's values as archive JSON and back: exact on both engines. Decimals are strings with the column's
// scale, bigints beyond 2^53 - 1 strings of digits, datetimes ISO with milliseconds, booleans true/false, json
// documents as JSON, password hashes as stored.
import type { EngineKind } from "../config";
import { STORED_NAME } from "../files/safe-name";
import { TYPE_SPECS } from "../schema/column-types";
import type { StoredFile } from "../schema/file-value";
import type { ColumnDef } from "../schema/types";
import { checkDatetime } from "../schema/value-checks";

export const encodeValue = (column: ColumnDef, raw: unknown): unknown => {
  if (raw === null || raw === undefined) return null;
  if (column.type === "decimal") return typeof raw === "string" ? raw : Number(raw).toFixed(column.scale ?? 2);
  if (column.type === "bigint") return encodeBigint(raw);
  return TYPE_SPECS[column.type].toJson(raw);
};

/** A JSON number while it is exact, else its digits as a string (MariaDB reads those as strings, SQLite as BigInt). */
const encodeBigint = (raw: unknown): number | string => {
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : String(raw);
};

const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;

/** A bigint as a number (archives of any version) or a string of digits; bound exactly (SQLite as a BigInt). */
const decodeBigint = (engine: EngineKind, column: ColumnDef, value: unknown): { value: unknown } | DecodeProblem => {
  if (typeof value !== "string") {
    const checked = TYPE_SPECS.bigint.fromJson(value, column);
    return checked.ok ? { value: checked.value } : { column: column.name, message: checked.message };
  }
  if (!/^-?\d{1,19}$/.test(value)) return { column: column.name, message: "must be an integer (a number, or its digits as a string)" };
  const exact = BigInt(value);
  if (exact < BIGINT_MIN || exact > BIGINT_MAX) return { column: column.name, message: "is outside the BIGINT range" };
  return { value: engine === "sqlite" ? exact : exact.toString() };
};

const storedFile = (v: unknown): StoredFile | undefined => {
  const f = v as StoredFile;
  if (!f || typeof f !== "object" || typeof f.name !== "string" || !STORED_NAME.test(f.name)) return undefined;
  if (!Number.isSafeInteger(f.size) || f.size < 0 || typeof f.type !== "string") return undefined;
  return { name: f.name, size: f.size, type: f.type };
};

/** A file column's value (one `{"name", "size", "type"}`, or a list when multiple) as the stored JSON text. */
const decodeFiles = (column: ColumnDef, value: unknown): { value: unknown } | DecodeProblem => {
  const list = column.multiple ? (Array.isArray(value) ? value : undefined) : Array.isArray(value) ? undefined : [value];
  const files = list?.map(storedFile);
  if (!files || files.some((f) => !f)) return { column: column.name, message: `must be ${column.multiple ? "a list of stored files" : "a stored file"} ({"name", "size", "type"})` };
  return { value: JSON.stringify(column.multiple ? files : files[0]) };
};

export type DecodeProblem = { column: string; message: string };

/** The value to bind for an archive value, or a problem naming the column (a damaged or foreign archive). */
export const decodeValue = (engine: EngineKind, column: ColumnDef, value: unknown): { value: unknown } | DecodeProblem => {
  if (value === null) return column.nullable || column.system ? { value: null } : { column: column.name, message: "is null but the column is required" };
  if (column.system) {
    if (column.name === "id") return Number.isSafeInteger(value) && (value as number) > 0 ? { value } : { column: "id", message: "must be a positive integer" };
    const checked = checkDatetime(value);
    return checked.ok ? { value: checked.value } : { column: column.name, message: checked.message };
  }
  if (column.type === "password") return typeof value === "string" ? { value } : { column: column.name, message: "must be a stored hash" };
  if (column.type === "decimal") {
    if (typeof value !== "string" || !/^-?\d+(\.\d+)?$/.test(value)) return { column: column.name, message: "must be a decimal as text" };
    return { value: engine === "mysql" ? value : Number(value) };
  }
  if (column.type === "bigint") return decodeBigint(engine, column, value);
  if (column.type === "file") return decodeFiles(column, value);
  const checked = TYPE_SPECS[column.type].fromJson(value, column);
  return checked.ok ? { value: checked.value } : { column: column.name, message: checked.message };
};

/** A row as one archive line; a json column's stored text goes in as it is (it is JSON already), not parsed and written again. */
export const rowLine = (columns: ColumnDef[], row: Record<string, unknown>) => {
  let line = "{";
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i];
    const raw = row[column.name];
    const value = column.type === "json" && typeof raw === "string" ? raw : JSON.stringify(encodeValue(column, raw));
    line += `${i ? "," : ""}${JSON.stringify(column.name)}:${value}`;
  }
  return `${line}}`;
};

// Judges a column change against the rows: converts every stored value in JS, checks it with the new type,
// and refuses (422, naming up to five row ids) anything that would lose or break data. Nothing is written.
import type { UserDb } from "../db/engine";
import { ApiError, type FieldError, validationFailed } from "../errors";
import { TYPE_SPECS } from "../schema/column-types";
import type { ColumnDef } from "../schema/types";
import { describeIds, existingIds, readColumn, rowCount, type StoredValue } from "./column-values";
import { convertValue, typeLabel } from "./convert-value";
import type { OptionRenames } from "./option-renames";
import { isReference, isSecret, takesParam } from "../schema/type-traits";

/** A non-null row after conversion: its raw old value and the value to store in the new column. */
export type ConvertedRow = StoredValue & { stored: unknown };

/** The property of the change that a failed value check is blamed on. */
const conversionField = (from: ColumnDef, to: ColumnDef, code: string) => {
  if (from.type !== to.type) return "type";
  if (takesParam(to, "length")) return "length";
  if (takesParam(to, "options")) return "options";
  if (takesParam(to, "precision")) return code === "too_many_decimals" ? "scale" : "precision";
  if (takesParam(to, "references")) return "references";
  return "type";
};

const verb = (n: number, one: string, many: string) => `${rowCount(n)} ${n === 1 ? one : many}`;

/** Keys as the engine's unique index compares them (MariaDB's utf8mb4_bin ignores trailing spaces). */
const uniqueKey = (udb: UserDb, v: unknown) => (udb.engine === "mysql" && typeof v === "string" ? v.replace(/ +$/, "") : v);

const duplicateIds = (udb: UserDb, rows: ConvertedRow[]): number[] => {
  const groups = new Map<unknown, number[]>();
  for (const row of rows) {
    if (row.stored === null) continue;
    const key = uniqueKey(udb, row.stored);
    groups.set(key, [...(groups.get(key) ?? []), row.id]);
  }
  return [...groups.values()].filter((ids) => ids.length > 1).flat().sort((a, b) => a - b);
};

/** The fill value checked as a value of the new column (type, range, and for a reference an existing row). */
const checkFill = async (udb: UserDb, to: ColumnDef, value: unknown) => {
  if (isSecret(to)) throw validationFailed([{ field: "fill", code: "not_supported", message: "fill cannot set passwords (they are hashed on each write)" }]);
  const check = value === null ? undefined : TYPE_SPECS[to.type].fromJson(value, to);
  if (!check?.ok) {
    throw validationFailed([{ field: "fill", code: check?.code ?? "invalid_value", message: `fill ${check?.message ?? "must not be null"}` }]);
  }
  if (isReference(to) && !(await existingIds(udb, to.references!, [check.value as number])).size) {
    throw validationFailed([{ field: "fill", code: "unknown_reference", message: `fill ${String(value)} is not the id of a row in "${to.references}"` }]);
  }
  return { value: check.value };
};

export const planColumnValues = async (
  udb: UserDb,
  table: string,
  from: ColumnDef,
  to: ColumnDef,
  renames: OptionRenames,
  fill?: { value: unknown },
  /** `null`: rows whose value does not fit the new column become NULL (asked for explicitly; nullable columns only). */
  misfits?: "null",
): Promise<ConvertedRow[]> => {
  const filled = fill && (await checkFill(udb, to, fill.value));
  const rows = await readColumn(udb, table, from.name);
  const converted: ConvertedRow[] = [];
  const nulls: number[] = [];
  const misfitRows: { id: number; reason: string; code: string }[] = [];
  if (misfits === "null" && !to.nullable) {
    throw validationFailed([{ field: "misfits", code: "not_nullable", message: "misfits can become NULL only in a nullable column: make it nullable in the same change" }]);
  }
  for (const row of rows) {
    if (row.raw === null || row.raw === undefined) {
      if (filled) converted.push({ ...row, stored: filled.value });
      else nulls.push(row.id);
      continue;
    }
    const value = convertValue(TYPE_SPECS[from.type].toJson(row.raw), from, to, renames);
    // A dropdown option renamed to null (checked against `nullable` before): the row becomes NULL.
    if (value.ok && value.value === null) {
      converted.push({ ...row, stored: null });
      continue;
    }
    const check = value.ok ? TYPE_SPECS[to.type].fromJson(value.value, to) : { ok: false as const, code: "lossy_conversion", message: value.message };
    if (check.ok) converted.push({ ...row, stored: check.value });
    else if (misfits === "null" && to.nullable) converted.push({ ...row, stored: null });
    else misfitRows.push({ id: row.id, reason: check.message, code: check.code });
  }
  const errors: FieldError[] = [];
  if (misfitRows.length) {
    const first = misfitRows[0];
    errors.push({
      field: conversionField(from, to, first.code),
      code: "lossy_conversion",
      message: `${verb(misfitRows.length, "does not fit", "do not fit")} ${typeLabel(to)}: ${describeIds(misfitRows.map((m) => m.id))} (id ${first.id}: ${first.reason})`,
    });
  }
  if (!to.nullable && nulls.length) {
    errors.push({
      field: "nullable",
      code: "null_values",
      message: `${verb(nulls.length, "has", "have")} no value in "${from.name}": ${describeIds(nulls)}; give them values before making the column required`,
    });
  }
  if (to.unique && !misfitRows.length) {
    const dupes = duplicateIds(udb, converted);
    if (dupes.length) {
      errors.push({
        field: from.unique ? conversionField(from, to, "") : "unique",
        code: "duplicate_values",
        message: `${verb(dupes.length, "shares", "share")} a value with another row in "${from.name}": ${describeIds(dupes)}`,
      });
    }
  }
  if (isReference(to) && !misfitRows.length) {
    const changed = !isReference(from) || from.references !== to.references;
    const ids = converted.filter((r) => r.stored !== null).map((r) => r.stored as number);
    const found = changed || fill ? await existingIds(udb, to.references!, ids) : new Set(ids);
    const missing = converted.filter((r) => r.stored !== null && !found.has(r.stored as number)).map((r) => r.id);
    if (missing.length) {
      errors.push({
        field: isReference(from) ? "references" : "type",
        code: "unknown_reference",
        message: `${verb(missing.length, "points", "point")} at rows missing from "${to.references}": ${describeIds(missing)}`,
      });
    }
  }
  if (errors.length) {
    const { message } = validationFailed(errors);
    // The count lets a client offer "convert anyway, set these N rows to NULL" (`misfits: "null"`).
    throw new ApiError("validation_failed", message, { errors, extra: misfitRows.length ? { misfit_rows: misfitRows.length } : undefined });
  }
  return converted;
};

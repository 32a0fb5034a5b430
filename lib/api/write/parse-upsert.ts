// The plan stage of an upsert (PRODUCT "Query grammar, second edition"): POST with `Prefer:
// resolution=merge-duplicates` and `_on_conflict=<unique column>`. Either half without the other is a 422.
import { type FieldError, validationFailed } from "../../errors";
import { TYPE_SPECS } from "../../schema/column-types";
import type { ColumnDef } from "../../schema/types";
import type { TableIndex } from "../table-index";

const MERGE_DUPLICATES = /(^|[\s,;])resolution=merge-duplicates\b/;

/** Whether `Prefer` asks for a merge of rows whose conflict value exists. */
const prefersMerge = (prefer: string | undefined) => MERGE_DUPLICATES.test(prefer ?? "");

/** Whether a POST is an upsert: both halves given. One half alone is a 422 naming `_on_conflict`. */
export const isUpsert = (query: URLSearchParams, prefer: string | undefined): boolean => {
  const merge = prefersMerge(prefer);
  const onConflict = query.has("_on_conflict");
  if (merge && !onConflict) {
    throw validationFailed([{ field: "_on_conflict", code: "required", message: "Prefer: resolution=merge-duplicates needs _on_conflict=<unique column>" }]);
  }
  if (onConflict && !merge) {
    throw validationFailed([{ field: "_on_conflict", code: "needs_prefer", message: "_on_conflict needs the header Prefer: resolution=merge-duplicates" }]);
  }
  return merge;
};

/** The column named by `_on_conflict`: `id` or a unique column; every other query parameter is a 422. */
export const parseOnConflict = (query: URLSearchParams, index: TableIndex): ColumnDef => {
  const errors: FieldError[] = [];
  for (const key of query.keys()) {
    if (key !== "_on_conflict") errors.push({ field: key, code: "unknown_parameter", message: `"${key}" is not a parameter of an upsert` });
  }
  const names = query.getAll("_on_conflict");
  const column = index.byName.get(names[0]);
  if (names.length === 0) errors.push({ field: "_on_conflict", code: "required", message: "an upsert names its conflict column with _on_conflict=<id or a unique column>" });
  else if (names.length > 1) errors.push({ field: "_on_conflict", code: "invalid_value", message: "_on_conflict names one column" });
  else if (!column) errors.push({ field: "_on_conflict", code: "unknown_column", message: `"${names[0]}" is not a column of ${index.table.name}` });
  else if (!column.unique) errors.push({ field: "_on_conflict", code: "not_unique", message: `"${column.name}" is not unique: _on_conflict names id or a unique column` });
  else if (!TYPE_SPECS[column.type].ops.includes("eq")) errors.push({ field: "_on_conflict", code: "not_comparable", message: `"${column.name}" (${column.type}) cannot be matched by value` });
  if (errors.length) throw validationFailed(errors);
  return column!;
};

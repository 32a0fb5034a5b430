// Dropdown options that leave a column: rows follow only an explicit `rename` ({old: new option, or null});
// an option replaced by another is never taken for a rename, and rows holding a removed option refuse the change.
import type { UserDb } from "../db/engine";
import { ApiError, type FieldError, validationFailed } from "../errors";
import type { ColumnDef } from "../schema/types";
import { readColumn, rowCount } from "./column-values";

/** Old option → the option its rows become, or null (the rows become NULL). */
export type OptionRenames = Map<string, string | null>;

/** The options after `rename` when the change leaves `options` out: each renamed one replaced in place (merged into a listed target). */
export const renamedOptions = (options: string[], rename: Record<string, string | null>): string[] => {
  const out: string[] = [];
  for (const option of options) {
    const next = Object.hasOwn(rename, option) ? rename[option] : option;
    if (next !== null && !out.includes(next)) out.push(next);
  }
  return out;
};

/** `rename` checked against the column before and after: each source an old option that leaves, each target a new option (or null where allowed). */
export const checkOptionRenames = (from: ColumnDef, to: ColumnDef, rename: Record<string, string | null>): OptionRenames => {
  const before = from.options ?? [];
  const after = to.options ?? [];
  const problems: FieldError[] = [];
  for (const [old, next] of Object.entries(rename)) {
    const fail = (message: string) => problems.push({ field: `rename.${old}`, code: "invalid_rename", message });
    if (!before.includes(old)) fail(`"${old}" is not an option of "${from.name}" (${before.join(", ")})`);
    else if (after.includes(old)) fail(`"${old}" is renamed, so it cannot stay in the options`);
    else if (next === null && !to.nullable) fail(`"${to.name}" is required: its rows cannot become NULL; rename "${old}" to an option`);
    else if (next !== null && !after.includes(next)) fail(`"${next}" is not among the new options (${after.join(", ")})`);
  }
  if (problems.length) throw validationFailed(problems);
  return new Map(Object.entries(rename));
};

/** A 422 naming each removed option that rows still hold, with their count (also as `options_in_use`); nothing is changed. */
export const refuseOptionsInUse = async (udb: UserDb, table: string, from: ColumnDef, to: ColumnDef, renames: OptionRenames) => {
  const removed = (from.options ?? []).filter((o) => !(to.options ?? []).includes(o) && !renames.has(o));
  if (!removed.length) return;
  const counts = new Map<string, number>();
  for (const { raw } of await readColumn(udb, table, from.name)) {
    if (typeof raw === "string" && removed.includes(raw)) counts.set(raw, (counts.get(raw) ?? 0) + 1);
  }
  const used = removed.filter((o) => counts.has(o)).map((option) => ({ option, rows: counts.get(option)! }));
  if (!used.length) return;
  const errors = used.map(({ option, rows }) => ({
    field: "options",
    code: "option_in_use",
    message: `${rowCount(rows)} ${rows === 1 ? "holds" : "hold"} "${option}", which this change removes; say what they become with "rename": {"${option}": "<option>"} (or null)`,
  }));
  const { message } = validationFailed(errors);
  throw new ApiError("validation_failed", message, { errors, extra: { options_in_use: used } });
};

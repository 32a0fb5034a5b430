// How one stored value of a column becomes a value of the column's new definition. Works on JSON values
// (what `toJson` of the old type gives); the caller checks the result with the new type's `fromJson`.
// Only lossless conversions succeed: anything that would change the meaning of a value fails.
import type { FieldError } from "../errors";
import type { ColumnDef } from "../schema/types";
import type { OptionRenames } from "./option-renames";
import { isFile, isReference, isSecret, takesParam } from "../schema/type-traits";
import { filesOf, toStoredFiles } from "../schema/file-value";

export type Conversion = { ok: true; value: unknown } | { ok: false; message: string };

const yes = (value: unknown): Conversion => ({ ok: true, value });
const no = (message: string): Conversion => ({ ok: false, message });

const INTEGER_TEXT = /^-?(0|[1-9]\d*)$/;
const NUMBER_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?$/;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;
const MIDNIGHT = /^(\d{4}-\d{2}-\d{2})T00:00(:00(\.0+)?)?(Z|[+-]00:00)$/;

const asText = (v: unknown) =>
  yes(typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v));

const asInteger = (v: unknown): Conversion => {
  if (typeof v === "boolean") return yes(v ? 1 : 0);
  if (typeof v === "number") return Number.isInteger(v) ? yes(v) : no(`${v} has a fractional part`);
  if (typeof v === "string" && INTEGER_TEXT.test(v) && Number.isSafeInteger(Number(v))) return yes(Number(v));
  return no(`${JSON.stringify(v)} is not a whole number written plainly`);
};

/** "12.50" → 12.5 is fine; text whose digits a number cannot hold exactly is not. */
const asNumber = (v: unknown): Conversion => {
  if (typeof v === "boolean") return yes(v ? 1 : 0);
  if (typeof v === "number") return yes(v);
  if (typeof v === "string" && NUMBER_TEXT.test(v)) {
    const trimmed = v.includes(".") ? v.replace(/0+$/, "").replace(/\.$/, "") : v;
    if (String(Number(v)) === trimmed) return yes(Number(v));
  }
  return no(`${JSON.stringify(v)} is not a number written plainly`);
};

const asBoolean = (v: unknown): Conversion => {
  if (typeof v === "boolean") return yes(v);
  if (v === 0 || v === 1) return yes(v === 1);
  if (v === "true" || v === "false") return yes(v === "true");
  return no(`${JSON.stringify(v)} is not 0, 1, true or false`);
};

const asDate = (v: unknown): Conversion => {
  if (typeof v !== "string") return no(`${JSON.stringify(v)} is not a date`);
  if (DATE_TEXT.test(v)) return yes(v);
  const midnight = MIDNIGHT.exec(v);
  if (midnight) return yes(midnight[1]);
  return no(`${v} has a time of day other than midnight UTC`);
};

const asDatetime = (v: unknown): Conversion => {
  if (typeof v !== "string") return no(`${JSON.stringify(v)} is not a datetime`);
  return yes(DATE_TEXT.test(v) ? `${v}T00:00:00.000Z` : v);
};

/** Converts one non-null JSON value of `from` to a JSON value for `to`; `renames` maps renamed dropdown options (null: the row becomes NULL). */
export const convertValue = (v: unknown, from: ColumnDef, to: ColumnDef, renames: OptionRenames): Conversion => {
  if (v === null || v === undefined) return yes(null);
  if (takesParam(from, "options") && takesParam(to, "options") && typeof v === "string") return yes(renames.has(v) ? renames.get(v) : v);
  if (isSecret(from) && !isSecret(to)) return yes(v);
  if (isFile(from) !== isFile(to)) return no("files and other values do not convert into each other; empty the column first");
  if (isFile(to)) return convertFiles(v, to);
  switch (to.type) {
    case "varchar":
    case "text":
    case "dropdown":
      return asText(v);
    case "int":
    case "bigint":
    case "reference":
      return asInteger(v);
    case "decimal":
    case "float":
      return asNumber(v);
    case "boolean":
      return asBoolean(v);
    case "date":
      return asDate(v);
    case "datetime":
      return asDatetime(v);
    case "json":
      return yes(v);
    case "password":
      return isSecret(from) ? yes(v) : no("existing values cannot become password hashes; empty the column first");
    default:
      return no(`values cannot become ${to.type}`);
  }
};

/** single ↔ multiple keeps the files; a row with several files cannot become a single file. */
const convertFiles = (v: unknown, to: ColumnDef): Conversion => {
  const files = filesOf(v);
  if (!to.multiple && files.length > 1) return no(`holds ${files.length} files; a single file column holds one`);
  return yes(toStoredFiles(files, to.multiple === true));
};

/** A password column holds bcrypt hashes: they may only move to a text column wide enough to keep them. */
export const passwordRefusal = (from: ColumnDef, to: ColumnDef): FieldError | undefined => {
  if (!isSecret(from) || isSecret(to) || to.type === "text") return undefined;
  if (to.type === "varchar" && (to.length ?? 255) >= 60) return undefined;
  const field = to.type === "varchar" ? "length" : "type";
  return {
    field,
    code: "lossy_conversion",
    message: "a password column holds 60-character bcrypt hashes and can only become text or varchar(60) or longer",
  };
};

/** How a column's type reads in messages: varchar(5), decimal(10,2), dropdown(draft, live), reference(authors). */
export const typeLabel = (c: ColumnDef): string => {
  if (c.type === "varchar") return `varchar(${c.length ?? 255})`;
  if (c.type === "decimal") return `decimal(${c.precision ?? 10},${c.scale ?? 2})`;
  if (c.type === "dropdown") return `dropdown(${(c.options ?? []).join(", ")})`;
  if (isReference(c)) return `reference(${c.references})`;
  return c.type;
};

// Text typed into a form (or a CSV cell) → the JSON value a client sends, checked with the same limits the
// server applies (value-checks.ts), so a field is named before anything is sent and no value becomes null
// unasked: text that is not a finite number stays an error, never `JSON.stringify(Infinity)`.
import type { ColumnType } from "./types";
import { bad, type Check, checkDate, checkDatetime, checkDecimal, checkFloat, INT_RANGE, isRealDate, numberText, ok, PASSWORD_MAX_BYTES, TEXT_MAX_BYTES } from "./value-checks";
import { hasLoneSurrogate, jsonValueProblem, LONE_SURROGATE_PROBLEM } from "./value-limits";

export type TypedColumn = { type: ColumnType; length?: number; precision?: number; scale?: number; options?: string[] };

const INTEGER = /^-?\d+$/;
const bytes = (s: string) => new TextEncoder().encode(s).length;

/** Whole numbers are compared as BigInt: `9007199254740993` must be refused, not rounded to its neighbour. */
const integerValue = (t: string, [min, max]: readonly number[]): Check<number> => {
  if (!INTEGER.test(t)) return bad("invalid_type", "must be a whole number");
  const n = BigInt(t);
  return n < BigInt(min) || n > BigInt(max) ? bad("out_of_range", `must be between ${min} and ${max}`) : ok(Number(n));
};

/** Non-empty typed text → the value to send (empty text is the caller's choice: null or the default). */
export const typedValue = (column: TypedColumn, text: string): Check => {
  const t = text.trim();
  switch (column.type) {
    case "int":
      return integerValue(t, INT_RANGE.int);
    case "bigint":
      return integerValue(t, INT_RANGE.bigint);
    case "reference":
      return integerValue(t, [1, INT_RANGE.bigint[1]]);
    case "float":
      return numberText.test(t) ? checkFloat(Number(t)) : bad("invalid_type", "must be a number");
    case "decimal":
      return numberText.test(t) ? checkDecimal(Number(t), column) : bad("invalid_type", "must be a number");
    case "boolean":
      return t === "true" ? ok(true) : t === "false" ? ok(false) : bad("invalid_type", "must be true or false");
    case "date":
      return isRealDate(t) ? ok(t) : checkDate(t);
    case "datetime": {
      const check = checkDatetime(t);
      return check.ok ? ok(t) : check;
    }
    case "json":
      try {
        const value: unknown = JSON.parse(text);
        const problem = jsonValueProblem(value);
        return problem ? bad(problem.code, problem.message) : ok(value);
      } catch {
        return bad("invalid_json", "is not valid JSON");
      }
    case "dropdown":
      return (column.options ?? []).includes(text) ? ok(text) : bad("not_an_option", `must be one of: ${(column.options ?? []).join(", ")}`);
    case "file":
      return bad("not_typed", "files are uploaded, not typed");
    case "password":
      return bytes(text) > PASSWORD_MAX_BYTES ? bad("too_long", `must be at most ${PASSWORD_MAX_BYTES} bytes (bcrypt's limit)`) : ok(text);
    default: {
      if (hasLoneSurrogate(text)) return bad(LONE_SURROGATE_PROBLEM.code, LONE_SURROGATE_PROBLEM.message);
      const max = column.type === "varchar" ? (column.length ?? 255) : TEXT_MAX_BYTES;
      const size = column.type === "varchar" ? [...text].length : bytes(text);
      return size > max ? bad("too_long", `must be at most ${max} ${column.type === "varchar" ? "characters" : "bytes"}`) : ok(text);
    }
  }
};

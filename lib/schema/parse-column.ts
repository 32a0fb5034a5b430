import type { FieldError } from "../errors";
import { TYPE_SPECS } from "./column-types";
import { indexProblem } from "./indexes";
import { SEARCHABLE_TYPES } from "./search";
import { checkColumnName } from "./names";
import { hasLoneSurrogate, LONE_SURROGATE_PROBLEM } from "./value-limits";
import { AUTH_ID_DEFAULT, COLUMN_TYPES, type ColumnDef, type ColumnType } from "./types";

const COLUMN_KEYS = new Set(["name", "type", "nullable", "unique", "default", "length", "precision", "scale", "options", "references", "index", "searchable"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const wholeIn = (v: unknown, min: number, max: number) => typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;

/**
 * Validates a column object of the management API (field paths prefixed with `at`) and returns the
 * normalised definition. `tableExists` answers whether a reference target is (or will be) a table.
 */
export const parseColumn = (
  input: unknown,
  at: string,
  tableExists: (name: string) => boolean,
): { column?: ColumnDef; errors: FieldError[] } => {
  const errors: FieldError[] = [];
  const fail = (field: string, code: string, message: string) => errors.push({ field: `${at}${field}`, code, message });
  if (!isObject(input)) {
    fail("", "invalid_type", "a column must be an object like {\"name\": \"price\", \"type\": \"decimal\"}");
    return { errors };
  }
  for (const key of Object.keys(input)) {
    if (!COLUMN_KEYS.has(key)) fail(key, "unknown_property", `unknown column property "${key}"`);
  }
  const nameError = checkColumnName(input.name, `${at}name`);
  if (nameError) errors.push(nameError);
  const type = input.type as ColumnType;
  if (!COLUMN_TYPES.includes(type)) {
    fail("type", "invalid_type", `type must be one of ${COLUMN_TYPES.join(", ")}`);
    return { errors };
  }
  const col: ColumnDef = { name: input.name as string, type, nullable: true, unique: false };
  for (const flag of ["nullable", "unique"] as const) {
    if (input[flag] === undefined) continue;
    if (typeof input[flag] !== "boolean") fail(flag, "invalid_type", `${flag} must be true or false`);
    else col[flag] = input[flag];
  }
  const onlyFor = (key: string, types: ColumnType[]) => {
    if (input[key] !== undefined && !types.includes(type)) fail(key, "not_applicable", `${key} applies only to ${types.join(", ")} columns`);
  };
  onlyFor("length", ["varchar"]);
  onlyFor("precision", ["decimal"]);
  onlyFor("scale", ["decimal"]);
  onlyFor("options", ["dropdown"]);
  onlyFor("references", ["reference"]);

  if (type === "varchar") {
    col.length = 255;
    if (input.length !== undefined) {
      if (!wholeIn(input.length, 1, 16383)) fail("length", "out_of_range", "length must be a whole number from 1 to 16383");
      else col.length = input.length as number;
    }
  }
  if (type === "decimal") {
    col.precision = 10;
    col.scale = 2;
    if (input.precision !== undefined) {
      if (!wholeIn(input.precision, 1, 65)) fail("precision", "out_of_range", "precision must be a whole number from 1 to 65");
      else col.precision = input.precision as number;
    }
    if (input.scale !== undefined) {
      if (!wholeIn(input.scale, 0, 30)) fail("scale", "out_of_range", "scale must be a whole number from 0 to 30");
      else col.scale = input.scale as number;
    }
    if (col.scale! > col.precision!) fail("scale", "out_of_range", "scale cannot be larger than precision");
  }
  if (type === "dropdown") {
    const options = input.options;
    if (!Array.isArray(options) || options.length === 0) {
      fail("options", "required", "a dropdown needs a non-empty list of options");
    } else if (options.length > 255) {
      fail("options", "out_of_range", "a dropdown has at most 255 options");
    } else {
      options.forEach((o, i) => {
        if (typeof o !== "string" || o.length === 0 || o.length > 255) {
          fail(`options[${i}]`, "invalid_type", "each option must be a string of 1 to 255 characters");
        } else if (hasLoneSurrogate(o)) {
          fail(`options[${i}]`, LONE_SURROGATE_PROBLEM.code, `option ${i + 1} ${LONE_SURROGATE_PROBLEM.message}`);
        } else if (o.trim() !== o) {
          // MySQL's ENUM drops trailing spaces, so such an option could not be read back as written.
          fail(`options[${i}]`, "invalid_value", `option "${o}" must not start or end with spaces`);
        } else if (options.indexOf(o) !== i) {
          fail(`options[${i}]`, "duplicate", `option "${o}" is listed twice`);
        }
      });
      col.options = options as string[];
    }
  }
  if (type === "reference") {
    if (typeof input.references !== "string" || !input.references) {
      fail("references", "required", "a reference column needs \"references\": the name of the table it points to");
    } else if (!tableExists(input.references)) {
      fail("references", "unknown_table", `table "${input.references}" does not exist`);
    } else {
      col.references = input.references;
    }
  }
  if (col.unique && !TYPE_SPECS[type].uniqueAllowed) fail("unique", "not_applicable", `a ${type} column cannot be unique`);
  if (input.index !== undefined && typeof input.index !== "boolean") fail("index", "invalid_type", "index must be true or false");
  else if (type === "reference" && input.index === false) fail("index", "not_applicable", "a reference column is always indexed (foreign key checks look rows up by it)");
  else if (input.index === true || type === "reference") {
    const problem = indexProblem([col]);
    if (problem) fail("index", problem.code, problem.message);
    else col.index = true;
  }
  if (input.searchable !== undefined && typeof input.searchable !== "boolean") fail("searchable", "invalid_type", "searchable must be true or false");
  else if (input.searchable === true && !SEARCHABLE_TYPES.includes(type)) {
    fail("searchable", "not_applicable", `searchable applies only to ${SEARCHABLE_TYPES.join(" and ")} columns, not ${type}`);
  } else if (input.searchable === true) col.searchable = true;
  if (input.default !== undefined && input.default !== null && errors.length === 0) {
    if (type === "password") {
      fail("default", "not_applicable", "a password column cannot have a default");
    } else if (input.default === AUTH_ID_DEFAULT) {
      if (["int", "bigint", "reference", "varchar", "text"].includes(type)) col.default = AUTH_ID_DEFAULT;
      else fail("default", "not_applicable", `default auth.id needs an int, bigint, reference, varchar or text column`);
    } else {
      const check = TYPE_SPECS[type].fromJson(input.default, col);
      if (!check.ok) fail("default", check.code, `default ${check.message}`);
      else col.default = input.default;
    }
  }
  return errors.length ? { errors } : { column: col, errors };
};

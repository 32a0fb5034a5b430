// The column rules that need more than one property at a time (which options fit which type, defaults valid
// for the type, what can be indexed), run as refinements of the column schemas; and the normalised definition
// a parsed column stands for. Pure: whether a referenced table exists is the service's check.
import { TYPE_SPECS } from "../../schema/column-types";
import { indexProblem } from "../../schema/indexes";
import { SEARCHABLE_TYPES } from "../../schema/search";
import { AUTH_ID_DEFAULT, type ColumnDef, type ColumnType } from "../../schema/types";
import { hasLoneSurrogate, LONE_SURROGATE_PROBLEM } from "../../schema/value-limits";
import { fileOptionProblems } from "../../schema/file-options";
import { holdsUserId, isFile, isReference, isSecret, takesParam, TYPE_PARAMS, typesTaking } from "../../schema/type-traits";

/** A column object after its properties passed their own checks: a definition whose options may be left out. */
export type ColumnFields = Pick<ColumnDef, "name" | "type"> & Partial<Omit<ColumnDef, "name" | "type" | "system">>;

export type Problem = { path: (string | number)[]; code: string; message: string };

const TYPE_PROPERTIES = Object.fromEntries(TYPE_PARAMS.map((p) => [p, typesTaking(p)]));

/** The definition a column object stands for: the type's defaults filled in, the reference's index on. */
export const toColumnDef = (input: ColumnFields): ColumnDef => {
  const col: ColumnDef = { name: input.name, type: input.type, nullable: input.nullable ?? true, unique: input.unique ?? false };
  if (takesParam(input, "length")) col.length = input.length ?? 255;
  if (takesParam(input, "precision")) Object.assign(col, { precision: input.precision ?? 10, scale: input.scale ?? 2 });
  if (takesParam(input, "options")) col.options = input.options;
  if (isReference(input)) col.references = input.references;
  if (isFile(input)) copyFileOptions(input, col);
  if (input.index === true || isReference(input)) col.index = true;
  if (input.searchable === true) col.searchable = true;
  if (input.default !== undefined && input.default !== null) col.default = input.default;
  return col;
};

/** A file column's options, kept only when they say something (false and absent are the same). */
const copyFileOptions = (input: ColumnFields, col: ColumnDef) => {
  if (input.multiple === true) col.multiple = true;
  if (input.public === true) col.public = true;
  if (input.max_size !== undefined) col.max_size = input.max_size;
  if (input.accept !== undefined) col.accept = input.accept;
  if (input.thumbs !== undefined) col.thumbs = input.thumbs;
};

const optionProblems = (options: string[]): Problem[] =>
  options.flatMap((o, i): Problem[] => {
    const path = ["options", i];
    if (hasLoneSurrogate(o)) return [{ path, code: LONE_SURROGATE_PROBLEM.code, message: `option ${i + 1} ${LONE_SURROGATE_PROBLEM.message}` }];
    // MySQL's ENUM drops trailing spaces, so such an option could not be read back as written.
    if (o.trim() !== o) return [{ path, code: "invalid_value", message: `option "${o}" must not start or end with spaces` }];
    if (options.indexOf(o) !== i) return [{ path, code: "duplicate", message: `option "${o}" is listed twice` }];
    return [];
  });

const defaultProblem = (input: ColumnFields, col: ColumnDef): Problem | undefined => {
  const fail = (code: string, message: string) => ({ path: ["default"], code, message });
  if (input.default === undefined || input.default === null) return undefined;
  if (isSecret(col)) return fail("not_applicable", "a password column cannot have a default");
  if (input.default === AUTH_ID_DEFAULT) {
    return holdsUserId(col) ? undefined : fail("not_applicable", `default auth.id needs an int, bigint, reference, varchar or text column`);
  }
  const check = TYPE_SPECS[col.type].fromJson(input.default, col);
  return check.ok ? undefined : fail(check.code, `default ${check.message}`);
};

const indexRule = (input: ColumnFields, col: ColumnDef): Problem | undefined => {
  if (isReference(input) && input.index === false) {
    return { path: ["index"], code: "not_applicable", message: "a reference column is always indexed (foreign key checks look rows up by it)" };
  }
  const problem = col.index ? indexProblem([col]) : undefined;
  return problem && { path: ["index"], ...problem };
};

/** What is wrong with a column object whose properties are each valid on their own. */
export const columnProblems = (input: ColumnFields): Problem[] => {
  const problems: Problem[] = [];
  const fail = (key: string, code: string, message: string) => problems.push({ path: [key], code, message });
  const { type } = input;
  for (const [key, types] of Object.entries(TYPE_PROPERTIES)) {
    const fits = (types as readonly ColumnType[]).includes(type);
    if (input[key as keyof ColumnFields] !== undefined && !fits) fail(key, "not_applicable", `${key} applies only to ${types.join(", ")} columns`);
  }
  const col = toColumnDef(input);
  if (takesParam(type, "scale") && col.scale! > col.precision!) fail("scale", "out_of_range", "scale cannot be larger than precision");
  if (takesParam(type, "options") && !input.options) fail("options", "required", "a dropdown needs a non-empty list of options");
  if (takesParam(type, "options") && input.options) problems.push(...optionProblems(input.options));
  if (takesParam(type, "references") && !input.references) fail("references", "required", "a reference column needs \"references\": the name of the table it points to");
  if (col.unique && !TYPE_SPECS[type].uniqueAllowed) fail("unique", "not_applicable", `a ${type} column cannot be unique`);
  if (input.searchable === true && !SEARCHABLE_TYPES.includes(type)) {
    fail("searchable", "not_applicable", `searchable applies only to ${SEARCHABLE_TYPES.join(" and ")} columns, not ${type}`);
  }
  if (isFile(type)) problems.push(...fileOptionProblems(col));
  const index = indexRule(input, col);
  if (index) problems.push(index);
  const fallback = problems.length ? undefined : defaultProblem(input, col);
  return fallback ? [fallback] : problems;
};

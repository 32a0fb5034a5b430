// A column type is one entry in TYPE_SPECS (lib/schema/column-types.ts): what it means elsewhere is a trait read
// through lib/schema/type-traits.ts, not a comparison with its name. This suite keeps new name checks out and
// checks that each trait holds where the code acts on it.
import { describe, expect, it } from "vitest";
import { parseAggregateQuery } from "../../lib/api/parse-aggregate";
import { indexTableForUsers } from "../../lib/api/table-index";
import { ApiError } from "../../lib/errors";
import { parseHooks } from "../../lib/hooks/hooks";
import { columnProblems, toColumnDef } from "../../lib/contract/schemas/column-rules";
import { parsePolicy } from "../../lib/rls/parse-policy";
import { TYPE_SPECS } from "../../lib/schema/column-types";
import { SEARCHABLE_TYPES } from "../../lib/schema/search";
import {
  choicesOf, holdsUserId, isFile, isJson, isNumeric, isReference, isSecret, isTextual, scaleOf, TYPE_PARAMS, takesParam,
} from "../../lib/schema/type-traits";
import { typedValue } from "../../lib/schema/typed-value";
import { AUTH_ID_DEFAULT, COLUMN_TYPES, type ColumnDef, type ColumnType, type TableDef } from "../../lib/schema/types";
import { checksIn, typeNameChecks } from "./type-name-checks";

/** Files where a check of a type's name is the clearest code, with how many such checks each holds at most. */
const ALLOWED: Record<string, { checks: number; why: string }> = {
  "lib/ai/offline-planner.ts": { checks: 6, why: "reads an AI draft plan's raw JSON, whose types are not checked ColumnTypes yet" },
  "lib/ai/offline-tables.ts": { checks: 4, why: "reads an AI draft plan's raw JSON, whose types are not checked ColumnTypes yet" },
  "lib/ai/plan.ts": { checks: 2, why: "reads an AI draft plan's raw JSON, whose types are not checked ColumnTypes yet" },
  "lib/services/ai/builds.ts": { checks: 1, why: "reads an AI draft plan's raw JSON, whose types are not checked ColumnTypes yet" },
  "components/ai/build-text.ts": { checks: 2, why: "prints an AI draft column's type with its size" },
  "components/ai/plan-tables.tsx": { checks: 1, why: "shows an AI draft column's options" },
  "lib/ai/offline-seed.ts": { checks: 16, why: "makes up sample values per type for the offline planner" },
  "components/ai/plan-edits.ts": { checks: 8, why: "edits an AI draft plan's raw JSON, whose types are not checked ColumnTypes yet" },
  "components/ai/plan-editor.tsx": { checks: 4, why: "edits an AI draft plan's raw JSON, whose types are not checked ColumnTypes yet" },
  "lib/backup/row-codec.ts": { checks: 7, why: "the archive format's value encoding, written per type and versioned with it (docs/backups.md)" },
  "lib/schema/typed-value.ts": { checks: 15, why: "reads typed text per type: a switch the compiler checks is exhaustive" },
  "lib/schema/table-limits.ts": { checks: 12, why: "bytes per type in a MySQL row: a switch the compiler checks is exhaustive" },
  "lib/ddl/convert-value.ts": { checks: 19, why: "converts a value into each target type; prints types with their sizes" },
  "lib/ddl/alter-column.ts": { checks: 4, why: "the type pairs MySQL's own CHANGE COLUMN converts exactly as Tabula does" },
  "lib/api/build-sql.ts": { checks: 2, why: "MySQL sorts TEXT and a long VARCHAR by a prefix only" },
  "lib/hooks/cost-estimate.ts": { checks: 3, why: "the largest value each type can hold, for a hook's cost estimate" },
  "lib/openapi/list-parameters.ts": { checks: 2, why: "a datetime filter also takes a plain date" },
  "lib/rls/policy-values.ts": { checks: 4, why: "policy domains share names with types; a boolean literal reads as true or false" },
  "components/data/filter-row.tsx": { checks: 2, why: "a boolean's choices fit every operator, a dropdown's only = and ≠" },
  "components/data/record-field.tsx": { checks: 6, why: "a form input and hint per type (date picker, datetime, sizes)" },
  "components/data/record-values.ts": { checks: 1, why: "a datetime is shown without its T and milliseconds" },
  "components/schema/column-draft.ts": { checks: 1, why: "reads a boolean default from its text" },
  "components/schema/column-editor.tsx": { checks: 1, why: "a date placeholder" },
  "components/schema/fill-offer.tsx": { checks: 1, why: "a date placeholder" },
  "components/schema/columns-grid.tsx": { checks: 2, why: "a summary and a badge colour per type" },
};

describe("type-name checks", () => {
  const found = typeNameChecks();

  it("appear only in the allowed files, no more often than listed", () => {
    const extra = [...found]
      .filter(([file, hits]) => hits.length > (ALLOWED[file]?.checks ?? 0))
      .map(([file, hits]) => `${file}: ${hits.length} (${hits.join(" | ")}); read a trait from lib/schema/type-traits.ts instead`);
    expect(extra).toEqual([]);
  });

  it("every allowed file still holds such a check (drop stale entries)", () => {
    expect(Object.keys(ALLOWED).filter((file) => !found.has(file))).toEqual([]);
  });

  it.each([
    ['c.type === "password"', 1],
    ['if (column.type !== "json") return', 1],
    ['case "reference":', 1],
    ['["varchar", "text"].includes(c.type)', 1],
    ['const STRINGS: ColumnType[] = ["varchar", "text"];', 1],
    ["isSecret(c) && TYPE_SPECS[c.type].sort !== \"none\"", 0],
    ['typeof v === "boolean" || t.kind === "text"', 0],
  ])("finds the checks in %s", (source, count) => {
    expect(checksIn(source)).toHaveLength(count);
  });
});

const columnOf = (type: ColumnType): ColumnDef => {
  const c: ColumnDef = { name: "c", type, nullable: true, unique: false };
  if (takesParam(type, "length")) c.length = 3;
  if (takesParam(type, "precision")) Object.assign(c, { precision: 4, scale: 2 });
  if (takesParam(type, "options")) c.options = ["a", "b"];
  if (takesParam(type, "references")) c.references = "users";
  return c;
};
const tableOf = (type: ColumnType): TableDef => ({ id: 1, name: "t", columns: [columnOf(type)] });
const problemCodes = (input: Record<string, unknown>) => columnProblems({ ...columnOf(input.type as ColumnType), ...input }).map((p) => `${p.path[0]}:${p.code}`);
const thrown = (f: () => unknown) => {
  try {
    f();
    return undefined;
  } catch (e) {
    return e;
  }
};

describe.each(COLUMN_TYPES.map((t) => [t]))("the %s type's traits hold", (type) => {
  const spec = TYPE_SPECS[type];
  const column = columnOf(type);

  it("its example is a valid value of a column of it", () => {
    expect(spec.fromJson(spec.example(column), column).ok).toBe(true);
  });

  it("secret: its hash reaches no JWT user, filter, policy, hook or default", () => {
    const output = indexTableForUsers(tableOf(type)).output.map(([name]) => name);
    expect(output.includes("c")).toBe(!isSecret(type));
    if (!isSecret(type)) return;
    expect(spec.ops).toEqual([]);
    expect(thrown(() => parsePolicy("c = c", new Map([["c", type]])))).toMatchObject({ message: expect.stringContaining("cannot be used in a policy") });
    const hook = thrown(() => parseHooks(tableOf(type), { insert: [{ set: "c", expr: "'x'" }] }));
    expect(hook instanceof ApiError && hook.errors?.map((e) => `${e.field}:${e.code}`)).toContain("insert[0].set:unknown_column");
    expect(problemCodes({ type, default: "x" })).toEqual(["default:not_applicable"]);
  });

  it("reference: always indexed, and names its table", () => {
    expect(takesParam(type, "references")).toBe(isReference(type));
    if (isReference(type)) expect(toColumnDef({ name: "c", type, references: "users" }).index).toBe(true);
  });

  it("textual: searchable, and filtered with like and ilike", () => {
    expect(SEARCHABLE_TYPES.includes(type)).toBe(isTextual(type));
    if (isTextual(type)) expect(spec.ops).toEqual(expect.arrayContaining(["like", "ilike"]));
    expect(problemCodes({ type, searchable: true })).toEqual(isTextual(type) ? [] : ["searchable:not_applicable"]);
  });

  it("numeric: sums and averages apply", () => {
    const sum = thrown(() => parseAggregateQuery(new URLSearchParams({ _agg: "sum:c" }), new Map([["c", column]])));
    expect(sum === undefined).toBe(isNumeric(type));
  });

  it("json and file: compared only with null", () => {
    if (isJson(type) || isFile(type)) expect(spec.ops).toEqual(["null"]);
    else expect(spec.ops).not.toEqual(["null"]);
  });

  it("choices: each one is a valid value", () => {
    for (const choice of choicesOf(column) ?? []) {
      const typed = typedValue(column, choice);
      expect(typed.ok && spec.fromJson(typed.value, column).ok).toBe(true);
    }
  });

  it("scale: values take that many decimal places and no more", () => {
    const scale = scaleOf(column);
    if (scale === undefined) return;
    expect(spec.fromJson(Number((1).toFixed(scale)) + 10 ** -scale, column).ok).toBe(true);
    expect(spec.fromJson(1 + 10 ** -(scale + 1), column).ok).toBe(false);
  });

  it("userId: takes the auth.id default", () => {
    expect(problemCodes({ type, default: AUTH_ID_DEFAULT })).toEqual(holdsUserId(type) ? [] : ["default:not_applicable"]);
  });

  it.each(TYPE_PARAMS.map((p) => [p]))("params: takes %s only if listed", (param) => {
    const value = { length: 3, precision: 4, scale: 2, options: ["a"], references: "users", multiple: true, max_size: 1024, accept: ["image/*"], thumbs: ["100x100"], public: true }[param];
    expect(problemCodes({ type, [param]: value })).toEqual(takesParam(type, param) ? [] : [`${param}:not_applicable`]);
  });
});

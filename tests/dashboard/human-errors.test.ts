// Management errors a dashboard user can trigger, as the dashboard shows them: from code and field, in words,
// with what to do; never the validator's or the parser's raw text.
import { describe, expect, it } from "vitest";
import { ApiRequestError, errorMessage, fieldErrors } from "../../components/api/api-error";
import { humanFieldError } from "../../components/api/human-errors";

const CASES: [string, { field: string; code: string; message: string; position?: number }, string][] = [
  ["an index with one column", { field: "columns", code: "out_of_range", message: "columns must have at least 2 items" }, "Choose at least 2 columns."],
  ["a policy cut short", { field: "select", code: "invalid_policy", message: "position 12: Unexpected token: EOF", position: 12 }, "The select expression ends too early (at character 12): finish it, e.g. a value after the last operator or a closing bracket."],
  ["a reference without its table", { field: "tables[1].columns[0].references", code: "required", message: 'a reference column needs "references": the name of the table it points to' }, "Fill in table 2, column 1, references: it is required."],
  ["a name too long", { field: "name", code: "too_long", message: "name must be at most 64 characters long" }, "name is too long: keep it at most 64 characters long."],
  ["a missing name", { field: "name", code: "required", message: "name is required" }, "Fill in name: it is required."],
  ["a join's SQL with a function", { field: "sql", code: "sql_function", message: "function SLEEP() is not allowed; list table columns only (at line 1, column 8)" }, "Function SLEEP() is not allowed; list table columns only (at line 1, column 8)."],
];

describe("human messages from code and field", () => {
  it.each(CASES)("%s", (_what, error, expected) => {
    expect(humanFieldError(error)).toBe(expected);
  });

  it("no raw validator or parser wording reaches the form", () => {
    const err = new ApiRequestError(422, { error: "validation_failed", message: "columns must have at least 2 items", errors: CASES.map((c) => c[1]) }, "management");
    const shown = [errorMessage(err), ...Object.values(fieldErrors(err))].join(" ");
    for (const raw of ["must have at least 2 items", "Unexpected token", "EOF", "position 12:"]) expect(shown).not.toContain(raw);
  });
});

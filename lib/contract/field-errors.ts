// zod issues → the API's FieldError entries: one per problem, codes in the services' vocabulary, fields
// written as the services write them (`tables[0].columns[1].type`).
import type { z } from "zod";
import type { FieldError } from "../errors";

type Issue = z.core.$ZodIssue;

const fieldPath = (path: PropertyKey[]) =>
  path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), "");

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a JSON object",
  array: "an array",
  null: "null",
};

const size = (issue: Extract<Issue, { code: "too_big" | "too_small" }>) => {
  const limit = Number(issue.code === "too_big" ? issue.maximum : issue.minimum);
  const bound = issue.code === "too_big" ? "at most" : "at least";
  if (issue.origin === "string") return { code: issue.code === "too_big" ? "too_long" : "too_short", text: `must be ${bound} ${limit} characters long` };
  if (issue.origin === "array") return { code: "out_of_range", text: `must have ${bound} ${limit} item${limit === 1 ? "" : "s"}` };
  return { code: "out_of_range", text: `must be ${issue.inclusive === false ? (issue.code === "too_big" ? "less than" : "more than") : bound} ${limit}` };
};

/** Code and wording of one issue; the field name is put in front by the caller. */
const describe = (issue: Issue): { code: string; text: string } => {
  const missing = issue.input === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value");
  if (missing) return { code: "required", text: "is required" };
  switch (issue.code) {
    case "invalid_type":
      return { code: "invalid_type", text: `must be ${EXPECTED[issue.expected] ?? issue.expected}` };
    case "invalid_value":
      return { code: "invalid_value", text: `must be one of ${issue.values.map((v) => String(v)).join(", ")}` };
    case "too_big":
    case "too_small":
      return size(issue);
    case "invalid_format":
      return { code: "invalid_format", text: issue.format === "regex" ? `must match ${issue.pattern}` : `must be a valid ${issue.format}` };
    default:
      return { code: "invalid_value", text: issue.message };
  }
};

/** Of a union's branches, the one that came closest (fewest problems) explains the failure best. */
const closestBranch = (branches: Issue[][]) => branches.reduce((best, b) => (b.length < best.length ? b : best));

export const toFieldErrors = (issues: readonly Issue[], prefix: PropertyKey[] = []): FieldError[] =>
  issues.flatMap((issue): FieldError[] => {
    const path = [...prefix, ...issue.path];
    const field = fieldPath(path);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ field: fieldPath([...path, key]), code: "unknown_property", message: `unknown property "${key}"` }));
    }
    if (issue.code === "invalid_union" && issue.errors.length) return toFieldErrors(closestBranch(issue.errors), path);
    if (issue.code === "custom") return [{ field: field || "body", code: String(issue.params?.code ?? "invalid_value"), message: issue.message }];
    const { code, text } = describe(issue);
    return [{ field: field || "body", code, message: field ? `${field} ${text}` : `the body ${text}` }];
  });

/** A schema rule's problems (lib/contract/schemas/*-rules.ts) found by a service, as the API's FieldError entries. */
export const problemErrors = (problems: { path: (string | number)[]; code: string; message: string }[]): FieldError[] =>
  problems.map((p) => ({ field: fieldPath(p.path), code: p.code, message: p.message }));

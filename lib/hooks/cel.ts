// CEL for pre hooks (@marcbachmann/cel-js: no eval, not Turing-complete). One environment per table: `new`
// and `old` typed from its columns (nullable ones are dyn), `auth` a map, `now` a timestamp; structural limits
// at parse, and no list macros or regular expressions, so no expression can loop for long.
import { Environment } from "@marcbachmann/cel-js";
import type { FieldError } from "../errors";
import type { ColumnDef, TableDef } from "../schema/types";

const CEL_TYPES: Record<ColumnDef["type"], string> = {
  varchar: "string",
  text: "string",
  password: "string",
  dropdown: "string",
  date: "string",
  datetime: "string",
  json: "dyn",
  int: "int",
  bigint: "int",
  reference: "int",
  decimal: "double",
  float: "double",
  boolean: "bool",
};

export const celTypeOf = (c: ColumnDef) => (c.nullable || c.type === "json" ? "dyn" : CEL_TYPES[c.type]);

/** What a `set` may store in the column: its base type (or null when it is nullable). */
export const setTypeOf = (c: ColumnDef) => CEL_TYPES[c.type];

const LIMITS = { maxAstNodes: 400, maxDepth: 24, maxListElements: 100, maxMapEntries: 100, maxCallArguments: 8 };
/** Iteration and regular expressions: a row's own text could make them run for seconds (quadratic loops, ReDoS). */
const REFUSED = /(\.\s*(map|filter|all|exists|exists_one)|\bmatches)\s*\(/;

export const environmentFor = (table: TableDef) => {
  const row: Record<string, string> = { id: "int", created_at: "dyn", updated_at: "dyn" };
  for (const c of table.columns) row[c.name] = celTypeOf(c);
  return new Environment({ limits: LIMITS, homogeneousAggregateLiterals: false })
    .registerVariable({ name: "new", schema: row })
    .registerVariable({ name: "old", schema: row })
    .registerVariable("auth", "map")
    .registerVariable("now", "google.protobuf.Timestamp");
};

export type CelEnvironment = ReturnType<typeof environmentFor>;

/** The 1-based offset of the caret the library draws under the expression, if any. */
const caretPosition = (message: string) => {
  const lines = message.split("\n");
  const at = lines.findIndex((l) => /^>\s+\d+ \| /.test(l));
  if (at < 0 || !lines[at + 1]) return undefined;
  const prefix = /^>\s+\d+ \| /.exec(lines[at])![0].length;
  const caret = lines[at + 1].indexOf("^");
  return caret >= prefix ? caret - prefix + 1 : undefined;
};

const firstLine = (message: string) => message.split("\n")[0];

/** Problems of one expression (syntax, names, types, limits), or its result type. */
export const checkExpression = (env: CelEnvironment, expr: unknown, field: string): { type?: string; errors: FieldError[] } => {
  if (typeof expr !== "string" || !expr.trim()) return { errors: [{ field, code: "invalid_expression", message: "must be a CEL expression" }] };
  if (expr.length > 2000) return { errors: [{ field, code: "invalid_expression", message: "must be at most 2000 characters" }] };
  const refused = REFUSED.exec(expr);
  if (refused) {
    return { errors: [{ field, code: "invalid_expression", message: "list macros (map, filter, all, exists) and matches() are not allowed in hooks: they could run too long on a row's own text", position: refused.index + 1 }] };
  }
  let result: { valid: boolean; type?: string; error?: Error & { node?: { pos?: number } } };
  try {
    result = env.check(expr) as typeof result;
  } catch (err) {
    result = { valid: false, error: err as Error };
  }
  if (result.valid) return { type: result.type, errors: [] };
  const message = result.error?.message ?? "is not a valid expression";
  const position = typeof result.error?.node?.pos === "number" ? result.error.node.pos + 1 : caretPosition(message);
  return { errors: [{ field, code: "invalid_expression", message: firstLine(message), ...(position ? { position } : {}) }] };
};

/** Whether a value of CEL type `actual` may be stored in a column of CEL type `column`. */
export const fits = (column: string, actual: string | undefined, nullable = false) =>
  actual === undefined || actual === "dyn" || column === "dyn" || actual === column || (column === "double" && actual === "int") || (nullable && actual === "null");

// CEL for pre hooks (@marcbachmann/cel-js: no eval, not Turing-complete). One environment per table: `new`
// and `old` typed from its columns (nullable ones are dyn), `auth` a map, `now` a timestamp; structural limits
// at parse, no list macros or regular expressions (found in the parsed tree, so a comment cannot hide them), and
// a static cost estimate (cost-estimate.ts), so no expression can loop or grow for long.
import { Environment } from "@marcbachmann/cel-js";
import type { FieldError } from "../errors";
import type { ColumnDef, TableDef } from "../schema/types";
import { type AstNode, childrenOf } from "./bound-program";
import { estimateCost } from "./cost-estimate";
import { STEP_COST_LIMIT_NS } from "./limits";
import { isFile, isJson } from "../schema/type-traits";

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
  file: "dyn",
};

const celTypeOf = (c: ColumnDef) => (c.nullable || isJson(c) || isFile(c) ? "dyn" : CEL_TYPES[c.type]);

/** What a `set` may store in the column: its base type (or null when it is nullable). */
export const setTypeOf = (c: ColumnDef) => CEL_TYPES[c.type];

const LIMITS = { maxAstNodes: 400, maxDepth: 24, maxListElements: 100, maxMapEntries: 100, maxCallArguments: 8 };
/** Iteration and regular expressions: a row's own text could make them run for seconds (quadratic loops, ReDoS). */
const REFUSED_CALLS = new Set(["map", "filter", "all", "exists", "exists_one", "matches"]);

const refusedNode = (root: AstNode) => {
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    const name = (node.args as unknown[])?.[0];
    if (node.op === "comprehension" || ((node.op === "rcall" || node.op === "call") && REFUSED_CALLS.has(name as string))) return node;
    stack.push(...childrenOf(node));
  }
  return undefined;
};

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

type Program = { ast: AstNode; check: () => { valid: boolean; type?: string; error?: Error & { node?: { pos?: number } } } };

const problem = (field: string, message: string, position?: number): FieldError => ({ field, code: "invalid_expression", message, ...(position ? { position } : {}) });

/** Problems of one expression (syntax, names, types, limits, cost), or its result type. */
export const checkExpression = (env: CelEnvironment, table: TableDef, expr: unknown, field: string): { type?: string; errors: FieldError[] } => {
  if (typeof expr !== "string" || !expr.trim()) return { errors: [problem(field, "must be a CEL expression")] };
  if (expr.length > 2000) return { errors: [problem(field, "must be at most 2000 characters")] };
  let program: Program | undefined;
  let result: ReturnType<Program["check"]>;
  try {
    program = env.parse(expr) as unknown as Program;
    result = program.check();
  } catch (err) {
    result = { valid: false, error: err as Error };
  }
  if (!result.valid || !program) {
    const message = result.error?.message ?? "is not a valid expression";
    const position = typeof result.error?.node?.pos === "number" ? result.error.node.pos + 1 : caretPosition(message);
    return { errors: [problem(field, firstLine(message), position)] };
  }
  const refused = refusedNode(program.ast);
  if (refused) {
    const at = (refused as unknown as { pos: number }).pos + 1;
    return { errors: [problem(field, "list macros (map, filter, all, exists) and matches() are not allowed in hooks: they could run too long on a row's own text", at)] };
  }
  const cost = estimateCost(table, program.ast);
  if (cost > STEP_COST_LIMIT_NS) {
    const ms = Math.ceil(cost / 1e6).toLocaleString("en-US");
    const message = `its cost cannot be bounded: on values as large as its columns allow it could run about ${ms} ms, more than the ${STEP_COST_LIMIT_NS / 1e6} ms a step may (repeated growth such as cel.bind doubling or concatenation, or many walks over large values)`;
    return { errors: [{ field, code: "cost_unbounded", message }] };
  }
  return { type: result.type, errors: [] };
};

/** Whether a value of CEL type `actual` may be stored in a column of CEL type `column`. */
export const fits = (column: string, actual: string | undefined, nullable = false) =>
  actual === undefined || actual === "dyn" || column === "dyn" || actual === column || (column === "double" && actual === "int") || (nullable && actual === "null");

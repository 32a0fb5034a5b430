// A parsed policy bound to one caller: claims and literals brought to the domain of the column they meet
// (policy-values.ts), comparisons without a column decided here. Both interpreters read this form only:
// compile-policy.ts turns it into SQL, policy-match.ts judges an event's record with it.
import type { ColumnDef } from "../schema/types";
import type { CompareOp, Literal, Operand, PolicyNode } from "./parse-policy";
import { compareNorm, type Domain, domainOf, holds, type Norm, toDomain } from "./policy-values";

export type Side = { column: string } | { value: Norm };
export type BoundNode =
  | { kind: "and" | "or"; left: BoundNode; right: BoundNode }
  | { kind: "not"; expr: BoundNode }
  | { kind: "const"; value: boolean }
  /** IS NULL, or IS NOT NULL when negated. */
  | { kind: "null"; column: string; negated: boolean }
  /** At least one side is a column; unknown when a column's value is null. */
  | { kind: "compare"; domain: Domain; op: CompareOp; left: Side; right: Side }
  /** Values never empty; null list entries are left out. */
  | { kind: "in"; domain: Domain; column: string; values: Norm[] };

export type BindContext = {
  columns: ReadonlyMap<string, ColumnDef>;
  /** The caller's claims; `id` is the user id (the `sub` claim as a number). */
  claims: Record<string, unknown>;
};

const NEVER: BoundNode = { kind: "const", value: false };
const ALWAYS: BoundNode = { kind: "const", value: true };

/** A literal or claim with no column beside it: null for null, absent or non-scalar. */
const raw = (op: Operand, ctx: BindContext): Literal => {
  const v = op.kind === "literal" ? op.value : op.kind === "auth" ? ctx.claims[op.claim] : null;
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? v : null;
};

/** Two values with no column: numbers (booleans as 1/0, numeric text) numerically, text by bytes, else no match. */
const constantCompare = (a: Literal, b: Literal, op: CompareOp): boolean => {
  if (a === null || b === null) return false;
  const numeric = typeof a !== "string" || typeof b !== "string";
  const [x, y] = numeric ? [toDomain(a, "number"), toDomain(b, "number")] : [a, b];
  return x !== undefined && y !== undefined && holds(compareNorm(x, y), op);
};

const domainOfColumn = (name: string, ctx: BindContext) => domainOf(ctx.columns.get(name)!.type);

const bindCompare = (op: CompareOp, left: Operand, right: Operand, ctx: BindContext): BoundNode => {
  // An absent claim never matches anything, not even `col != auth.x`.
  if ((left.kind === "auth" && raw(left, ctx) === null) || (right.kind === "auth" && raw(right, ctx) === null)) return NEVER;
  if (left.kind === "column" && right.kind === "column") {
    const domain = domainOfColumn(left.name, ctx);
    if (domain !== domainOfColumn(right.name, ctx) || domain === "json") return NEVER;
    return { kind: "compare", domain, op, left: { column: left.name }, right: { column: right.name } };
  }
  if (left.kind !== "column" && right.kind !== "column") {
    const [a, b] = [raw(left, ctx), raw(right, ctx)];
    if (left.kind === "literal" && right.kind === "literal" && a === null && b === null) return op === "=" ? ALWAYS : NEVER;
    return constantCompare(a, b, op) ? ALWAYS : NEVER;
  }
  const [column, other, flipped] = left.kind === "column" ? [left, right, false] : [right as Extract<Operand, { kind: "column" }>, left, true];
  const value = raw(other, ctx);
  // `col = null` reads as IS NULL, `col != null` as IS NOT NULL; other comparisons with null match nothing.
  if (value === null) return op === "=" || op === "!=" ? { kind: "null", column: column.name, negated: op === "!=" } : NEVER;
  const domain = domainOfColumn(column.name, ctx);
  const norm = domain === "json" ? undefined : toDomain(value, domain);
  if (norm === undefined) return NEVER;
  const [l, r]: Side[] = flipped ? [{ value: norm }, { column: column.name }] : [{ column: column.name }, { value: norm }];
  return { kind: "compare", domain, op, left: l, right: r };
};

const bindIn = (left: Operand, values: Operand[], ctx: BindContext): BoundNode => {
  const listed = values.map((v) => raw(v, ctx)).filter((v) => v !== null);
  if (left.kind !== "column") {
    const value = raw(left, ctx);
    return listed.some((v) => constantCompare(value, v, "=")) ? ALWAYS : NEVER;
  }
  const domain = domainOfColumn(left.name, ctx);
  const norms = domain === "json" ? [] : listed.map((v) => toDomain(v, domain)).filter((v) => v !== undefined);
  return norms.length === 0 ? NEVER : { kind: "in", domain, column: left.name, values: norms };
};

export const bindPolicy = (node: PolicyNode, ctx: BindContext): BoundNode => {
  switch (node.kind) {
    case "and":
    case "or":
      return { kind: node.kind, left: bindPolicy(node.left, ctx), right: bindPolicy(node.right, ctx) };
    case "not":
      return { kind: "not", expr: bindPolicy(node.expr, ctx) };
    case "value":
      if (node.operand.kind !== "column") return raw(node.operand, ctx) === true ? ALWAYS : NEVER;
      return { kind: "compare", domain: "number", op: "=", left: { column: node.operand.name }, right: { value: 1 } };
    case "in":
      return bindIn(node.left, node.values, ctx);
    case "compare":
      return bindCompare(node.op, node.left, node.right, ctx);
  }
};

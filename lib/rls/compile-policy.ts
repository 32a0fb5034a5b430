// A parsed policy → a SQL predicate. Identifiers only through sql.id, every value (literals and the
// caller's claims) a bound parameter: nothing from the policy text or the token is spliced into SQL.
import { type RawBuilder, sql } from "kysely";
import type { EngineKind } from "../config";
import { TYPE_SPECS } from "../schema/column-types";
import type { ColumnDef } from "../schema/types";
import type { Literal, Operand, PolicyNode } from "./parse-policy";

type Fragment = RawBuilder<unknown>;

export type CompileContext = {
  engine: EngineKind;
  columns: Map<string, ColumnDef>;
  qualifier?: string;
  /** The caller's claims; `id` is the user id (the `sub` claim as a number). */
  claims: Record<string, unknown>;
};

/** Drivers bind numbers and strings; booleans become 1/0 (TINYINT(1) on MySQL, integers on SQLite). */
const bindable = (value: unknown): Literal => {
  if (value === true) return 1;
  if (value === false) return 0;
  if (typeof value === "string" || typeof value === "number") return value;
  return null;
};

const operandValue = (op: Operand, ctx: CompileContext): Literal | undefined => {
  if (op.kind === "literal") return bindable(op.value);
  if (op.kind === "auth") return bindable(ctx.claims[op.claim]);
  return undefined;
};

const isText = (op: Operand, ctx: CompileContext) => {
  if (op.kind !== "column") return false;
  const sort = TYPE_SPECS[ctx.columns.get(op.name)!.type].sort;
  return sort === "text" || sort === "enum";
};

const fragment = (op: Operand, ctx: CompileContext): Fragment => {
  if (op.kind === "column") return ctx.qualifier ? sql.id(ctx.qualifier, op.name) : sql.id(op.name);
  return sql`${operandValue(op, ctx)}`;
};

/** MySQL text comparisons ignore trailing spaces (PAD SPACE); BINARY makes them exact, as the data API's filters are. */
const exact = (f: Fragment, ctx: CompileContext, text: boolean) => (ctx.engine === "mysql" && text ? sql`BINARY ${f}` : f);

const compileNode = (node: PolicyNode, ctx: CompileContext): Fragment => {
  switch (node.kind) {
    case "and":
      return sql`(${compileNode(node.left, ctx)} AND ${compileNode(node.right, ctx)})`;
    case "or":
      return sql`(${compileNode(node.left, ctx)} OR ${compileNode(node.right, ctx)})`;
    case "not":
      // NOT of an unknown (NULL) stays unknown, so a row with NULLs never slips through a negation.
      return sql`(NOT ${compileNode(node.expr, ctx)})`;
    case "value": {
      const op = node.operand;
      if (op.kind === "column") return sql`(${fragment(op, ctx)} = 1)`;
      const v = operandValue(op, ctx);
      return v === 1 ? sql`(1 = 1)` : sql`(1 = 0)`;
    }
    case "in": {
      if (node.left.kind !== "column" && operandValue(node.left, ctx) === null) return sql`(1 = 0)`;
      const text = isText(node.left, ctx);
      const values = node.values.map((v) => operandValue(v, ctx)).filter((v) => v !== null);
      if (values.length === 0) return sql`(1 = 0)`;
      return sql`(${exact(fragment(node.left, ctx), ctx, text)} IN (${sql.join(values.map((v) => exact(sql`${v}`, ctx, text)))}))`;
    }
    case "compare": {
      const { left, right, op } = node;
      const leftNull = left.kind !== "column" && operandValue(left, ctx) === null;
      const rightNull = right.kind !== "column" && operandValue(right, ctx) === null;
      // An absent claim never matches anything, not even `col != auth.x`.
      if ((leftNull && left.kind === "auth") || (rightNull && right.kind === "auth")) return sql`(1 = 0)`;
      if (leftNull || rightNull) {
        // `col = null` reads as IS NULL; an absent claim compares as NULL (never true).
        const other = leftNull ? right : left;
        if (leftNull && rightNull) return op === "=" ? sql`(1 = 1)` : sql`(1 = 0)`;
        if (op === "=") return other.kind === "column" ? sql`(${fragment(other, ctx)} IS NULL)` : sql`(1 = 0)`;
        if (op === "!=") return other.kind === "column" ? sql`(${fragment(other, ctx)} IS NOT NULL)` : sql`(1 = 0)`;
        return sql`(1 = 0)`;
      }
      const text = isText(left, ctx) || isText(right, ctx);
      const exactOp = op === "=" || op === "!=";
      const l = exactOp ? exact(fragment(left, ctx), ctx, text) : fragment(left, ctx);
      const r = exactOp ? exact(fragment(right, ctx), ctx, text) : fragment(right, ctx);
      return sql`(${l} ${sql.raw(op === "!=" ? "<>" : op)} ${r})`;
    }
  }
};

export const compilePolicy = (node: PolicyNode, ctx: CompileContext): Fragment => compileNode(node, ctx);

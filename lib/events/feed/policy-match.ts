// A select policy judged on an event's record instead of a table row: the feed cannot ask the database
// about a row as it was. Same meaning as compile-policy.ts's SQL: three-valued logic (NULL is unknown,
// NOT unknown stays unknown, only true passes), booleans as 1/0, times compared in their stored form.
import type { ColumnDef, TableDef } from "../../schema/types";
import { recordColumns } from "../../schema/types";
import type { Operand, PolicyNode } from "../../rls/parse-policy";
import { toStoredDatetime } from "../../schema/column-types";

type Value = string | number | null;
type Truth = boolean | null;

const scalar = (value: unknown, column?: ColumnDef): Value => {
  if (value === null || value === undefined) return null;
  if (value === true) return 1;
  if (value === false) return 0;
  if (column?.type === "datetime" && typeof value === "string") return toStoredDatetime(new Date(value));
  if ((column?.type === "decimal" || column?.type === "bigint") && typeof value === "string") return Number(value);
  if (typeof value === "number" || typeof value === "string") return value;
  return null; // json objects and arrays compare as nothing
};

type Context = { record: Record<string, unknown>; claims: Record<string, unknown>; columns: Map<string, ColumnDef> };

const operand = (op: Operand, ctx: Context): Value => {
  if (op.kind === "literal") return scalar(op.value);
  if (op.kind === "auth") return scalar(ctx.claims[op.claim]);
  return scalar(ctx.record[op.name], ctx.columns.get(op.name));
};

const compare = (l: Value, r: Value, op: string): Truth => {
  if (l === null || r === null) return null;
  // A number against a numeric string compares as numbers, as both engines do for numeric columns.
  const [a, b] = typeof l !== typeof r ? [Number(l), Number(r)] : [l, r];
  switch (op) {
    case "=": return a === b;
    case "!=": return a !== b;
    case ">": return a > b;
    case ">=": return a >= b;
    case "<": return a < b;
    default: return a <= b;
  }
};

const judge = (node: PolicyNode, ctx: Context): Truth => {
  switch (node.kind) {
    case "and": {
      const l = judge(node.left, ctx);
      const r = judge(node.right, ctx);
      return l === false || r === false ? false : l === null || r === null ? null : true;
    }
    case "or": {
      const l = judge(node.left, ctx);
      const r = judge(node.right, ctx);
      return l === true || r === true ? true : l === null || r === null ? null : false;
    }
    case "not": {
      const v = judge(node.expr, ctx);
      return v === null ? null : !v;
    }
    case "value": {
      const v = operand(node.operand, ctx);
      return node.operand.kind === "column" ? (v === null ? null : v === 1) : v === 1;
    }
    case "in": {
      const left = operand(node.left, ctx);
      if (left === null) return null;
      const values = node.values.map((v) => operand(v, ctx)).filter((v) => v !== null);
      return values.some((v) => compare(left, v, "=") === true);
    }
    case "compare": {
      // An absent claim never matches anything, not even `col != auth.x` (as compile-policy.ts).
      if ((node.left.kind === "auth" && operand(node.left, ctx) === null) || (node.right.kind === "auth" && operand(node.right, ctx) === null)) return false;
      const l = operand(node.left, ctx);
      const r = operand(node.right, ctx);
      const lNullLiteral = node.left.kind === "literal" && l === null;
      const rNullLiteral = node.right.kind === "literal" && r === null;
      if (lNullLiteral || rNullLiteral) {
        // `col = null` reads as IS NULL, `col != null` as IS NOT NULL.
        if (lNullLiteral && rNullLiteral) return node.op === "=";
        const other = lNullLiteral ? r : l;
        const column = (lNullLiteral ? node.right : node.left).kind === "column";
        if (!column) return false;
        if (node.op === "=") return other === null;
        if (node.op === "!=") return other !== null;
        return false;
      }
      return compare(l, r, node.op);
    }
  }
};

/** True when the record passes the policy for this caller; unknown (NULLs) counts as refused. */
export const recordMatches = (node: PolicyNode, table: TableDef, record: Record<string, unknown>, claims: Record<string, unknown>) =>
  judge(node, { record, claims, columns: new Map(recordColumns(table).map((c) => [c.name, c])) }) === true;

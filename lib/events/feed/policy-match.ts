// A select policy judged on an event's record instead of a table row: the feed cannot ask the database about a
// row as it was. It reads the same bound form as the SQL (lib/rls/bind-policy.ts), with SQL's three-valued
// logic: NULL is unknown, NOT unknown stays unknown, only true passes.
import type { TableDef } from "../../schema/types";
import { recordColumns } from "../../schema/types";
import { type BoundNode, bindPolicy, type Side } from "../../rls/bind-policy";
import type { PolicyNode } from "../../rls/parse-policy";
import { compareNorm, type Domain, holds, type Norm, toDomain } from "../../rls/policy-values";

type Truth = boolean | null;
type Record_ = Record<string, unknown>;

/** A record's value in the domain's form; null for NULL (a stored value always has a form). */
const valueOf = (s: Side, domain: Domain, record: Record_): Norm | null => {
  if (!("column" in s)) return s.value;
  const v = record[s.column];
  return v === null || v === undefined ? null : (toDomain(v, domain) ?? null);
};

const judge = (node: BoundNode, record: Record_): Truth => {
  switch (node.kind) {
    case "and": {
      const l = judge(node.left, record);
      const r = judge(node.right, record);
      return l === false || r === false ? false : l === null || r === null ? null : true;
    }
    case "or": {
      const l = judge(node.left, record);
      const r = judge(node.right, record);
      return l === true || r === true ? true : l === null || r === null ? null : false;
    }
    case "not": {
      const v = judge(node.expr, record);
      return v === null ? null : !v;
    }
    case "const":
      return node.value;
    case "null": {
      const v = record[node.column];
      return (v === null || v === undefined) !== node.negated;
    }
    case "in": {
      const v = valueOf({ column: node.column }, node.domain, record);
      return v === null ? null : node.values.some((x) => compareNorm(v, x) === 0);
    }
    case "compare": {
      const l = valueOf(node.left, node.domain, record);
      const r = valueOf(node.right, node.domain, record);
      return l === null || r === null ? null : holds(compareNorm(l, r), node.op);
    }
  }
};

/** The policy bound once for this caller: a test of records, true when one passes (unknown counts as refused). */
export const policyMatcher = (node: PolicyNode, table: TableDef, claims: Record<string, unknown>) => {
  const bound = bindPolicy(node, { columns: new Map(recordColumns(table).map((c) => [c.name, c])), claims });
  return (record: Record_) => judge(bound, record) === true;
};

export const recordMatches = (node: PolicyNode, table: TableDef, record: Record_, claims: Record<string, unknown>) =>
  policyMatcher(node, table, claims)(record);

// A policy → a SQL predicate, from its bound form (bind-policy.ts) so SQL and the feed's matcher share one
// meaning. Identifiers only through sql.id, every value (literals and the caller's claims) a bound parameter:
// nothing from the policy text or the token is spliced into SQL.
import { type RawBuilder, sql } from "kysely";
import type { EngineKind } from "../config";
import type { ColumnDef } from "../schema/types";
import { type BoundNode, bindPolicy, type Side } from "./bind-policy";
import type { PolicyNode } from "./parse-policy";
import type { Domain } from "./policy-values";

type Fragment = RawBuilder<unknown>;

export type CompileContext = {
  engine: EngineKind;
  columns: Map<string, ColumnDef>;
  qualifier?: string;
  /** The caller's claims; `id` is the user id (the `sub` claim as a number). */
  claims: Record<string, unknown>;
};

type SqlContext = { engine: EngineKind; qualifier?: string };

const columnRef = (name: string, ctx: SqlContext) => (ctx.qualifier ? sql.id(ctx.qualifier, name) : sql.id(name));

// Text compares by UTF-8 bytes on both engines: SQLite's default BINARY collation does; MySQL's utf8mb4_bin pads
// trailing spaces, BINARY does not. Times and dates are bound in their stored form: text order on SQLite, the
// column's type on MySQL, the same instants either way.
const side = (s: Side, domain: Domain, ctx: SqlContext): Fragment => {
  const f = "column" in s ? columnRef(s.column, ctx) : sql`${s.value}`;
  return ctx.engine === "mysql" && domain === "text" ? sql`BINARY ${f}` : f;
};

const compileNode = (node: BoundNode, ctx: SqlContext): Fragment => {
  switch (node.kind) {
    case "and":
      return sql`(${compileNode(node.left, ctx)} AND ${compileNode(node.right, ctx)})`;
    case "or":
      return sql`(${compileNode(node.left, ctx)} OR ${compileNode(node.right, ctx)})`;
    case "not":
      // NOT of an unknown (NULL) stays unknown, so a row with NULLs never slips through a negation.
      return sql`(NOT ${compileNode(node.expr, ctx)})`;
    case "const":
      return node.value ? sql`(1 = 1)` : sql`(1 = 0)`;
    case "null": {
      const column = columnRef(node.column, ctx);
      return node.negated ? sql`(${column} IS NOT NULL)` : sql`(${column} IS NULL)`;
    }
    case "in": {
      const values = node.values.map((value) => side({ value }, node.domain, ctx));
      return sql`(${side({ column: node.column }, node.domain, ctx)} IN (${sql.join(values)}))`;
    }
    case "compare":
      return sql`(${side(node.left, node.domain, ctx)} ${sql.raw(node.op === "!=" ? "<>" : node.op)} ${side(node.right, node.domain, ctx)})`;
  }
};

export const compilePolicy = (node: PolicyNode, ctx: CompileContext): Fragment =>
  compileNode(bindPolicy(node, { columns: ctx.columns, claims: ctx.claims }), ctx);

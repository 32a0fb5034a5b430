// The save-time half of the cost bound: an estimate of a step's worst-case time, in nanoseconds, assuming every
// value is as large as its column allows (varchar its length, text 65,535, json 1 MiB) and every value the step
// builds as large as its parts allow (up to the 1 MiB a run lets it reach). A step over STEP_COST_LIMIT_NS — what
// nesting or repeating growth (cel.bind doubling, concatenation, walks of built values) gives — is refused.
import type { ColumnDef, TableDef } from "../schema/types";
import { type AstNode, childrenOf } from "./bound-program";
import { ELEMENT_SIZE, VALUE_LIMIT } from "./limits";
import { isJson } from "../schema/type-traits";

type Bound = { size: number; cost: number };

/** Functions whose result is a number, a bool or a timestamp, whatever their input. */
const SMALL_RESULT = /^(size|int|uint|double|bool|type|startsWith|endsWith|contains|indexOf|lastIndexOf|matches|timestamp|duration|has|at|get[A-Z]\w*)$/;

/** Worst nanoseconds per character of input, measured on 1 MiB strings here (2 shared vCPUs), rounded up. */
const WEIGHT: Record<string, number> = {
  size: 2, startsWith: 2, endsWith: 2, bytes: 2, string: 2, trim: 2, substring: 2, int: 2, uint: 2, double: 2, bool: 2,
  join: 6, base64: 8, hex: 12, contains: 16, indexOf: 16, lastIndexOf: 16, lowerAscii: 20, upperAscii: 20, split: 36,
};
const OTHER_CALL_WEIGHT = 30;
/** Operators (+, ==, in, <, …) copy or compare their operands at most once. */
const OPERATOR_WEIGHT = 2;
/** How much larger than its input a function's result may be (1 when not listed). */
const GROWTH: Record<string, number> = { split: 9, bytes: 3, hex: 2, base64: 2, join: 2 };

const columnSize = (c: ColumnDef) => {
  if (c.type === "varchar") return c.length ?? 255;
  if (c.type === "dropdown") return Math.max(ELEMENT_SIZE, ...(c.options ?? []).map((o) => o.length));
  if (c.type === "text") return 65_535;
  if (isJson(c)) return VALUE_LIMIT;
  return 32;
};

const cap = (n: number) => Math.min(VALUE_LIMIT, n);

/** The step's estimated worst case in nanoseconds. */
export const estimateCost = (table: TableDef, root: AstNode): number => {
  const columns = new Map(table.columns.map((c) => [c.name, columnSize(c)]));
  const rowSize = [...columns.values()].reduce((a, b) => a + b + 2 * ELEMENT_SIZE, 3 * 32);
  const variable = (name: string, scope: Map<string, number>) =>
    scope.get(name) ?? (name === "new" || name === "old" ? rowSize : name === "auth" ? 64 : name === "cel" ? 0 : ELEMENT_SIZE);

  const visit = (node: AstNode, scope: Map<string, number>): Bound => {
    if (node.meta.alternate) return visit(node.meta.alternate, scope);
    const args = node.args as unknown[];
    switch (node.op) {
      case "value":
        return { size: typeof node.args === "string" ? node.args.length : ELEMENT_SIZE, cost: 1 };
      case "id":
        return { size: variable(node.args as string, scope), cost: 1 };
      case ".":
      case ".?": {
        const [target, field] = args as [AstNode, string];
        const of = visit(target, scope);
        const isRow = target.op === "id" && (target.args === "new" || target.args === "old") && !scope.has(target.args as string);
        return { size: isRow ? (columns.get(field) ?? ELEMENT_SIZE) : of.size, cost: of.cost + 1 };
      }
      case "rcall":
        if (args[0] === "bind") return bind(args as [string, AstNode, AstNode[]], scope);
        return call(args[0] as string, [args[1] as AstNode, ...(args[2] as AstNode[])], scope);
      case "call":
        return call(args[0] as string, args[1] as AstNode[], scope);
      default: {
        // Operators, literals, access and conditionals: each may walk its operands once.
        const parts = childrenOf(node).map((n) => visit(n, scope));
        const sizes = parts.reduce((n, p) => n + p.size, 0);
        const cost = parts.reduce((n, p) => n + p.cost, 0) + OPERATOR_WEIGHT * Math.min(sizes, VALUE_LIMIT);
        if (node.op === "+" || node.op === "list" || node.op === "map") return { size: cap(sizes + ELEMENT_SIZE * parts.length), cost };
        if (node.op === "?:" || node.op === "[]" || node.op === "[?]") return { size: Math.max(...parts.slice(1).map((p) => p.size), parts[0].size), cost };
        return { size: ELEMENT_SIZE, cost };
      }
    }
  };

  const call = (name: string, nodes: AstNode[], scope: Map<string, number>): Bound => {
    const parts = nodes.map((n) => visit(n, scope));
    const input = parts.reduce((n, p) => n + p.size, 0);
    const cost = parts.reduce((n, p) => n + p.cost, 0) + (WEIGHT[name] ?? OTHER_CALL_WEIGHT) * Math.min(input, VALUE_LIMIT);
    return { size: SMALL_RESULT.test(name) ? ELEMENT_SIZE : cap((GROWTH[name] ?? 1) * input + ELEMENT_SIZE), cost };
  };

  /** cel.bind(name, value, expression): the name stands for a value of the bound size wherever it is used. */
  const bind = ([, , [name, value, body]]: [string, AstNode, AstNode[]], scope: Map<string, number>): Bound => {
    const bound = visit(value, scope);
    const inner = visit(body, new Map(scope).set(String(name.args), bound.size));
    return { size: inner.size, cost: bound.cost + inner.cost };
  };

  return visit(root, new Map()).cost;
};

import type { ColumnType, JoinDefinition } from "../api/types";
import { isReference } from "@/lib/schema/type-traits";

/**
 * What the visual editor holds: tables in the order added (the first is the base), key pairs, ticked outputs,
 * and the joined tables chosen as left joins (the others are inner, the default).
 */
export type CanvasState = {
  tables: string[];
  pairs: [string, string][];
  outputs: { column: string; as: string }[];
  left?: string[];
};

export const EMPTY_CANVAS: CanvasState = { tables: [], pairs: [], outputs: [] };

const tableOf = (ref: string) => ref.slice(0, ref.indexOf("."));

/**
 * The stored definition from the canvas: tables are ordered by walking the key pairs out from the base, and
 * each pair belongs to the later of its two tables (the server wants every pair to link a table to an earlier one).
 * Tables not connected to the base come last with no key pairs, so the preview says which ones still need one.
 */
export const canvasDefinition = (state: CanvasState): JoinDefinition | undefined => {
  const [base] = state.tables;
  if (!base) return undefined;
  const order = [base];
  for (let i = 0; i < order.length; i++) {
    for (const [a, b] of state.pairs) {
      for (const [from, to] of [[a, b], [b, a]]) {
        const next = tableOf(to);
        if (tableOf(from) === order[i] && state.tables.includes(next) && !order.includes(next)) order.push(next);
      }
    }
  }
  order.push(...state.tables.filter((t) => !order.includes(t)));
  const rank = (ref: string) => order.indexOf(tableOf(ref));
  const joins = order.slice(1).map((table) => ({
    table,
    on: state.pairs
      .filter(([a, b]) => rank(a) >= 0 && rank(b) >= 0 && Math.max(rank(a), rank(b)) === order.indexOf(table))
      .map(([a, b]) => (rank(a) < rank(b) ? [a, b] : [b, a]) as [string, string]),
    ...(state.left?.includes(table) ? { type: "left" as const } : {}),
  }));
  return { base, joins, columns: state.outputs };
};

/** A free output name for a newly ticked column: its own name, else `table_column`. */
export const outputNameFor = (state: CanvasState, ref: string) => {
  const [table, column] = [tableOf(ref), ref.slice(ref.indexOf(".") + 1)];
  return state.outputs.some((o) => o.as === column) ? `${table}_${column}` : column;
};

/** A saved definition back on the canvas, to edit it. */
export const canvasFromDefinition = (d: JoinDefinition): CanvasState => ({
  tables: [d.base, ...d.joins.map((j) => j.table)],
  pairs: d.joins.flatMap((j) => j.on.map(([a, b]) => [a, b] as [string, string])),
  outputs: d.columns.map((c) => ({ column: c.column, as: c.as ?? c.column.slice(c.column.indexOf(".") + 1) })),
  left: d.joins.filter((j) => j.type === "left").map((j) => j.table),
});

type RefTable = { name: string; columns: { name: string; type: ColumnType; references?: string }[] };

/** Key pairs the schema's references suggest between tables on the canvas, not yet made: `books.author_id = authors.id`. */
export const proposedPairs = (state: CanvasState, tables: RefTable[]): [string, string][] =>
  tables
    .filter((t) => state.tables.includes(t.name))
    .flatMap((t) =>
      t.columns
        .filter((c) => isReference(c) && c.references && c.references !== t.name && state.tables.includes(c.references))
        .map((c): [string, string] => [`${t.name}.${c.name}`, `${c.references}.id`]),
    )
    .filter(([a, b]) => !state.pairs.some(([x, y]) => (x === a && y === b) || (x === b && y === a)));

/** The SQL text of a structured definition, so a join made visually also opens in SQL mode. */
export const definitionSql = (d: JoinDefinition) =>
  [
    `SELECT ${d.columns.map((c) => `${c.column}${c.as ? ` AS ${c.as}` : ""}`).join(", ")}`,
    `FROM ${d.base}`,
    ...d.joins.map((j) => `${j.type === "left" ? "LEFT" : "INNER"} JOIN ${j.table} ON ${j.on.map(([a, b]) => `${a} = ${b}`).join(" AND ")}`),
  ].join("\n");

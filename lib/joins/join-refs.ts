import { type ColumnDef, type DatabaseSchema, type JoinDef, recordColumns, type TableDef } from "../schema/types";

/** "books.title" → its table and column in the live schema, or undefined when either is missing. */
export const resolveJoinRef = (schema: DatabaseSchema, ref: unknown): { table: TableDef; column: ColumnDef } | undefined => {
  if (typeof ref !== "string") return undefined;
  const dot = ref.indexOf(".");
  const table = dot > 0 ? schema.tables.get(ref.slice(0, dot)) : undefined;
  const column = table && recordColumns(table).find((c) => c.name === ref.slice(dot + 1));
  return table && column ? { table, column } : undefined;
};

export const refTable = (ref: string) => ref.slice(0, ref.indexOf("."));
export const refColumn = (ref: string) => ref.slice(ref.indexOf(".") + 1);

/** Every table a join reads, base first. */
const joinTables = (join: Pick<JoinDef, "base" | "joins">) => [join.base, ...join.joins.map((j) => j.table)];

/** Every "table.column" a join uses: key pairs and output columns. */
const joinRefs = (join: JoinDef) => [...join.joins.flatMap((j) => j.on.flat()), ...join.columns.map((c) => c.column)];

export const joinsUsingTable = (schema: DatabaseSchema, table: string) =>
  [...(schema.joins?.values() ?? [])].filter((j) => joinTables(j).includes(table));

export const joinsUsingColumn = (schema: DatabaseSchema, table: string, column: string) =>
  [...(schema.joins?.values() ?? [])].filter((j) => joinRefs(j).includes(`${table}.${column}`));

/** The definition with every reference to `table` (or to `table.column`, when given) renamed. */
export const renameInJoin = (join: JoinDef, table: string, to: { table?: string; column?: string; from?: string }): JoinDef => {
  const map = (ref: string) => {
    if (refTable(ref) !== table) return ref;
    if (to.from !== undefined) return refColumn(ref) === to.from ? `${table}.${to.column}` : ref;
    return `${to.table}.${refColumn(ref)}`;
  };
  const mapTable = (name: string) => (to.table && name === table ? to.table : name);
  return {
    ...join,
    base: mapTable(join.base),
    joins: join.joins.map((j) => ({ ...j, table: mapTable(j.table), on: j.on.map(([a, b]) => [map(a), map(b)] as [string, string]) })),
    columns: join.columns.map((c) => ({ column: map(c.column), as: c.as })),
  };
};

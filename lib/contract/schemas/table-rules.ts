// The rules of a table object and of a quick create's table list that span several properties (duplicate
// names, the table limits, indexes over the table's own columns, references among the listed tables), run as
// refinements; and the definitions a parsed table stands for. Pure: existing tables are the service's check.
import { parseIndexes, type IndexFields } from "../../schema/indexes";
import { tableLimitErrors } from "../../schema/table-limits";
import type { ColumnDef, IndexDef } from "../../schema/types";
import { type ColumnFields, type Problem, toColumnDef } from "./column-rules";

export type TableFields = { name: string; columns?: ColumnFields[]; indexes?: IndexFields[]; history?: boolean };

/** A table as a create makes it: normalised columns and named indexes. */
export type NewTable = { name: string; columns: ColumnDef[]; indexes: IndexDef[]; history?: boolean };

const duplicates = (names: string[], at: (i: number) => Problem["path"], what: string): Problem[] =>
  names.flatMap((name, i) => (names.indexOf(name) === i ? [] : [{ path: at(i), code: "duplicate", message: `${what} "${name}" is defined twice` }]));

/** Each issue at its field (a path already written as text, like `indexes[0].columns[1]`). */
const atField = (errors: { field: string; code: string; message: string }[]): Problem[] => errors.map((e) => ({ path: [e.field], code: e.code, message: e.message }));

export const toNewTable = (input: TableFields): NewTable => {
  const columns = (input.columns ?? []).map(toColumnDef);
  const indexes = parseIndexes(input.indexes, "", { id: 0, name: input.name, columns }).indexes;
  return { name: input.name, columns, indexes, ...(input.history === false ? { history: false } : {}) };
};

export const tableProblems = (input: TableFields): Problem[] => {
  const columns = (input.columns ?? []).map(toColumnDef);
  const twice = duplicates(columns.map((c) => c.name), (i) => ["columns", i, "name"], "column");
  if (twice.length) return twice;
  const limits = tableLimitErrors(columns, "columns");
  if (limits.length) return atField(limits);
  return atField(parseIndexes(input.indexes, "", { id: 0, name: input.name, columns }).errors);
};

/** References that name no table: `known` says which names exist (or are created in the same request). */
export const unknownReferences = (tables: TableFields[], known: (name: string) => boolean, at: (i: number) => Problem["path"] = () => []): Problem[] =>
  tables.flatMap((t, i) =>
    (t.columns ?? []).flatMap((c, j): Problem[] =>
      c.references !== undefined && !known(c.references)
        ? [{ path: [...at(i), "columns", j, "references"], code: "unknown_table", message: `table "${c.references}" does not exist` }]
        : [],
    ),
  );

/** A quick create's tables: names unique, references among them. */
export const tableListProblems = (tables: TableFields[]): Problem[] => {
  const names = tables.map((t) => t.name);
  return [...unknownReferences(tables, (n) => names.includes(n), (i) => ["tables", i]), ...duplicates(names, (i) => ["tables", i, "name"], "table")];
};

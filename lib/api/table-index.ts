import type { CompiledQuery } from "kysely";
import { type ColumnDef, recordColumns, type TableDef } from "../schema/types";
import type { OutputColumns } from "../db/page-json.mjs";
import { TO_JSON } from "../schema/to-json.mjs";
import { setStoredJson } from "../schema/stored-json";
import { isJson, isSecret } from "../schema/type-traits";

/** Per-table lookups the hot path needs, built once per cached table definition. */
export type TableIndex = {
  table: TableDef;
  all: ColumnDef[];
  byName: Map<string, ColumnDef>;
  /** [name, type] in output order. */
  output: OutputColumns;
  /** Whether a column is json (toRecord then keeps its stored text, stored-json.ts). */
  hasJson: boolean;
  /** Compiled fixed-shape statements (by-id read, writes) without their values, so the hot path skips query building. */
  sqlText: Map<string, CompiledQuery>;
};

const cache = new WeakMap<TableDef, TableIndex>();

export const indexTable = (table: TableDef): TableIndex => {
  let index = cache.get(table);
  if (!index) {
    const all = recordColumns(table);
    index = {
      table,
      all,
      byName: new Map(all.map((c) => [c.name, c])),
      output: all.map((c) => [c.name, c.type]),
      hasJson: all.some(isJson),
      sqlText: new Map(),
    };
    cache.set(table, index);
  }
  return index;
};

const userCache = new WeakMap<TableDef, TableIndex>();

/** The index JWT users are answered with: password columns (bcrypt hashes) never reach a browser. */
export const indexTableForUsers = (table: TableDef): TableIndex => {
  let index = userCache.get(table);
  if (!index) {
    const full = indexTable(table);
    index = { ...full, output: full.output.filter(([, type]) => !isSecret(type)), sqlText: new Map() };
    userCache.set(table, index);
  }
  return index;
};

export const toRecord = (index: TableIndex, row: Record<string, unknown>) => {
  const record: Record<string, unknown> = {};
  if (!index.hasJson) {
    for (const [name, type] of index.output) record[name] = TO_JSON[type](row[name]);
    return record;
  }
  for (const [name, type] of index.output) {
    const value = row[name];
    if (isJson(type) && typeof value === "string") setStoredJson(record, name, value);
    else record[name] = TO_JSON[type](value);
  }
  return record;
};

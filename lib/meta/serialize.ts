import { mysqlTypeOf } from "../schema/column-types";
import type { ColumnDef, DatabaseSchema, IndexDef, TableDef } from "../schema/types";

/** A column as the management API shows it: its definition plus the MySQL type it maps to. */
export const columnView = (c: ColumnDef) => {
  const view: Record<string, unknown> = { name: c.name, type: c.type, nullable: c.nullable, unique: c.unique, index: !!(c.index || c.references), searchable: !!c.searchable };
  for (const key of ["default", "length", "precision", "scale", "options", "references", "multiple", "max_size", "accept", "thumbs", "public"] as const) {
    if (c[key] !== undefined) view[key] = c[key];
  }
  view.mysql_type = mysqlTypeOf(c);
  return view;
};

/** The `tables.indexes` metadata value: JSON, or null when the table has none. */
export const storedIndexes = (indexes: IndexDef[] = []) => (indexes.length ? JSON.stringify(indexes) : null);

export const indexView = (i: IndexDef) => ({ name: i.name, columns: i.columns, unique: i.unique });

export const tableView = (t: TableDef) => ({
  name: t.name,
  columns: t.columns.map(columnView),
  indexes: (t.indexes ?? []).map(indexView),
  history: t.history !== false,
  automatic_columns: ["id", "created_at", "updated_at"],
});

export const databaseView = (s: DatabaseSchema, extra: { created_at?: string; updated_at?: string } = {}) => ({
  instance: s.instance,
  name: s.name,
  owner_id: s.ownerId,
  api_base: `/v1/${s.instance}`,
  tables: [...s.tables.values()].map(tableView),
  ...extra,
});

// How a reference cell names the row it points at: a display column of the referenced table (its first unique
// column, else its first text column, else the id), taken from the `expand` objects the page read brought
// (`_expand`: one request for the page and its references, never one read per cell).
import type { Column, DataRecord, Table } from "../api/types";
import { isOrderable, isReference } from "@/lib/schema/type-traits";

const TEXT_TYPES: Column["type"][] = ["varchar", "text"];
const SHOWABLE = (c: Column) => isOrderable(c);

/** The column that names a row of `table`: first unique, else first text column, else `id`. */
export const displayColumnOf = (table: Table | undefined): string => {
  if (!table) return "id";
  const unique = table.columns.find((c) => c.unique && SHOWABLE(c));
  const text = table.columns.find((c) => TEXT_TYPES.includes(c.type));
  return (unique ?? text)?.name ?? "id";
};

/** Reads rows of a table with a data API query string; the grid passes its key-bearing fetch. */
export type ReadRows = (table: string, query: string) => Promise<DataRecord[]>;

/** referenced table → id → display text. */
export type ReferenceLabels = Record<string, Record<number, string>>;

/** `_expand` takes at most this many reference columns per read. */
export const MAX_EXPAND = 5;

/** The reference columns a page read expands: the shown ones, up to MAX_EXPAND (others show their id alone). */
export const expandColumns = (table: Pick<Table, "columns">, hidden?: Set<string>) =>
  table.columns
    .filter((c) => isReference(c) && c.references && !hidden?.has(c.name))
    .slice(0, MAX_EXPAND)
    .map((c) => c.name);

/** Display labels from the page's own `expand` objects (the read that brought the rows asked `_expand`). */
export const expandedLabels = (table: Pick<Table, "columns">, tables: Table[], rows: DataRecord[]): ReferenceLabels => {
  const out: ReferenceLabels = {};
  for (const column of table.columns) {
    if (!isReference(column) || !column.references) continue;
    const display = displayColumnOf(tables.find((t) => t.name === column.references));
    const labels = (out[column.references] ??= {});
    for (const row of rows) {
      const target = (row.expand as Record<string, DataRecord | null> | undefined)?.[column.name];
      if (target) labels[target.id] = target[display] == null ? `#${target.id}` : String(target[display]);
    }
  }
  return out;
};

/** The picker's search: a substring of the display column (or an id), first 20 matches in display order. */
export const pickerQuery = (target: Table | undefined, term: string) => {
  const display = displayColumnOf(target);
  const column = target?.columns.find((c) => c.name === display);
  const t = term.trim();
  const search = !t
    ? ""
    : column && TEXT_TYPES.includes(column.type)
      ? `${display}_ilike=${encodeURIComponent(t)}&`
      : /^\d{1,15}$/.test(t)
        ? `id=${t}&`
        : "";
  return `${search}_sort=${display}&_limit=20`;
};

// How a reference cell names the row it points at: a display column of the referenced table (its first unique
// column, else its first text column, else the id), read for a whole page at once with one `id_in=` query per
// referenced table, never one read per cell. Pure apart from the `read` it is given.
import type { Column, DataRecord, Table } from "../api/types";

const TEXT_TYPES: Column["type"][] = ["varchar", "text"];
const SHOWABLE = (c: Column) => !["password", "json"].includes(c.type);

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

/** The one query per referenced table that reads the display column of every id on the page. */
export const displayQueries = (table: Table, tables: Table[], rows: DataRecord[]) => {
  const ids = new Map<string, Set<number>>();
  for (const column of table.columns) {
    if (column.type !== "reference" || !column.references) continue;
    const set = ids.get(column.references) ?? new Set<number>();
    for (const row of rows) if (typeof row[column.name] === "number") set.add(row[column.name] as number);
    ids.set(column.references, set);
  }
  return [...ids]
    .filter(([, set]) => set.size > 0)
    .map(([target, set]) => {
      const display = displayColumnOf(tables.find((t) => t.name === target));
      const list = [...set].sort((a, b) => a - b);
      return { table: target, display, query: `id_in=${list.join(",")}&_limit=${Math.min(1000, list.length)}` };
    });
};

/** Display labels for every reference on the page: one batched read per referenced table. */
export const loadReferenceLabels = async (table: Table, tables: Table[], rows: DataRecord[], read: ReadRows): Promise<ReferenceLabels> => {
  const out: ReferenceLabels = {};
  await Promise.all(
    displayQueries(table, tables, rows).map(async ({ table: target, display, query }) => {
      const found = await read(target, query);
      out[target] = Object.fromEntries(found.map((r) => [r.id, r[display] == null ? `#${r.id}` : String(r[display])]));
    }),
  );
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

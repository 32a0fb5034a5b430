import type { GridColumn } from "../data/records-grid";

/**
 * The SQL console's `column_types` (beside `columns`, same order): each result column's type as the engine
 * names it (MariaDB: "BIGINT", "DECIMAL(10,2)", "DATETIME"; SQLite: the declared type, null for an expression).
 * A server without it, or a null entry, falls back to what the values show.
 */
export type ServerColumnTypes = { column_types?: (string | null)[] };

/** Server types that read as numbers: right-aligned, shown exactly as sent (never rounded to a scale). */
const NUMERIC_TYPE = /^(tiny|small|medium|big)?int(eger)?\b|^(decimal|numeric|float|double|real)\b/i;

/** What the values alone show: whole numbers, other numbers, booleans, JSON, strings; nothing more is guessed. */
const kindOfValues = (values: unknown[]): Pick<GridColumn, "type" | "label"> => {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length && present.every((v) => typeof v === "number")) {
    return present.every(Number.isInteger) ? { type: "bigint", label: "integer" } : { type: "float", label: "number" };
  }
  if (present.length && present.every((v) => typeof v === "boolean")) return { type: "text", label: "boolean" };
  if (present.length && present.every((v) => typeof v === "object")) return { type: "text", label: "json" };
  return { type: "text", label: present.length ? "string" : "null" };
};

/** Grid columns for a result: the server's type when it sent one, else the kind of the values. */
export const resultColumns = (names: string[], rows: unknown[][], types?: (string | null)[]): GridColumn[] =>
  names.map((name, i) => {
    const server = types?.[i];
    if (server) return { name, type: NUMERIC_TYPE.test(server) ? "float" : "text", label: server };
    return { name, ...kindOfValues(rows.map((r) => r[i])) };
  });

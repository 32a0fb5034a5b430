// CSV of records, RFC 4180: CRLF between records, a field quoted when it holds a comma, a quote, CR or LF, and
// quotes doubled inside. NULL is an empty unquoted field and an empty string is `""` (PostgreSQL's COPY CSV
// convention), so an export reads back to exactly the same values. Pure: the grid and the tests share it.
import type { Column } from "../api/types";
import { atScale, textToValue } from "./record-values";
import { isFile, isJson, isTextual } from "@/lib/schema/type-traits";

/** A parsed cell: its text, or null for an empty field that was not quoted. */
export type CsvCell = string | null;

const NEEDS_QUOTES = /[",\r\n]/;

const quoteField = (text: string) => (text === "" || NEEDS_QUOTES.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text);

export type CsvColumn = Pick<Column, "name" | "type"> & { scale?: number };

/** One exported value as CSV text: a JSON column as JSON (a JSON string keeps its quotes), decimals at their scale. */
const fieldOf = (column: CsvColumn, value: unknown): string => {
  if (value === null || value === undefined) return "";
  // A file column exports its stored names, space-separated (the files themselves are downloads).
  if (isFile(column)) return quoteField((Array.isArray(value) ? value : [value]).map((f) => (f as { name?: string })?.name ?? "").join(" "));
  if (isJson(column) || typeof value === "object") return quoteField(JSON.stringify(value));
  return quoteField(atScale(column, value));
};

/** Header line plus one line per record, in `columns` order. */
export const toCsv = (columns: CsvColumn[], rows: Record<string, unknown>[]) =>
  [columns.map((c) => quoteField(c.name)).join(","), ...rows.map((r) => columns.map((c) => fieldOf(c, r[c.name])).join(","))].join("\r\n") + "\r\n";

/** Reads CSV text (CRLF or LF) into rows of cells; a quote left open is an error naming its line. */
export const parseCsv = (text: string): CsvCell[][] => {
  const rows: CsvCell[][] = [];
  let row: CsvCell[] = [];
  let cell = "";
  let quoted = false;
  let inQuotes = false;
  let line = 1;
  let opened = 1;
  const endCell = () => {
    row.push(cell === "" && !quoted ? null : cell);
    cell = "";
    quoted = false;
  };
  const endRow = () => {
    endCell();
    // A blank line is no record.
    if (!(row.length === 1 && row[0] === null)) rows.push(row);
    row = [];
  };
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (inQuotes) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') inQuotes = false;
      else {
        if (ch === "\n") line++;
        cell += ch;
      }
    } else if (ch === '"' && cell === "") {
      inQuotes = true;
      quoted = true;
      opened = line;
    } else if (ch === ",") endCell();
    else if (ch === "\r" && body[i + 1] === "\n") {
      endRow();
      i++;
      line++;
    } else if (ch === "\n" || ch === "\r") {
      endRow();
      line++;
    } else cell += ch;
  }
  if (inQuotes) throw new Error(`line ${opened}: a quoted field is never closed`);
  if (cell !== "" || quoted || row.length) endRow();
  return rows;
};

/** Which CSV header feeds which column ("" = not imported); by default a header feeds the column of its name. */
export type ColumnMapping = Record<string, string>;

/** `First Name`, `first_name` and `FIRST NAME` name the same column. */
const headerKey = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, "");

export const defaultMapping = (header: string[], columns: Pick<Column, "name">[]): ColumnMapping =>
  Object.fromEntries(columns.map((c) => [c.name, header.find((h) => h === c.name) ?? header.find((h) => headerKey(h) === headerKey(c.name)) ?? ""]));

export type RowProblem = { line: number; field: string; message: string };

/**
 * CSV rows → record bodies through the mapping. Returns the bodies with the CSV line each came from (line 1 is
 * the header) and the problems found before sending (JSON that does not parse); the API checks the rest.
 */
export const csvToRecords = (cells: CsvCell[][], mapping: ColumnMapping, columns: Column[]) => {
  const [header = [], ...data] = cells;
  const records: { line: number; body: Record<string, unknown> }[] = [];
  const problems: RowProblem[] = [];
  data.forEach((row, i) => {
    const line = i + 2;
    const body: Record<string, unknown> = {};
    for (const column of columns) {
      const source = mapping[column.name];
      if (!source) continue;
      const cell = row[header.indexOf(source)];
      if (cell === undefined) continue;
      if (cell === null) {
        body[column.name] = null;
        continue;
      }
      // An empty string is text only for text columns; elsewhere `""` is as empty as NULL.
      const parsed = isTextual(column) ? { value: cell } : cell === "" ? { value: null } : textToValue(column, cell);
      if (parsed.error) problems.push({ line, field: column.name, message: `"${column.name}" ${parsed.error}` });
      else body[column.name] = parsed.value;
    }
    // Checked here as the API would, so all-or-nothing (which sends nothing once a problem is found) and
    // valid-rows-only name the same problems.
    for (const column of columns) {
      const missing = body[column.name] === null || (body[column.name] === undefined && column.default === undefined);
      if (!column.nullable && missing && !problems.some((p) => p.line === line && p.field === column.name)) {
        problems.push({ line, field: column.name, message: `"${column.name}" is required` });
      }
    }
    records.push({ line, body });
  });
  return { records, problems };
};

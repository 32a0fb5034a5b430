import type { Column } from "../api/types";

export type FormValues = Record<string, string>;

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** A stored value as the text its input shows (passwords start empty: the hash is never edited). */
export const valueToText = (column: Column, value: unknown) => {
  if (value === null || value === undefined || column.type === "password") return "";
  if (column.type === "json") return JSON.stringify(value, null, 2);
  return String(value);
};

/**
 * Typed text → the JSON value the API expects. Text that does not fit the type is sent as typed, so the API
 * answers with its own 422 for that field (the dashboard shows what any client would get). JSON must parse.
 */
export const textToValue = (column: Column, text: string): { value?: unknown; error?: string } => {
  if (text === "") return { value: null };
  const trimmed = text.trim();
  switch (column.type) {
    case "int":
    case "bigint":
    case "reference":
      return { value: INTEGER.test(trimmed) ? Number(trimmed) : text };
    case "decimal":
    case "float":
      return { value: NUMBER.test(trimmed) ? Number(trimmed) : text };
    case "boolean":
      return { value: text === "true" ? true : text === "false" ? false : text };
    case "json":
      try {
        return { value: JSON.parse(text) };
      } catch {
        return { error: "is not valid JSON" };
      }
    default:
      return { value: text };
  }
};

/**
 * The body of a POST (every filled field; empty ones are left to their defaults) or a PATCH (only the fields
 * that changed). Returns client-side problems (unparseable JSON) by column.
 */
export const buildRecordBody = (columns: Column[], values: FormValues, initial?: FormValues) => {
  const body: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const column of columns) {
    const text = values[column.name] ?? "";
    if (initial ? text === (initial[column.name] ?? "") : text === "") continue;
    const { value, error } = textToValue(column, text);
    if (error) errors[column.name] = `"${column.name}" ${error}`;
    else body[column.name] = value;
  }
  return { body, errors };
};

/** How a cell shows a value: passwords masked, NULL dimmed, JSON compact. */
export const cellText = (column: Pick<Column, "type">, value: unknown) => {
  if (column.type === "password") return value == null ? "NULL" : "••••••••";
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "object") return JSON.stringify(value);
  // Datetimes read better without the T, milliseconds and Z (the full value is the cell's title).
  if (column.type === "datetime" && typeof value === "string") return value.replace("T", " ").slice(0, 19);
  return String(value);
};

import { typedValue } from "@/lib/schema/typed-value";
import type { Column } from "../api/types";
import { isFile, isJson, isSecret, scaleOf } from "@/lib/schema/type-traits";

export type FormValues = Record<string, string>;

/** A decimal at its column's scale (17.5 in a DECIMAL(10,2) reads 17.50). */
export const atScale = (column: Pick<Column, "type" | "scale">, value: unknown) => {
  const scale = scaleOf(column);
  return scale !== undefined && typeof value === "number" ? value.toFixed(scale) : String(value);
};

/** A stored value as the text its input shows (passwords start empty: the hash is never edited). */
export const valueToText = (column: Column, value: unknown) => {
  if (value === null || value === undefined || isSecret(column)) return "";
  if (isJson(column)) return JSON.stringify(value, null, 2);
  return atScale(column, value);
};

/**
 * Typed text → the JSON value the API expects, checked with the server's own limits (lib/schema/value-checks.ts):
 * text that does not fit is an error naming the problem, never a value sent as something else (1e400 is not null).
 */
export const textToValue = (column: Column, text: string): { value?: unknown; error?: string } => {
  if (text === "") return { value: null };
  const check = typedValue(column, text);
  return check.ok ? { value: check.value } : { error: check.message };
};

/**
 * The body of a POST (every filled field; empty ones are left to their defaults) or a PATCH (only the fields
 * that changed). Returns client-side problems (unparseable JSON) by column.
 */
export const buildRecordBody = (columns: Column[], values: FormValues, initial?: FormValues) => {
  const body: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const column of columns) {
    // Files go as parts of a multipart write (record-dialog.tsx), never as typed text.
    if (isFile(column)) continue;
    const text = values[column.name] ?? "";
    if (initial ? text === (initial[column.name] ?? "") : text === "") continue;
    const { value, error } = textToValue(column, text);
    if (error) errors[column.name] = `"${column.name}" ${error}`;
    else body[column.name] = value;
  }
  return { body, errors };
};

/** How a cell shows a value: passwords masked, NULL dimmed, JSON compact, decimals at their scale. */
export const cellText = (column: Pick<Column, "type" | "scale">, value: unknown) => {
  if (isSecret(column)) return value == null ? "NULL" : "••••••••";
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "object") return JSON.stringify(value);
  // Datetimes read better without the T, milliseconds and Z (the full value is the cell's title).
  if (column.type === "datetime" && typeof value === "string") return value.replace("T", " ").slice(0, 19);
  return atScale(column, value);
};

/** What is wrong with one typed value before it is sent (the API checks again and has the last word). */
const problemOf = (column: Column, text: string, adding: boolean): string | undefined => {
  if (text === "") {
    // Editing, an empty password keeps the stored one; adding, a default fills an empty NOT NULL column.
    const required = !column.nullable && (adding ? column.default === undefined : !isSecret(column));
    return required ? "is required" : undefined;
  }
  const check = typedValue(column, text);
  return check.ok ? undefined : check.message;
};

/** Every problem of the form at once, by column, so one submit shows them all. */
export const checkRecordValues = (columns: Column[], values: FormValues, initial?: FormValues) => {
  const errors: Record<string, string> = {};
  for (const column of columns) {
    if (isFile(column)) continue;
    const text = values[column.name] ?? "";
    if (initial && text === (initial[column.name] ?? "")) continue;
    const problem = problemOf(column, text, !initial);
    if (problem) errors[column.name] = `"${column.name}" ${problem}`;
  }
  return errors;
};

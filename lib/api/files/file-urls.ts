// The `url` of each file in an answer: `/v1/{db}/{table}/{id}/{column}/{name}`. Stored values hold name, size
// and type only (renames move nothing); the url is added where a row leaves the server: data-API answers, the
// `_expand`ed rows of a referenced table, change events and webhooks.
import type { CoreResponse } from "../../http/core-types";
import type { DatabaseSchema, TableDef } from "../../schema/types";
import { fileColumnsOf } from "./file-scope";

type Row = Record<string, unknown>;

const withUrl = (base: string, id: unknown, column: string) => (file: unknown) =>
  file && typeof file === "object" ? { ...(file as Row), url: `${base}${id}/${encodeURIComponent(column)}/${(file as Row).name}` } : file;

/** Adds urls to one record's file values (in place); a record without its id (a `_select` leaving it out) keeps none. */
export const addFileUrls = (instance: string, table: TableDef, record: Row) => {
  const columns = fileColumnsOf(table);
  if (!columns.length || record.id === undefined || record.id === null) return record;
  const base = `/v1/${instance}/${encodeURIComponent(table.name)}/`;
  for (const c of columns) {
    const value = record[c.name];
    if (value === null || value === undefined) continue;
    const url = withUrl(base, record.id, c.name);
    record[c.name] = Array.isArray(value) ? value.map(url) : url(value);
  }
  return record;
};

/** Whether answers of this table, or of a table it expands, need urls. */
const needsUrls = (schema: DatabaseSchema, table: TableDef) =>
  fileColumnsOf(table).length > 0 || table.columns.some((c) => c.references && fileColumnsOf(schema.tables.get(c.references) ?? { columns: [] } as unknown as TableDef).length);

const decorate = (schema: DatabaseSchema, table: TableDef, record: unknown) => {
  if (!record || typeof record !== "object" || Array.isArray(record)) return;
  const row = record as Row;
  addFileUrls(schema.instance, table, row);
  const expand = row.expand as Row | undefined;
  if (!expand || typeof expand !== "object") return;
  for (const [name, expanded] of Object.entries(expand)) {
    const target = schema.tables.get(table.columns.find((c) => c.name === name)?.references ?? "");
    if (target && expanded && typeof expanded === "object") addFileUrls(schema.instance, target, expanded as Row);
  }
};

/** A JSON answer of a table (one record or an array of them) with the urls added. */
export const withFileUrls = (response: CoreResponse, schema: DatabaseSchema, table: TableDef): CoreResponse => {
  if (!response.body || response.status >= 300 || !needsUrls(schema, table)) return response;
  const value: unknown = JSON.parse(response.body);
  if (Array.isArray(value)) for (const record of value) decorate(schema, table, record);
  else decorate(schema, table, value);
  return { ...response, body: JSON.stringify(value) };
};

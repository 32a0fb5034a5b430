import { type FieldError, validationFailed } from "../errors";
import { checkColumnName, checkTableName } from "../schema/names";
import type { ColumnType, DatabaseSchema, JoinDef } from "../schema/types";
import { refTable, resolveJoinRef } from "./join-refs";

export type JoinSpec = Omit<JoinDef, "id">;

export const MAX_JOINED_TABLES = 8;
export const MAX_JOIN_COLUMNS = 200;

/** Key pairs compare like with like; JSON and password columns are never keys. */
const KEY_FAMILY: Record<ColumnType, string | undefined> = {
  varchar: "text",
  text: "text",
  dropdown: "text",
  int: "number",
  bigint: "number",
  reference: "number",
  decimal: "number",
  float: "number",
  boolean: "boolean",
  date: "date",
  datetime: "datetime",
  json: undefined,
  password: undefined,
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Checks a structured join `{name, base, joins: [{table, on: [["a.x", "b.y"]], type?}], columns: [{column, as}]}`
 * against the live schema; every problem is listed in one 422. `as` defaults to the column's own name.
 */
export const parseJoinDefinition = (input: Record<string, unknown>, schema: DatabaseSchema): JoinSpec => {
  const errors: FieldError[] = [];
  const fail = (field: string, code: string, message: string) => void errors.push({ field, code, message });
  for (const key of Object.keys(input)) {
    if (!["name", "base", "joins", "columns", "sql"].includes(key)) fail(key, "unknown_property", `unknown join property "${key}"`);
  }
  const nameError = checkTableName(input.name);
  if (nameError) errors.push({ ...nameError, message: nameError.message.replace(/^table/, "join") });

  const base = typeof input.base === "string" ? input.base : "";
  if (!schema.tables.has(base)) fail("base", "unknown_table", `base ${JSON.stringify(input.base ?? null)} is not a table of this database`);
  const inScope = [base];
  const joins: JoinSpec["joins"] = [];
  if (!Array.isArray(input.joins) || input.joins.length === 0 || input.joins.length > MAX_JOINED_TABLES) {
    fail("joins", "invalid_type", `joins must be an array of 1 to ${MAX_JOINED_TABLES} {"table", "on"} objects`);
  } else {
    input.joins.forEach((entry: unknown, i) => {
      const at = `joins[${i}]`;
      if (!isObject(entry)) return fail(at, "invalid_type", `${at} must be an object like {"table": "authors", "on": [["books.author_id", "authors.id"]]}`);
      const extra = Object.keys(entry).find((k) => !["table", "on", "type"].includes(k));
      if (extra) return fail(`${at}.${extra}`, "unknown_property", `unknown property "${extra}" in ${at}`);
      if (entry.type !== undefined && entry.type !== "inner" && entry.type !== "left") {
        return fail(`${at}.type`, "invalid_value", `${at}.type must be "inner" (the default) or "left"`);
      }
      const table = typeof entry.table === "string" ? entry.table : "";
      if (!schema.tables.has(table)) return fail(`${at}.table`, "unknown_table", `${at}.table ${JSON.stringify(entry.table ?? null)} is not a table of this database`);
      if (inScope.includes(table)) return fail(`${at}.table`, "duplicate_table", `table "${table}" is already in this join; each table may appear once`);
      inScope.push(table);
      if (!Array.isArray(entry.on) || entry.on.length === 0) return fail(`${at}.on`, "invalid_type", `${at}.on must list at least one key pair like ["${inScope[0]}.x_id", "${table}.id"]`);
      const on: [string, string][] = [];
      entry.on.forEach((pair: unknown, k) => {
        const where = `${at}.on[${k}]`;
        if (!Array.isArray(pair) || pair.length !== 2) return fail(where, "invalid_type", `${where} must be a pair of "table.column" strings`);
        const sides = pair.map((ref) => resolveJoinRef(schema, ref));
        const missing = pair.find((ref, n) => !sides[n]);
        if (missing !== undefined) return fail(where, "unknown_column", `${where}: ${JSON.stringify(missing)} is not a "table.column" of this database`);
        const [a, b] = pair as [string, string];
        if (!inScope.includes(refTable(a)) || !inScope.includes(refTable(b))) {
          return fail(where, "out_of_scope", `${where}: a key pair may only use "${inScope.join('", "')}" at this point`);
        }
        if (refTable(a) !== table && refTable(b) !== table) return fail(where, "not_a_key", `${where} must link "${table}" to a table before it`);
        if (refTable(a) === refTable(b)) return fail(where, "not_a_key", `${where} compares two columns of the same table`);
        const [fa, fb] = sides.map((s) => KEY_FAMILY[s!.column.type]);
        if (!fa || fa !== fb) {
          return fail(where, "incompatible_keys", `${where}: ${a} (${sides[0]!.column.type}) and ${b} (${sides[1]!.column.type}) cannot be compared as keys`);
        }
        // Stored as [earlier table, joined table], however it was written.
        on.push(refTable(b) === table ? [a, b] : [b, a]);
      });
      // Inner is the default and is stored as no type, so existing definitions read the same.
      joins.push(entry.type === "left" ? { table, on, type: "left" } : { table, on });
    });
  }

  const columns: JoinSpec["columns"] = [];
  if (!Array.isArray(input.columns) || input.columns.length === 0 || input.columns.length > MAX_JOIN_COLUMNS) {
    fail("columns", "invalid_type", `columns must be an array of 1 to ${MAX_JOIN_COLUMNS} {"column": "table.column", "as"} objects`);
  } else {
    const seen = new Set<string>();
    input.columns.forEach((entry: unknown, i) => {
      const at = `columns[${i}]`;
      if (!isObject(entry)) return fail(at, "invalid_type", `${at} must be an object like {"column": "books.title", "as": "title"}`);
      const extra = Object.keys(entry).find((k) => k !== "column" && k !== "as");
      if (extra) return fail(`${at}.${extra}`, "unknown_property", `unknown property "${extra}" in ${at}`);
      const source = resolveJoinRef(schema, entry.column);
      if (!source) return fail(`${at}.column`, "unknown_column", `${at}.column ${JSON.stringify(entry.column ?? null)} is not a "table.column" of this database`);
      if (!inScope.includes(source.table.name)) return fail(`${at}.column`, "out_of_scope", `${at}.column: table "${source.table.name}" is not part of this join`);
      const as = entry.as === undefined ? source.column.name : entry.as;
      const asError = checkColumnName(as, `${at}.as`);
      // Output names follow the column-name rules, but `id` and the timestamps are fair names in a join.
      if (asError && asError.code !== "reserved_name") return void errors.push({ ...asError, message: `output ${asError.message}` });
      if (seen.has(as as string)) return fail(`${at}.as`, "duplicate_name", `output name "${as}" is used twice; give one of them another "as"`);
      seen.add(as as string);
      columns.push({ column: entry.column as string, as: as as string });
    });
  }
  if (errors.length) throw validationFailed(errors);
  return { name: input.name as string, base, joins, columns };
};

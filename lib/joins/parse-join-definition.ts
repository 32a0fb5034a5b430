import { type FieldError, validationFailed } from "../errors";
import type { ColumnType, DatabaseSchema, JoinDef } from "../schema/types";
import { refTable, resolveJoinRef } from "./join-refs";

export type JoinSpec = Omit<JoinDef, "id">;

export const MAX_JOINED_TABLES = 8;
export const MAX_JOIN_COLUMNS = 200;

/** Key pairs compare like with like; JSON, password and file columns are never keys. */
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
  file: undefined,
};

/** A structured join after its properties passed their own checks (lib/contract/schemas/joins.ts `JoinStructure`). */
export type JoinFields = {
  name: string;
  base: string;
  joins: { table: string; on: [string, string][]; type?: "inner" | "left" }[];
  columns: { column: string; as?: string }[];
};

/**
 * Checks a structured join `{name, base, joins: [{table, on: [["a.x", "b.y"]], type?}], columns: [{column, as}]}`
 * against the live schema; every problem is listed in one 422. `as` defaults to the column's own name.
 */
export const parseJoinDefinition = (input: JoinFields, schema: DatabaseSchema): JoinSpec => {
  const errors: FieldError[] = [];
  const fail = (field: string, code: string, message: string) => void errors.push({ field, code, message });
  const { base } = input;
  if (!schema.tables.has(base)) fail("base", "unknown_table", `base ${JSON.stringify(base)} is not a table of this database`);
  const inScope = [base];
  const joins: JoinSpec["joins"] = [];
  input.joins.forEach((entry, i) => {
    const at = `joins[${i}]`;
    const { table } = entry;
    if (!schema.tables.has(table)) return fail(`${at}.table`, "unknown_table", `${at}.table ${JSON.stringify(table)} is not a table of this database`);
    if (inScope.includes(table)) return fail(`${at}.table`, "duplicate_table", `table "${table}" is already in this join; each table may appear once`);
    inScope.push(table);
    const on: [string, string][] = [];
    entry.on.forEach((pair, k) => {
      const where = `${at}.on[${k}]`;
      const sides = pair.map((ref) => resolveJoinRef(schema, ref));
      const missing = pair.find((_ref, n) => !sides[n]);
      if (missing !== undefined) return fail(where, "unknown_column", `${where}: ${JSON.stringify(missing)} is not a "table.column" of this database`);
      const [a, b] = pair;
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

  const columns: JoinSpec["columns"] = [];
  const seen = new Set<string>();
  input.columns.forEach((entry, i) => {
    const at = `columns[${i}]`;
    const source = resolveJoinRef(schema, entry.column);
    if (!source) return fail(`${at}.column`, "unknown_column", `${at}.column ${JSON.stringify(entry.column)} is not a "table.column" of this database`);
    if (!inScope.includes(source.table.name)) return fail(`${at}.column`, "out_of_scope", `${at}.column: table "${source.table.name}" is not part of this join`);
    const as = entry.as ?? source.column.name;
    if (seen.has(as)) return fail(`${at}.as`, "duplicate_name", `output name "${as}" is used twice; give one of them another "as"`);
    seen.add(as);
    columns.push({ column: entry.column, as });
  });
  if (errors.length) throw validationFailed(errors);
  return { name: input.name, base, joins, columns };
};

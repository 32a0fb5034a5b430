// Component schemas and examples of one table: the record, and the create, replace and patch bodies.
import { mysqlTypeOf, TYPE_SPECS } from "../schema/column-types";
import { AUTO_COLUMNS, type ColumnDef, recordColumns, type TableDef } from "../schema/types";
import { isFile, isReference, isSecret } from "../schema/type-traits";
import { EXAMPLE_FILE, fileInputSchema } from "./file-schemas";

type Json = Record<string, unknown>;

/** `order_items` → `OrderItems`. Injective on valid names: `a_b1` → `AB1`, `a_b_1` → `AB_1`. */
export const pascalName = (name: string) =>
  name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()).replace(/^[a-z]/, (c) => c.toUpperCase());

// Shared schemas of the document; a table whose name would clash gets a suffixed record name.
const SHARED_NAMES = new Set(["Error", "FieldError"]);

/** Component names of a table's schemas; the dot cannot occur in a pascal name, so no two tables clash. */
export const schemaNames = (table: string) => {
  const base = pascalName(table);
  return {
    record: SHARED_NAMES.has(base) ? `${base}.Record` : base,
    create: `${base}.Create`,
    replace: `${base}.Replace`,
    patch: `${base}.Patch`,
  };
};

const EXAMPLE_TIME = "2024-05-01T12:00:00.000Z";
const BCRYPT_EXAMPLE = "$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy";

const AUTO_SCHEMAS: Record<string, Json> = {
  id: { type: "integer", format: "int64", minimum: 1, description: "Automatic `BIGINT UNSIGNED` primary key." },
  created_at: { type: "string", format: "date-time", description: "Automatic: when the record was created (UTC)." },
  updated_at: { type: "string", format: "date-time", description: "Automatic: when the record was last written (UTC)." },
};

/** TYPE_SPECS' schema of a column. */
export const typeSchema = (col: ColumnDef): Json => TYPE_SPECS[col.type].openapi(col);

const PASSWORD_OUT = "The bcrypt hash; the plain text cannot be read back.";
const ECHO_NOTE = "Optional: accepted only when equal to the stored value, so a fetched record can be sent back.";

/** 3.1 style: `type: [X, "null"]`; an enum must list null too. A schema without a type already allows null. */
const withNull = (schema: Json): Json => {
  if (typeof schema.type !== "string") return schema;
  const out: Json = { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
};

const describe = (col: ColumnDef, note: unknown) => {
  const sentence = typeof note === "string" && note ? ` ${note.replace(/([^.])$/, "$1.")}` : "";
  return `\`${mysqlTypeOf(col)}\`${col.unique ? ", unique" : ""}.${sentence}`;
};

export const outputSchema = (col: ColumnDef): Json => {
  if (col.system) return AUTO_SCHEMAS[col.name];
  const { description, ...spec } = isSecret(col) ? { type: "string", description: PASSWORD_OUT } : typeSchema(col);
  const schema = { ...spec, description: describe(col, description) };
  return col.nullable ? withNull(schema) : schema;
};

type BodyKind = "create" | "replace" | "patch";

const inputSchema = (col: ColumnDef, kind: BodyKind): Json => {
  if (isFile(col)) return fileInputSchema(col);
  const spec = typeSchema(col);
  const schema: Json = { ...spec, description: describe(col, spec.description) };
  if (isSecret(col)) {
    schema.writeOnly = true;
    if (kind !== "create") schema.description = `${schema.description} Sending back the stored hash keeps the password.`;
  }
  if (kind === "create" && col.default !== undefined && col.default !== null) {
    // A default the schema cannot express (e.g. `auth.id` on an owner column) is described instead.
    if (TYPE_SPECS[col.type].fromJson(col.default, col).ok) schema.default = col.default;
    else schema.description = `${schema.description} Defaults to \`${JSON.stringify(col.default)}\`.`;
  }
  return col.nullable ? withNull(schema) : schema;
};

/** TYPE_SPECS' example, which fits the column's length or precision so the example validates. */
export const exampleValue = (col: ColumnDef): unknown => TYPE_SPECS[col.type].example(col);

export const exampleRecord = (table: TableDef): Json => ({
  id: 1,
  ...Object.fromEntries(table.columns.map((c) => [c.name, isSecret(c) ? BCRYPT_EXAMPLE : isFile(c) ? (c.multiple ? [EXAMPLE_FILE] : EXAMPLE_FILE) : exampleValue(c)])),
  created_at: EXAMPLE_TIME,
  updated_at: EXAMPLE_TIME,
});

/** A JSON body names a file by a tus upload; an optional file column is left out of the examples. */
const UPLOAD_EXAMPLE = { upload: "6f1c0e9a4b2d4c8e9f3a7b5d2e1c0a9b" };

export const exampleCreate = (table: TableDef): Json =>
  Object.fromEntries(table.columns.filter((c) => !isFile(c) || !c.nullable).map((c) => [c.name, isFile(c) ? UPLOAD_EXAMPLE : exampleValue(c)]));

export const examplePatch = (table: TableDef): Json => {
  const col = table.columns.find((c) => !isSecret(c) && !isFile(c)) ?? table.columns.find((c) => !isSecret(c)) ?? table.columns[0];
  return col ? { [col.name]: isFile(col) ? UPLOAD_EXAMPLE : exampleValue(col) } : {};
};

/** NOT NULL columns without a default: the ones a create body must carry. */
const requiredOnCreate = (table: TableDef) =>
  table.columns.filter((c) => !c.nullable && (c.default === undefined || c.default === null)).map((c) => c.name);

/** A replace sets every column, and defaults only apply on create, so every NOT NULL column is required. */
const requiredOnReplace = (table: TableDef) => table.columns.filter((c) => !c.nullable).map((c) => c.name);

const objectSchema = (description: string, properties: Json, required: string[], example: Json, closed = true): Json => ({
  type: "object",
  description,
  properties,
  ...(required.length ? { required } : {}),
  ...(closed ? { additionalProperties: false } : {}),
  example,
});

/**
 * A referenced record as `_expand` shows it: the referenced table's record, or, when that table holds
 * password columns (which never appear there), the record without them.
 */
const expandedRecord = (referenced: TableDef | undefined): Json => {
  if (!referenced) return { type: "object" };
  if (!referenced.columns.some(isSecret)) return { $ref: `#/components/schemas/${schemaNames(referenced.name).record}` };
  const columns = recordColumns(referenced).filter((c) => !isSecret(c));
  return { type: "object", properties: Object.fromEntries(columns.map((c) => [c.name, outputSchema(c)])), required: columns.map((c) => c.name) };
};

/** `expand` on a record read with `_expand`: one optional entry per reference column, `null` when hidden or unset. */
const expandProperty = (table: TableDef, tableNamed: (name: string) => TableDef | undefined): Json | undefined => {
  const refs = table.columns.filter((c) => isReference(c) && c.references);
  if (refs.length === 0 || table.columns.some((c) => c.name === "expand")) return undefined;
  return {
    type: "object",
    description: "Only with `_expand`: the referenced records of the reference columns it names (`null` when unset or hidden).",
    properties: Object.fromEntries(refs.map((c) => [c.name, { oneOf: [expandedRecord(tableNamed(c.references!)), { type: "null" }] }])),
  };
};

export const tableSchemas = (table: TableDef, tableNamed: (name: string) => TableDef | undefined = () => undefined): Record<string, Json> => {
  const names = schemaNames(table.name);
  const columns = recordColumns(table);
  const expand = expandProperty(table, tableNamed);
  const inputs = (kind: BodyKind) => Object.fromEntries(table.columns.map((c) => [c.name, inputSchema(c, kind)]));
  const echoes = Object.fromEntries(AUTO_COLUMNS.map((c) => [c.name, { ...AUTO_SCHEMAS[c.name], description: ECHO_NOTE }]));
  const t = `\`${table.name}\``;
  return {
    [names.record]: objectSchema(
      `A record of ${t}.`,
      { ...Object.fromEntries(columns.map((c) => [c.name, outputSchema(c)])), ...(expand && { expand }) },
      columns.map((c) => c.name),
      exampleRecord(table),
      false,
    ),
    [names.create]: objectSchema(
      `A new record of ${t}. Omitted columns take their default, or NULL.`,
      inputs("create"),
      requiredOnCreate(table),
      exampleCreate(table),
    ),
    [names.replace]: objectSchema(
      `The whole record of ${t}: omitted nullable columns become NULL; defaults do not apply.`,
      { ...echoes, ...inputs("replace") },
      requiredOnReplace(table),
      exampleCreate(table),
    ),
    [names.patch]: objectSchema(`Only the columns of ${t} to change.`, { ...inputs("patch"), ...echoes }, [], examplePatch(table)),
  };
};

// The one description of every column type: DDL on both engines, body validation, query-value parsing,
// JSON output and the OpenAPI schema all read from this table. Adding a type is one entry here.
import type { FilterOp } from "./filter-operators";
import type { ColumnDef, ColumnType } from "./types";
import {
  bad, type Check, checkDate, checkDatetime, checkDecimal, checkFloat, checkInteger, INT_RANGE, isRealDate, numberText, ok,
  parseIntegerText, PASSWORD_MAX_BYTES, TEXT_MAX_BYTES,
} from "./value-checks";
import { TO_JSON } from "./to-json.mjs";
import { StoredFiles } from "./file-value";
import { hasLoneSurrogate, JSON_MAX_BYTES, jsonShapeProblem, jsonTextHasLoneSurrogate, LONE_SURROGATE_PROBLEM } from "./value-limits";

export type { FilterOp };

export type { Check };
/** Re-exported: lib/api/write-records.ts reads it from here. */
export { toStoredDatetime } from "./value-checks";

/** How a column compares and sorts in SQL. */
export type SortKind = "text" | "enum" | "plain" | "none";

/** Column properties that belong to one type. */
export const TYPE_PARAMS = ["length", "precision", "scale", "options", "references", "multiple", "max_size", "accept", "thumbs", "public"] as const;
export type TypeParam = (typeof TYPE_PARAMS)[number];

type TypeSpec = {
  /** MySQL column type, also what docs and exports show. */
  mysql: (c: ColumnDef) => string;
  sqlite: (c: ColumnDef) => string;
  openapi: (c: ColumnDef) => Record<string, unknown>;
  example: (c: ColumnDef) => unknown;
  /** Body value (already JSON-parsed) → value bound as a SQL parameter. */
  fromJson: (v: unknown, c: ColumnDef) => Check;
  /** Query-string text → value bound as a SQL parameter. */
  fromQuery: (s: string, c: ColumnDef) => Check;
  /** Value read from either driver → JSON value. */
  toJson: (v: unknown) => unknown;
  ops: readonly FilterOp[];
  sort: SortKind;
  /** May carry a UNIQUE index (MySQL cannot index TEXT/JSON without a prefix). */
  uniqueAllowed: boolean;
  /** May carry a plain index (`"index": true`, or a column of a table's index). */
  indexable: boolean;
  /** Bytes the value takes in a MySQL (InnoDB) index key, which holds at most 3072. */
  keyBytes: (c: ColumnDef) => number;
  // What the type means to the code outside this table (read through lib/schema/type-traits.ts, never by name).
  /** Hashed (bcrypt) on each write; the hash reaches no JWT user, log, hook, filter, policy or dashboard cell. */
  secret?: true;
  /** Holds another row's id; `references` names its table (always indexed, expandable, checked on write). */
  reference?: true;
  /** Plain text: may carry a trigram index (`searchable`), may be a login name, a CSV cell is the value as is. */
  textual?: true;
  /** A quantity: sums and averages apply, inputs take a number. */
  numeric?: true;
  /** Holds a JSON document: written, shown and exported as JSON text. */
  json?: true;
  /** What the column holds in the builder's words ("Yes/No", "reference to authors"), for form labels. */
  words: (c: { references?: string; multiple?: boolean }) => string;
  /** The fixed values an input offers, as text. */
  choices?: (c: { options?: string[] }) => readonly string[];
  /** How a choice reads in a form, where it differs from the value ("true" → "Yes"). */
  choiceWords?: Readonly<Record<string, string>>;
  /** May hold a user's id: takes the `auth.id` default, may be a policy's owner column. */
  userId?: true;
  /** Holds uploaded files: written with multipart bodies, stored objects follow the row (lib/api/files). */
  file?: true;
  /** The column properties the type takes (varchar's length…); other types refuse them. */
  params?: readonly TypeParam[];
  /** Decimal places a value is written out with. */
  scale?: (c: { scale?: number }) => number;
};

const TEXT_OPS = ["eq", "ne", "in", "like", "ilike", "gt", "gte", "lt", "lte", "null"] as const;
const ORDERED_OPS = ["eq", "ne", "in", "gt", "gte", "lt", "lte", "null"] as const;
const EQ_OPS = ["eq", "ne", "in", "null"] as const;

const checkString = (v: unknown, max: number, unit: "characters" | "bytes"): Check<string> => {
  if (typeof v !== "string") return bad("invalid_type", "must be a string");
  if (hasLoneSurrogate(v)) return bad(LONE_SURROGATE_PROBLEM.code, LONE_SURROGATE_PROBLEM.message);
  const size = unit === "bytes" ? Buffer.byteLength(v) : [...v].length;
  return size > max ? bad("too_long", `must be at most ${max} ${unit}`) : ok(v);
};

const quoteMysqlString = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;

const integerSpec = (kind: "int" | "bigint"): TypeSpec => ({
  words: () => "whole number",
  mysql: () => (kind === "int" ? "INT" : "BIGINT"),
  sqlite: () => "INTEGER",
  openapi: () => ({ type: "integer", format: kind === "int" ? "int32" : "int64" }),
  example: () => 42,
  fromJson: (v) => checkInteger(v, INT_RANGE[kind]),
  fromQuery: (s) => parseIntegerText(s, INT_RANGE[kind]),
  toJson: TO_JSON[kind],
  ops: ORDERED_OPS,
  sort: "plain",
  uniqueAllowed: true,
  indexable: true,
  keyBytes: () => 8,
  numeric: true,
  userId: true,
});

export const TYPE_SPECS: Record<ColumnType, TypeSpec> = {
  varchar: {
    words: () => "text",
    mysql: (c) => `VARCHAR(${c.length ?? 255})`,
    sqlite: () => "TEXT",
    openapi: (c) => ({ type: "string", maxLength: c.length ?? 255 }),
    example: (c) => "example".slice(0, c.length ?? 255),
    fromJson: (v, c) => checkString(v, c.length ?? 255, "characters"),
    fromQuery: (s) => ok(s),
    toJson: TO_JSON.varchar,
    ops: TEXT_OPS,
    sort: "text",
    uniqueAllowed: true,
    indexable: true,
    keyBytes: (c) => 4 * (c.length ?? 255) + 2,
    textual: true,
    userId: true,
    params: ["length"],
  },
  text: {
    words: () => "long text",
    mysql: () => "TEXT",
    sqlite: () => "TEXT",
    openapi: () => ({ type: "string", maxLength: TEXT_MAX_BYTES }),
    example: () => "Some longer text.",
    fromJson: (v) => checkString(v, TEXT_MAX_BYTES, "bytes"),
    fromQuery: (s) => ok(s),
    toJson: TO_JSON.text,
    ops: TEXT_OPS,
    sort: "text",
    uniqueAllowed: false,
    indexable: false,
    keyBytes: () => 0,
    textual: true,
    userId: true,
  },
  int: integerSpec("int"),
  bigint: integerSpec("bigint"),
  decimal: {
    words: () => "decimal number",
    mysql: (c) => `DECIMAL(${c.precision ?? 10},${c.scale ?? 2})`,
    sqlite: () => "REAL",
    // Scale as prose, not multipleOf: validators divide in binary floating point (19.99 / 0.01 ≠ 1999).
    openapi: (c) => ({ type: "number", description: `DECIMAL(${c.precision ?? 10},${c.scale ?? 2}): at most ${c.scale ?? 2} decimal places.` }),
    // Trimmed to the column's precision, so the example validates.
    example: (c) => {
      const scale = c.scale ?? 2;
      return Number(Math.min(19.99, 10 ** ((c.precision ?? 10) - scale) - 10 ** -scale).toFixed(scale));
    },
    fromJson: checkDecimal,
    fromQuery: (s, c) => (numberText.test(s) ? checkDecimal(Number(s), c) : bad("invalid_type", "must be a number")),
    toJson: TO_JSON.decimal,
    ops: ORDERED_OPS,
    sort: "plain",
    uniqueAllowed: true,
    indexable: true,
    keyBytes: (c) => Math.ceil((c.precision ?? 10) / 2) + 1,
    numeric: true,
    scale: (c) => c.scale ?? 2,
    params: ["precision", "scale"],
  },
  float: {
    words: () => "number",
    mysql: () => "DOUBLE",
    sqlite: () => "REAL",
    openapi: () => ({ type: "number", format: "double" }),
    example: () => 3.5,
    fromJson: checkFloat,
    fromQuery: (s) => (numberText.test(s) ? checkFloat(Number(s)) : bad("invalid_type", "must be a number")),
    toJson: TO_JSON.float,
    ops: ORDERED_OPS,
    sort: "plain",
    uniqueAllowed: true,
    indexable: true,
    keyBytes: () => 8,
    numeric: true,
  },
  boolean: {
    words: () => "Yes/No",
    mysql: () => "TINYINT(1)",
    sqlite: () => "INTEGER",
    openapi: () => ({ type: "boolean" }),
    example: () => true,
    fromJson: (v) => (typeof v === "boolean" ? ok(v ? 1 : 0) : bad("invalid_type", "must be true or false")),
    fromQuery: (s) => (s === "true" ? ok(1) : s === "false" ? ok(0) : bad("invalid_type", "must be true or false")),
    toJson: TO_JSON.boolean,
    ops: EQ_OPS,
    sort: "plain",
    uniqueAllowed: false,
    indexable: true,
    keyBytes: () => 1,
    choices: () => ["true", "false"],
    choiceWords: { true: "Yes", false: "No" },
  },
  date: {
    words: () => "date",
    mysql: () => "DATE",
    sqlite: () => "TEXT",
    openapi: () => ({ type: "string", format: "date" }),
    example: () => "2024-05-01",
    fromJson: checkDate,
    fromQuery: checkDate,
    toJson: TO_JSON.date,
    ops: ORDERED_OPS,
    sort: "plain",
    uniqueAllowed: true,
    indexable: true,
    keyBytes: () => 3,
  },
  datetime: {
    words: () => "date and time (UTC)",
    mysql: () => "DATETIME(3)",
    sqlite: () => "TEXT",
    openapi: () => ({ type: "string", format: "date-time" }),
    example: () => "2024-05-01T12:00:00.000Z",
    fromJson: checkDatetime,
    // A plain date in a filter means midnight UTC of that day.
    fromQuery: (s) => (isRealDate(s) ? ok(`${s} 00:00:00.000`) : checkDatetime(s)),
    toJson: TO_JSON.datetime,
    ops: ORDERED_OPS,
    sort: "plain",
    uniqueAllowed: true,
    indexable: true,
    keyBytes: () => 8,
  },
  json: {
    words: () => "JSON",
    mysql: () => "JSON",
    sqlite: () => "TEXT",
    openapi: () => ({}),
    example: () => ({ key: "value" }),
    fromJson: (v) => {
      const problem = jsonShapeProblem(v);
      if (problem) return bad(problem.code, problem.message);
      const text = JSON.stringify(v);
      if (jsonTextHasLoneSurrogate(text)) return bad(LONE_SURROGATE_PROBLEM.code, LONE_SURROGATE_PROBLEM.message);
      return Buffer.byteLength(text) > JSON_MAX_BYTES ? bad("too_long", "must be at most 1 MiB as JSON") : ok(text);
    },
    fromQuery: () => bad("not_filterable", "JSON columns can only be filtered with _null"),
    toJson: TO_JSON.json,
    ops: ["null"],
    sort: "none",
    uniqueAllowed: false,
    indexable: false,
    keyBytes: () => 0,
    json: true,
  },
  password: {
    words: () => "password",
    mysql: () => "VARCHAR(60)",
    sqlite: () => "TEXT",
    openapi: () => ({ type: "string", format: "password", description: "Written as plain text, stored and returned as a bcrypt hash." }),
    example: () => "s3cret-Passw0rd",
    fromJson: (v) => {
      if (typeof v !== "string") return bad("invalid_type", "must be a string");
      if (v.length === 0) return bad("too_short", "must not be empty");
      return Buffer.byteLength(v) > PASSWORD_MAX_BYTES ? bad("too_long", `must be at most ${PASSWORD_MAX_BYTES} bytes (bcrypt's limit)`) : ok(v);
    },
    fromQuery: () => bad("not_filterable", "password columns hold bcrypt hashes and cannot be filtered"),
    toJson: TO_JSON.password,
    ops: [],
    sort: "none",
    uniqueAllowed: false,
    indexable: false,
    keyBytes: () => 0,
    secret: true,
  },
  dropdown: {
    words: () => "one of a list",
    mysql: (c) => `ENUM(${(c.options ?? []).map(quoteMysqlString).join(",")})`,
    sqlite: () => "TEXT",
    openapi: (c) => ({ type: "string", enum: c.options ?? [] }),
    example: (c) => c.options?.[0] ?? "option",
    fromJson: (v, c) =>
      typeof v === "string" && (c.options ?? []).includes(v)
        ? ok(v)
        : bad("not_an_option", `must be one of: ${(c.options ?? []).join(", ")}`),
    fromQuery: (s) => ok(s),
    toJson: TO_JSON.dropdown,
    ops: TEXT_OPS,
    sort: "enum",
    uniqueAllowed: true,
    indexable: true,
    keyBytes: () => 2,
    choices: (c) => c.options ?? [],
    params: ["options"],
  },
  reference: {
    words: (c) => `reference to ${c.references}`,
    mysql: () => "BIGINT UNSIGNED",
    sqlite: () => "INTEGER",
    openapi: (c) => ({ type: "integer", format: "int64", minimum: 1, description: `id of a row in ${c.references}` }),
    example: () => 1,
    fromJson: (v) => checkInteger(v, INT_RANGE.bigint, true),
    fromQuery: (s) => parseIntegerText(s, INT_RANGE.bigint, true),
    toJson: TO_JSON.reference,
    ops: ORDERED_OPS,
    sort: "plain",
    uniqueAllowed: true,
    indexable: true,
    keyBytes: () => 8,
    reference: true,
    userId: true,
    params: ["references"],
  },
  file: {
    words: (c) => (c.multiple ? "files" : "file"),
    mysql: () => "JSON",
    sqlite: () => "TEXT",
    openapi: (c) => (c.multiple ? { type: "array", items: { $ref: "#/components/schemas/File" }, maxItems: 99 } : { $ref: "#/components/schemas/File" }),
    example: (c) => new StoredFiles([{ name: "photo_k2m9x7ab.png", size: 48213, type: "image/png" }], c.multiple === true),
    // Only the write path's own value (uploads, kept names) is bound; a JSON body cannot name stored objects.
    fromJson: (v) =>
      v instanceof StoredFiles ? ok(v.stored()) : bad("invalid_type", "must be uploaded with multipart/form-data, a tus upload ({\"upload\": id}), null, or (multiple) stored names to keep"),
    fromQuery: () => bad("not_filterable", "file columns can only be filtered with _null"),
    toJson: TO_JSON.file,
    ops: ["null"],
    sort: "none",
    uniqueAllowed: false,
    indexable: false,
    keyBytes: () => 0,
    file: true,
    params: ["multiple", "max_size", "accept", "thumbs", "public"],
  },
};

/**
 * Types whose stored value reads back exactly as the validated value that was bound (both engines, strict or
 * not: lengths, ranges and decimal places are checked before binding). A MySQL update answers with the locked
 * row plus these values instead of reading the row back. Not float (how many digits of a DOUBLE a server prints
 * has changed between versions: older ones give 15, so 0.1 + 0.2 would read back as 0.3) and not json (MySQL 8
 * reorders an object's keys).
 */
export const STORED_AS_WRITTEN: ReadonlySet<ColumnType> = new Set<ColumnType>([
  "varchar", "text", "int", "bigint", "decimal", "boolean", "date", "datetime", "password", "dropdown", "reference",
]);

/** The MySQL type a user sees for a column, e.g. DECIMAL(10,2). */
export const mysqlTypeOf = (c: ColumnDef) => (c.system && c.name === "id" ? "BIGINT UNSIGNED" : TYPE_SPECS[c.type].mysql(c));

// Join definitions in the management API's OpenAPI document.
import type { ErrorResponseName } from "./shared-components";

type Json = Record<string, unknown>;
type Op = (method: string, path: string, spec: any) => Json;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const NAME = { type: "string", pattern: "^[a-z][a-z0-9_]{0,62}$" };
const REF = { type: "string", pattern: "^[a-z][a-z0-9_]*\\.[a-z][a-z0-9_]*$", description: "`table.column`" };

const STRUCTURE = {
  base: "books",
  joins: [{ table: "authors", on: [["books.author_id", "authors.id"]] }],
  columns: [{ column: "books.title", as: "title" }, { column: "authors.name", as: "author" }],
};
const SQL = "SELECT b.title, a.name AS author FROM books b JOIN authors a ON b.author_id = a.id";

export const JOIN_EXAMPLES = {
  structured: { name: "books_with_authors", ...STRUCTURE },
  sql: { name: "books_with_authors", sql: SQL },
  view: { name: "books_with_authors", ...STRUCTURE, sql: SQL, path: "/v1/shop_7k2m9x/books_with_authors" },
};

const structureProperties: Json = {
  base: { ...NAME, description: "The base table; rows come in its id order unless `_sort` says otherwise." },
  joins: {
    type: "array",
    minItems: 1,
    maxItems: 8,
    description: "Inner-joined tables in order; each key pair links the table to one before it.",
    items: {
      type: "object",
      required: ["table", "on"],
      additionalProperties: false,
      properties: { table: NAME, on: { type: "array", minItems: 1, items: { type: "array", items: REF, minItems: 2, maxItems: 2 } } },
    },
  },
  columns: {
    type: "array",
    minItems: 1,
    maxItems: 200,
    description: "Output columns; `as` defaults to the column's name and must be unique.",
    items: { type: "object", required: ["column"], additionalProperties: false, properties: { column: REF, as: NAME } },
  },
};

const sqlProperty = { type: "string", maxLength: 10000, description: "One `SELECT t.col [AS name] … FROM a JOIN b ON a.x = b.y …` (MySQL dialect)." };

export const JOIN_MANAGEMENT_SCHEMAS: Record<string, Json> = {
  JoinInput: {
    description: "Either the structured form or `sql`; both store the same definition.",
    oneOf: [
      { type: "object", required: ["name", "base", "joins", "columns"], additionalProperties: false, properties: { name: NAME, ...structureProperties } },
      { type: "object", required: ["name", "sql"], additionalProperties: false, properties: { name: NAME, sql: sqlProperty } },
    ],
    example: JOIN_EXAMPLES.structured,
  },
  JoinPatch: {
    type: "object",
    description: "`name` renames; `sql` replaces the definition; any of base/joins/columns replace those parts.",
    additionalProperties: false,
    properties: { name: NAME, sql: sqlProperty, ...structureProperties },
    example: { name: "catalog" },
  },
  JoinPreviewInput: {
    type: "object",
    description: "A definition to check and preview, in either form; `name` is optional.",
    additionalProperties: false,
    properties: { name: NAME, sql: sqlProperty, ...structureProperties },
    example: { sql: SQL },
  },
  Join: {
    type: "object",
    required: ["name", "base", "joins", "columns", "path"],
    properties: { name: NAME, ...structureProperties, sql: { ...sqlProperty, description: "The SQL it was made from, when made in SQL mode." }, path: { type: "string" } },
    example: JOIN_EXAMPLES.view,
  },
  JoinPreview: {
    type: "object",
    required: ["base", "joins", "columns", "rows"],
    properties: { ...structureProperties, rows: { type: "array", maxItems: 5, items: { type: "object" } } },
    example: { ...STRUCTURE, rows: [{ title: "Kindred", author: "Octavia Butler" }] },
  },
};

export const joinManagementPaths = (op: Op): Record<string, Json> => {
  const joins = "/databases/{instance}/joins";
  const one = `${joins}/{join}`;
  const scoped: ErrorResponseName[] = ["Forbidden", "NotFound"];
  const change: ErrorResponseName[] = [...scoped, "Conflict", "ValidationFailed"];
  const instance = { $ref: "#/components/parameters/Instance" };
  const join = { name: "join", in: "path", required: true, description: "The join's name.", schema: NAME };
  return {
    [joins]: {
      parameters: [instance],
      get: op("get", joins, {
        tag: "Joins", operationId: "listJoins", summary: "List joins",
        description: "The joins of the database, each in its structured form.", status: "200", result: { type: "array", items: ref("Join") }, errors: scoped,
      }),
      post: op("post", joins, {
        tag: "Joins", operationId: "createJoin", summary: "Create a join",
        description: "Checks the definition (or SQL) against the live schema; its data API path `GET /v1/{instance}/{name}` exists at once. A name used by a table or join is 409.",
        status: "201", result: ref("Join"), body: { schema: "JoinInput", example: JOIN_EXAMPLES.sql }, errors: change,
      }),
    },
    [`${joins}/preview`]: {
      parameters: [instance],
      post: op("post", `${joins}/preview`, {
        tag: "Joins", operationId: "previewJoin", summary: "Preview a join",
        description: "Checks an unsaved definition and returns it with its first 5 rows; nothing is stored.",
        status: "200", result: ref("JoinPreview"), body: { schema: "JoinPreviewInput", example: { sql: SQL } }, errors: [...scoped, "ValidationFailed"],
      }),
    },
    [one]: {
      parameters: [instance, join],
      get: op("get", one, {
        tag: "Joins", operationId: "getJoin", summary: "Get a join",
        description: "The structured form, plus `sql` when it was made in SQL mode.", status: "200", result: ref("Join"), errors: scoped,
      }),
      patch: op("patch", one, {
        tag: "Joins", operationId: "updateJoin", summary: "Change a join",
        description: "Renames it or replaces its definition.", status: "200", result: ref("Join"), body: { schema: "JoinPatch", example: { name: "catalog" } }, errors: change,
      }),
      delete: op("delete", one, {
        tag: "Joins", operationId: "deleteJoin", summary: "Delete a join", description: "Its data API path is gone at once.", status: "204", errors: scoped,
      }),
    },
  };
};

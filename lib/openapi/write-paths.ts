// The OpenAPI pieces of the writes on a table's collection beyond a plain create: upsert (POST with
// `_on_conflict` and `Prefer: resolution=merge-duplicates`) and PATCH / DELETE by filter.
import { TYPE_SPECS } from "../schema/column-types";
import { recordColumns, type TableDef } from "../schema/types";
import { MAX_FILTER_ROWS } from "../api/limits";
import { filterParameters } from "./list-parameters";

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Columns an upsert may name in `_on_conflict`: `id` and the unique columns matched by value. */
const conflictColumns = (table: TableDef) =>
  recordColumns(table).filter((c) => c.unique && TYPE_SPECS[c.type].ops.includes("eq")).map((c) => c.name);

/** The query parameter and header that turn a POST into an upsert. */
export const upsertParameters = (table: TableDef): Json[] => [
  {
    name: "_on_conflict",
    in: "query",
    required: false,
    description:
      "Upsert: the unique column (or `id`) that identifies an existing record. A record whose value exists is merged (only the given columns change, update hooks and policies apply, 200); the others are created (insert hooks and policies, 201). Needs `Prefer: resolution=merge-duplicates`; either one alone is a 422 naming `_on_conflict`.",
    schema: { type: "string", enum: conflictColumns(table) },
  },
  {
    name: "Prefer",
    in: "header",
    required: false,
    description: "`resolution=merge-duplicates` with `_on_conflict` makes this POST an upsert.",
    schema: { type: "string", enum: ["resolution=merge-duplicates"] },
  },
];

/** `/{table}/_upsert`: the conflict column, required; the path itself asks for the merge (no Prefer header). */
export const upsertPathParameters = (table: TableDef): Json[] => [
  {
    name: "_on_conflict",
    in: "query",
    required: true,
    description:
      "The unique column (or `id`) that identifies an existing record. A record whose value exists is merged (only the given columns change, update hooks and policies apply); the others are created (insert hooks and policies).",
    schema: { type: "string", enum: conflictColumns(table) },
  },
];

/** A bulk upsert's answer: one `{status, record}` per body row, in body order. */
export const upsertOutcomes = (recordSchema: string): Json => ({
  type: "array",
  items: {
    type: "object",
    required: ["status", "record"],
    properties: {
      status: { type: "integer", enum: [201, 200], description: "201 created, 200 merged into the existing record." },
      record: ref(recordSchema),
    },
  },
});

const REPRESENTATION: Json = {
  name: "Prefer",
  in: "header",
  required: false,
  description: "`return=representation` answers the rows (as stored after a PATCH, as they were before a DELETE) instead of `{\"affected\": n}`.",
  schema: { type: "string", enum: ["return=representation"] },
};

/** PATCH and DELETE /{table}: the read filters (one at least), and the answer. */
export const byFilterParameters = (table: TableDef): Json[] => [REPRESENTATION, ...filterParameters(recordColumns(table))];

export const BY_FILTER_RULES = `At least one filter is required (a 422 naming \`filter\` otherwise); \`_limit\`, \`_offset\` and \`_sort\` are refused. One transaction: hooks and policies run per row (a JWT user's policies limit the rows reached; a row the policy refuses as written is a 403), at most ${MAX_FILTER_ROWS} rows (a 422 naming the count otherwise); any refusal changes nothing.`;

export const byFilterResponse = (recordSchema: string, description: string): Json => ({
  description,
  content: {
    "application/json": {
      schema: {
        oneOf: [
          { type: "object", required: ["affected"], properties: { affected: { type: "integer", minimum: 0, maximum: MAX_FILTER_ROWS } } },
          { type: "array", items: ref(recordSchema) },
        ],
      },
      example: { affected: 2 },
    },
  },
});

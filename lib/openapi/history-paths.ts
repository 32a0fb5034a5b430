// `GET /{table}/{id}/_history`, `POST /{table}/{id}/_restore` and `GET /{table}/_deleted` in the data OpenAPI
// document, for tables that keep record history (docs/history.md).
import type { TableDef } from "../schema/types";
import { curlSample } from "./curl-sample";
import { errorRefs, type ErrorResponseName } from "./shared-components";
import { pascalName } from "./table-schemas";

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const REVISION_SCHEMA = "Revision";

/** One revision; `record` is a JSON object of the table's record (null when a JWT user's select policy hides it). */
export const revisionSchema = (): Json => ({
  [REVISION_SCHEMA]: {
    type: "object",
    required: ["rev", "action", "record", "changed", "at", "actor"],
    properties: {
      rev: { type: "integer", format: "int64", description: "The revision: the change event's id (increasing, not consecutive). `_restore` and `_after` take it." },
      action: { type: "string", enum: ["insert", "update", "delete"] },
      record: { type: ["object", "null"], additionalProperties: true, description: "The record after the change (a delete: the record deleted); password columns never appear." },
      changed: { type: "array", items: { type: "string" }, description: "Columns the change set: a create's every column, an update's those that differ from the revision before, a delete none." },
      at: { type: "string", format: "date-time" },
      actor: {
        type: ["object", "null"],
        required: ["kind", "id"],
        properties: {
          kind: { type: "string", enum: ["key", "user", "member", "system"], description: "`key` an API key, `user` a JWT user, `member` a member through the dashboard, `system` hooks, sign-up and jobs." },
          id: { type: ["integer", "null"], description: "The key's id, the user's id, the member's account id; null for the system." },
        },
      },
    },
  },
});

const page: Json[] = [
  { name: "_limit", in: "query", required: false, description: "Revisions per page, 1 to 100 (default 50).", schema: { type: "integer", minimum: 1, maximum: 100 } },
  { name: "_after", in: "query", required: false, description: "A `rev` from the previous page: the revisions older than it.", schema: { type: "integer", minimum: 1 } },
];

const revisions = (description: string, example: Json) => ({
  description,
  content: { "application/json": { schema: { type: "array", items: ref(REVISION_SCHEMA) }, example: [example] } },
});

export const historyPaths = (
  table: TableDef,
  opts: { serverUrl: string; apiKey?: string; recordSchema: string; record: Json; read: ErrorResponseName[]; write: ErrorResponseName[] },
): Record<string, Json> => {
  if (table.history === false) return {};
  const item = `${opts.serverUrl}/${table.name}/1`;
  const example = { rev: 42, action: "update", record: opts.record, changed: Object.keys(opts.record).slice(1, 2), at: "2024-05-01T12:00:00.000Z", actor: { kind: "key", id: 3 } };
  const tags = [table.name];
  return {
    [`/${table.name}/{id}/_history`]: {
      parameters: [{ $ref: "#/components/parameters/Id" }],
      get: {
        tags,
        operationId: `history${pascalName(table.name)}`,
        summary: `Record history of one ${table.name} record`,
        description:
          "The record's revisions, newest first, kept `HISTORY_DAYS` (30). Keys read every record's, a deleted one's too; a JWT user reads a record its select policy shows now (otherwise 404), and each revision's `record` only where that policy allows it.",
        parameters: page,
        responses: { "200": revisions("The revisions, newest first.", example), ...errorRefs(...opts.read, "ValidationFailed") },
        "x-codeSamples": curlSample("get", `${item}/_history`, { apiKey: opts.apiKey }),
      },
    },
    [`/${table.name}/{id}/_restore`]: {
      parameters: [{ $ref: "#/components/parameters/Id" }],
      post: {
        tags,
        operationId: `restore${pascalName(table.name)}`,
        summary: `Restore one ${table.name} record to a revision`,
        description:
          "Writes the revision's values back as a new revision, through the same checks as any write (hooks, policies, references): an update of a record that exists, a create with its id for a deleted one (keys only). Columns dropped since are left out; a value that can no longer be written (a dropdown option removed, a reference to a deleted row) is a 422 naming the column, and nothing is written. A delete's revision restores the row as it was deleted.",
        requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["rev"], additionalProperties: false, properties: { rev: { type: "integer", minimum: 1 } } }, example: { rev: 42 } } } },
        responses: { "200": { description: "The record as restored.", content: { "application/json": { schema: ref(opts.recordSchema), example: opts.record } } }, ...errorRefs(...opts.write) },
        "x-codeSamples": curlSample("post", `${item}/_restore`, { apiKey: opts.apiKey, body: { rev: 42 } }),
      },
    },
    [`/${table.name}/_deleted`]: {
      get: {
        tags,
        operationId: `deleted${pascalName(table.name)}`,
        summary: `Recently deleted ${table.name} records`,
        description: "Records deleted within `HISTORY_DAYS` and not restored since: each one's delete revision, newest first (secret keys only; a JWT user gets 403).",
        parameters: page,
        responses: { "200": revisions("Delete revisions, newest first.", { ...example, action: "delete", changed: [] }), ...errorRefs(...opts.read, "ValidationFailed") },
        "x-codeSamples": curlSample("get", `${opts.serverUrl}/${table.name}/_deleted`, { apiKey: opts.apiKey }),
      },
    },
  };
};

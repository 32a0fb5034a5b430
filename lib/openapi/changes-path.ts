// The change feed in the data API's OpenAPI document: GET /_changes (Server-Sent Events) and the event shape.
import type { DatabaseSchema } from "../schema/types";
import { curlSample } from "./curl-sample";
import { errorRefs } from "./shared-components";

type Json = Record<string, unknown>;

export const changeEventSchema = (schema: DatabaseSchema): Json => ({
  ChangeEvent: {
    type: "object",
    description: "One committed change of one row, as the feed's `data:` and a webhook's body carry it. Password columns never appear.",
    properties: {
      id: { type: "integer", format: "int64", description: "Increases per database in commit order; the SSE `id:` and what Last-Event-ID resumes from." },
      db: { type: "string", example: schema.instance },
      table: { type: "string" },
      action: { type: "string", enum: ["insert", "update", "delete"] },
      record: { type: "object", additionalProperties: true, description: "The row as the data API returns it (on delete, the deleted row)." },
      old_record: { type: "object", additionalProperties: true, description: "The row before the change (update and delete)." },
      at: { type: "string", format: "date-time" },
    },
    required: ["id", "db", "table", "action", "record", "at"],
  },
});

export const changesPath = (schema: DatabaseSchema, serverUrl: string): Record<string, Json> => ({
  "/_changes": {
    get: {
      operationId: "changes",
      tags: ["Changes"],
      summary: "Change feed (Server-Sent Events)",
      description: [
        "A `text/event-stream` of committed changes: frames `event: insert|update|delete`, `id: <event id>`, `data: <ChangeEvent JSON>`, and a `: heartbeat` comment every 15 s.",
        "Secret keys see every row of the tables asked; database-auth users only rows their select policy allows (inserts and updates judged on the new row, deletes on the old); a table without a select policy is 403. Joins have no events (422).",
        "Resume with the `Last-Event-ID` header or `last_event_id`: every event after it, once. A resume point older than the retention (24 h by default) gets one `event: reset` (its `id` is the newest event id), then live events.",
        "Browsers' `EventSource` cannot send headers: pass the key or JWT as `access_token` (never logged).",
      ].join("\n\n"),
      parameters: [
        { name: "tables", in: "query", description: "Comma-separated table names; omitted = every table the caller may read.", schema: { type: "string" }, example: [...schema.tables.keys()].slice(0, 2).join(",") || undefined },
        { name: "last_event_id", in: "query", description: "Resume after this event id (or send the Last-Event-ID header).", schema: { type: "integer", minimum: 0 } },
        { name: "Last-Event-ID", in: "header", description: "Resume after this event id (EventSource sends it when it reconnects).", schema: { type: "integer", minimum: 0 } },
        { name: "access_token", in: "query", description: "The secret key or JWT, for clients that cannot set headers.", schema: { type: "string" } },
      ],
      responses: {
        "200": {
          description: "The event stream; it stays open.",
          content: { "text/event-stream": { schema: { type: "string" }, example: `event: insert\nid: 42\ndata: {"id":42,"db":"${schema.instance}","table":"todos","action":"insert","record":{"id":7,"title":"Milk"},"at":"2024-05-01T12:00:00.000Z"}\n\n` } },
          "x-event-schema": { $ref: "#/components/schemas/ChangeEvent" },
        },
        ...errorRefs("Unauthorized", "Forbidden", "NotFound", "ValidationFailed", "InternalError"),
      },
      "x-codeSamples": curlSample("get", `${serverUrl}/_changes`, {}),
    },
  },
});

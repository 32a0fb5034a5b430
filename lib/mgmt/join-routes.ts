import { z } from "zod";
import { createJoin } from "../services/joins/create-join";
import { deleteJoin } from "../services/joins/delete-join";
import { getJoin } from "../services/joins/get-join";
import { listJoins } from "../services/joins/list-joins";
import { previewJoin } from "../services/joins/preview-join";
import { updateJoin } from "../services/joins/update-join";
import { defineRoute } from "./route";
import { Join, JoinInput, JoinPatch, JoinPreview, JoinPreviewInput } from "../contract/schemas/joins";

const JOINS = "databases/:instance/joins";
const JOIN = `${JOINS}/:join` as const;

export const JOIN_ROUTES = [
  defineRoute({
    method: "GET", path: JOINS, permission: "database:read", tag: "Joins", operationId: "listJoins",
    summary: "List joins", description: "The joins of the database, each in its structured form.",
    status: 200, response: z.array(Join),
    run: (ctx, { instance }) => listJoins(ctx, { instance }),
  }),
  defineRoute({
    method: "POST", path: JOINS, permission: "database:write", tag: "Joins", operationId: "createJoin",
    summary: "Create a join",
    description: "Checks the definition (or SQL) against the live schema; its data API path `GET /v1/{instance}/{name}` exists at once. A name used by a table or join is 409.",
    body: JoinInput, status: 201, response: Join, errors: ["conflict"],
    run: (ctx, { instance, body }) => createJoin(ctx, { instance, body }),
  }),
  // Reads rows and stores nothing, so reading the database is enough.
  defineRoute({
    method: "POST", path: `${JOINS}/preview`, permission: "database:read", tag: "Joins", operationId: "previewJoin",
    summary: "Preview a join", description: "Checks an unsaved definition and returns it with its first 5 rows; nothing is stored.",
    body: JoinPreviewInput, status: 200, response: JoinPreview,
    run: (ctx, { instance, body }) => previewJoin(ctx, { instance, body }),
  }),
  defineRoute({
    method: "GET", path: JOIN, permission: "database:read", tag: "Joins", operationId: "getJoin",
    summary: "Get a join", description: "The structured form, plus `sql` when it was made in SQL mode.",
    status: 200, response: Join,
    run: (ctx, { instance, join }) => getJoin(ctx, { instance, join }),
  }),
  defineRoute({
    method: "PATCH", path: JOIN, permission: "database:write", tag: "Joins", operationId: "updateJoin",
    summary: "Change a join", description: "Renames it or replaces its definition. A name taken is 409.",
    body: JoinPatch, status: 200, response: Join, errors: ["conflict"],
    run: (ctx, { instance, join, body }) => updateJoin(ctx, { instance, join, body }),
  }),
  defineRoute({
    method: "DELETE", path: JOIN, permission: "database:write", tag: "Joins", operationId: "deleteJoin",
    summary: "Delete a join", description: "Its data API path is gone at once.",
    status: 204,
    run: (ctx, { instance, join }) => deleteJoin(ctx, { instance, join }),
  }),
];

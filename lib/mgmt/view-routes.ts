import { z } from "zod";
import { createView } from "../services/views/create-view";
import { deleteView } from "../services/views/delete-view";
import { listViews } from "../services/views/list-views";
import { updateView } from "../services/views/update-view";
import { defineRoute } from "./route";
import { SavedView, ViewInput, ViewPatch } from "../contract/schemas/views";

const VIEWS = "databases/:instance/tables/:table/views";
const VIEW = `${VIEWS}/:view` as const;

// Read is enough for every verb: a viewer keeps private views; sharing and others' shared views are the service's rule.
export const VIEW_ROUTES = [
  defineRoute({
    method: "GET", path: VIEWS, permission: "database:read", tag: "Tables", operationId: "listViews",
    summary: "List saved views", description: "The table's shared views and your private ones, by name.",
    status: 200, response: z.array(SavedView),
    run: (ctx, { instance, table }) => listViews(ctx, { instance, table }),
  }),
  defineRoute({
    method: "POST", path: VIEWS, permission: "database:read", tag: "Tables", operationId: "createView",
    summary: "Save a view",
    description: "Filters, sort and page size as a data API query string, and hidden columns. `shared: true` needs an editor, admin or the owner (403 otherwise).",
    body: ViewInput, status: 201, response: SavedView,
    run: (ctx, { instance, table, body }) => createView(ctx, { instance, table, body }),
  }),
  defineRoute({
    method: "PATCH", path: VIEW, permission: "database:read", tag: "Tables", operationId: "updateView",
    summary: "Change a saved view",
    description: "Your own view, or (admins and the owner) a shared one made by someone else; someone else's private view is 404.",
    body: ViewPatch, status: 200, response: SavedView, errors: ["not_found"],
    run: (ctx, { instance, table, view, body }) => updateView(ctx, { instance, table, view, body }),
  }),
  defineRoute({
    method: "DELETE", path: VIEW, permission: "database:read", tag: "Tables", operationId: "deleteView",
    summary: "Delete a saved view", description: "The same rights as changing it.",
    status: 204, errors: ["not_found"],
    run: (ctx, { instance, table, view }) => deleteView(ctx, { instance, table, view }),
  }),
];

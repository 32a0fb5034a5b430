import { z } from "zod";
import { createDatabase } from "../services/databases/create-database";
import { deleteDatabase } from "../services/databases/delete-database";
import { getDatabase } from "../services/databases/get-database";
import { listDatabases } from "../services/databases/list-databases";
import { updateDatabase } from "../services/databases/update-database";
import { defineRoute } from "./route";
import { Database, DatabaseCreate, DatabaseListQuery, DatabasePatch, DatabaseSummary } from "../contract/schemas/databases";

const DB = "databases/:instance";

export const DATABASE_ROUTES = [
  defineRoute({
    method: "GET", path: "databases", permission: "account:read", tag: "Databases", operationId: "listDatabases",
    summary: "List databases", description: "The databases this account can reach: its own (`mine`), those of workspaces it is a member of (`shared`), or both.",
    query: DatabaseListQuery, status: 200, response: z.array(DatabaseSummary),
    run: (ctx, { query }) => listDatabases(ctx, { query }),
  }),
  defineRoute({
    method: "POST", path: "databases", permission: "workspace:write", workspaceFrom: "body", tag: "Databases", operationId: "createDatabase",
    summary: "Create a database", description: "Creates a database in your workspace, or with `workspace` in an owner's where you are an editor or admin (you are its creator, the owner owns it). With `tables` it is a quick create (all tables at once, all or nothing). Counts against the owner's plan; past it, a database credit raises the limit by one for good, else 402.",
    body: DatabaseCreate, status: 201, response: Database, quota: "databases",
    run: (ctx, { body }) => createDatabase(ctx, { body }),
  }),
  defineRoute({
    method: "GET", path: DB, permission: "database:read", tag: "Databases", operationId: "getDatabase",
    summary: "Get a database", description: "The database with its tables and columns.",
    status: 200, response: Database,
    run: (ctx, { instance }) => getDatabase(ctx, { instance }),
  }),
  defineRoute({
    method: "PATCH", path: DB, permission: "database:write", tag: "Databases", operationId: "updateDatabase",
    summary: "Rename a database", description: "Changes the display name; the instance never changes.",
    body: DatabasePatch, status: 200, response: Database,
    run: (ctx, { instance, body }) => updateDatabase(ctx, { instance, body }),
  }),
  defineRoute({
    method: "DELETE", path: DB, permission: "database:admin", tag: "Databases", operationId: "deleteDatabase",
    summary: "Delete a database", description: "Deletes the database, all its data and the keys limited to it; its instance is never reused.",
    status: 204,
    run: (ctx, { instance }) => deleteDatabase(ctx, { instance }),
  }),
];

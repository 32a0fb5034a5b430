// The management tools of `/api/v1/mcp`: each is one route of the management API's route table, its arguments
// the route's path parameters beside its body's fields, and its JSON Schema generated from the route's own zod
// schemas. A call is a request to that route, so permissions, quotas and validation are the route's.
import { z } from "zod";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { invalidField } from "../errors";
import { ROUTES } from "../mgmt/routes";
import type { Route } from "../mgmt/route";
import { pathParamNames } from "../contract/parse-input";
import { isPathParamName, PATH_PARAMS } from "../contract/schemas/path-params";
import type { CoreCall } from "./call-core";

type Json = Record<string, unknown>;

type ManagementTool = { name: string; title: string; operationId: string; description: string; annotations: ToolAnnotations };

const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export const MANAGEMENT_TOOLS: ManagementTool[] = [
  { name: "list_databases", title: "List databases", operationId: "listDatabases", description: "The databases you can reach, with their instances (the data API's and data MCP server's path segment).", annotations: { readOnlyHint: true, openWorldHint: false } },
  { name: "get_database", title: "Get a database", operationId: "getDatabase", description: "A database with its tables and columns.", annotations: { readOnlyHint: true, openWorldHint: false } },
  { name: "create_database", title: "Create a database", operationId: "createDatabase", description: "A new database; `tables` creates its tables (with columns) in the same step, all or nothing.", annotations: WRITE },
  { name: "create_table", title: "Create a table", operationId: "createTable", description: "A table with its columns (id, created_at and updated_at are automatic).", annotations: WRITE },
  { name: "add_column", title: "Add a column", operationId: "addColumn", description: "A column on an existing table; rows already there take its default.", annotations: WRITE },
  { name: "create_join", title: "Create a join", operationId: "createJoin", description: "A saved join: several tables merged into one read-only path of the data API.", annotations: WRITE },
  { name: "set_policy", title: "Set row policies", operationId: "updatePolicies", description: "Replaces a table's row policies (select, insert, update, delete) for database-auth users; an action left out is denied to them.", annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } },
  { name: "run_ai_builder", title: "Run the AI builder", operationId: "createAiBuild", description: "One sentence to a planned database (`apply: true` creates it); with `database`, additions to that one.", annotations: { ...WRITE, openWorldHint: true } },
];

const routeOf = (tool: ManagementTool): Route => {
  const route = ROUTES.find((r) => r.operationId === tool.operationId);
  if (!route) throw new Error(`management tool ${tool.name}: no route ${tool.operationId}`);
  return route;
};

const jsonSchema = (schema: z.ZodType): Json => {
  const { $schema: _s, ...out } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Json;
  return out;
};

const inputSchemas = new Map<string, Json>();

/** The path parameters and the body's (or query's) fields as one object of arguments; built once per tool. */
export const managementInputSchema = (tool: ManagementTool): Json => {
  const known = inputSchemas.get(tool.name);
  if (known) return known;
  const route = routeOf(tool);
  const params = pathParamNames(route).filter(isPathParamName);
  const fields = route.body ?? route.query;
  const body = fields ? jsonSchema(fields) : { properties: {} };
  const schema = {
    ...body,
    type: "object",
    properties: { ...Object.fromEntries(params.map((p) => [p, jsonSchema(PATH_PARAMS[p].schema)])), ...(body.properties as Json) },
    required: [...params, ...((body.required as string[] | undefined) ?? [])],
  };
  inputSchemas.set(tool.name, schema);
  return schema;
};

/** The management API request a tool's call makes; a missing path parameter is named before any request. */
export const managementCall = (tool: ManagementTool, args: Record<string, unknown>): CoreCall => {
  const route = routeOf(tool);
  const rest = { ...args };
  const segments = route.path.split("/").map((segment) => {
    if (!segment.startsWith(":")) return segment;
    const name = segment.slice(1);
    const value = args[name];
    if (typeof value !== "string" && typeof value !== "number") throw invalidField(name, "required", `${name} is required`);
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  const pathname = `/api/v1/${segments.join("/")}`;
  if (route.query) {
    const query = new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)]));
    return { method: route.method, pathname, query };
  }
  const unknown = route.body ? undefined : Object.keys(rest)[0];
  if (unknown !== undefined) throw invalidField(unknown, "unknown_argument", `${tool.name} takes ${pathParamNames(route).join(", ") || "no arguments"}`);
  return { method: route.method, pathname, body: route.body ? rest : undefined };
};

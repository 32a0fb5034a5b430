// `POST /v1/{db}/mcp`: a database's MCP server. The caller is authenticated as the data API does (a key, or a
// JWT under row policies); its tools are generated from the live schema, and each call is a request to the data
// API's own handler, so permissions, policies, hooks, quotas and the rate limit are exactly the API's.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { App } from "../app-type";
import { notFound } from "../errors";
import { type CoreRequest, type CoreResponse, noContent } from "../http/core-types";
import { withCors } from "../db-auth/cors";
import { errorResponse } from "../http/error-response";
import { loadDatabase } from "../meta/load-schema";
import type { LoadedDatabase } from "../meta/schema-cache";
import { INSTANCE_RE } from "../schema/names";
import { type Caller, authenticate } from "../api/authenticate";
import { admitSchemaRead, handleDataRequest } from "../api/handle-data-request";
import { parseWith } from "../contract/parse-input";
import { errorResult, innerRequest, toToolResult } from "./call-core";
import { DATA_ARGS, DATA_TOOLS, type DataToolName, dataCall, inputSchemaOf } from "./data-tools";
import { describeJoin, describeTable, listTables, schemaDocument, visibleSchema } from "./schema-view";
import { serveMcp } from "./serve-mcp";
import { unknownTool } from "./unknown-tool";

const isDataTool = (name: string): name is DataToolName => Object.hasOwn(DATA_ARGS, name);

const jsonResult = (value: unknown): CallToolResult => ({ content: [{ type: "text", text: JSON.stringify(value) }] });

/** `next` (the cursor of the page after) and `total` (with `count`), read from the answer's headers. */
const pageInfo = (out: CoreResponse) => {
  const extra: Record<string, unknown> = {};
  const link = /<([^>]+)>;\s*rel="next"/.exec(out.headers.link ?? out.headers.Link ?? "");
  const after = link && new URL(link[1]).searchParams.get("_after");
  if (after) extra.next = { _after: after };
  const total = out.headers["x-total-count"] ?? out.headers["X-Total-Count"];
  if (total !== undefined) extra.total = Number(total);
  return extra;
};

type Bound = { app: App; req: CoreRequest; database: LoadedDatabase; caller: Caller };

const callDataTool = async ({ app, req, database, caller }: Bound, name: string, args: unknown): Promise<CallToolResult> => {
  try {
    if (!isDataTool(name)) return unknownTool(name, DATA_TOOLS.map((t) => t.name));
    const parsed = parseWith(DATA_ARGS[name], args ?? {});
    const schema = visibleSchema(database.schema, caller);
    if (name === "list_tables" || name === "describe_table") {
      await admitSchemaRead(app, database);
      if (name === "list_tables") return jsonResult(listTables(schema));
      const { table } = parsed as { table: string };
      const found = schema.tables.get(table) ?? schema.joins?.get(table);
      if (!found) throw notFound(`Table "${table}" was not found in database "${schema.instance}".`);
      return jsonResult("base" in found ? describeJoin(schema, found) : describeTable(found));
    }
    const out = await handleDataRequest(app, innerRequest(req, dataCall(schema.instance, name, parsed)!));
    return toToolResult(out, name === "query_rows" ? pageInfo(out) : {});
  } catch (err) {
    return errorResult(err);
  }
};

const schemaUri = (instance: string) => `tabula://${instance}/schema`;

const dataServer = (bound: Bound): Server => {
  const schema = visibleSchema(bound.database.schema, bound.caller);
  const server = new Server(
    { name: `tabula-${schema.instance}`, version: "1.0.0" },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: `The tables of the Tabula database "${schema.name}" (${schema.instance}). Read the schema resource or call describe_table before writing; results are the data API's JSON.`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: DATA_TOOLS.map((tool) => ({ ...tool, inputSchema: inputSchemaOf(tool.name, schema) as { type: "object" } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callDataTool(bound, request.params.name, request.params.arguments));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [{ uri: schemaUri(schema.instance), name: "schema", title: `Schema of ${schema.name}`, mimeType: "application/json", description: "Every table and join with its columns." }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== schemaUri(schema.instance)) throw new McpError(ErrorCode.InvalidParams, `No resource "${request.params.uri}"; this server has ${schemaUri(schema.instance)}.`);
    await admitSchemaRead(bound.app, bound.database);
    return { contents: [{ uri: request.params.uri, mimeType: "application/json", text: JSON.stringify(schemaDocument(schema)) }] };
  });
  return server;
};

/** Authenticates like the data API (401 and 404 are HTTP answers, before any MCP), then serves the request. */
const serveDataMcp = async (app: App, req: CoreRequest, database: LoadedDatabase | undefined): Promise<CoreResponse> => {
  try {
    if (req.method === "OPTIONS") return noContent({ allow: "POST, OPTIONS" });
    const caller = await authenticate(app, req, database);
    if (!database) throw notFound(`Database "${req.pathname.split("/")[2]}" was not found.`);
    return await serveMcp(req, () => dataServer({ app, req, database, caller }));
  } catch (err) {
    return errorResponse(err, req.requestId);
  }
};

/** The data MCP server, with the database's CORS on every answer as the data API has (a browser agent with a JWT). */
export const handleDataMcp = async (app: App, req: CoreRequest): Promise<CoreResponse> => {
  const instance = req.pathname.split("/")[2] ?? "";
  let database: LoadedDatabase | undefined;
  try {
    await app.sync();
    database = INSTANCE_RE.test(instance) ? await loadDatabase(app, instance) : undefined;
  } catch (err) {
    return errorResponse(err, req.requestId);
  }
  return withCors(database, req, await serveDataMcp(app, req, database));
};

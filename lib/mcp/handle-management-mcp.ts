// `POST /api/v1/mcp`: the management MCP server. The caller is whoever the management API would see (a secret
// key or the dashboard session); every tool call is a request to the management API's own handler, so each
// tool is allowed exactly when its route is, and quotas count the same.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { App } from "../app-type";
import { invalidField } from "../errors";
import type { CoreRequest, CoreResponse } from "../http/core-types";
import { handleManagementRequest, type SessionResolver } from "../mgmt/handle-management-request";
import { errorResult, innerRequest, toToolResult } from "./call-core";
import { MANAGEMENT_TOOLS, managementCall, managementInputSchema } from "./management-tools";
import { serveMcp } from "./serve-mcp";
import { unknownTool } from "./unknown-tool";

type Bound = { app: App; req: CoreRequest; session?: SessionResolver };

const callManagementTool = async ({ app, req, session }: Bound, name: string, args: unknown): Promise<CallToolResult> => {
  try {
    const tool = MANAGEMENT_TOOLS.find((t) => t.name === name);
    if (!tool) return unknownTool(name, MANAGEMENT_TOOLS.map((t) => t.name));
    if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) throw invalidField("arguments", "invalid_type", "arguments must be an object");
    const out = await handleManagementRequest(app, innerRequest(req, managementCall(tool, (args ?? {}) as Record<string, unknown>)), session);
    return toToolResult(out);
  } catch (err) {
    return errorResult(err);
  }
};

const managementServer = (bound: Bound): Server => {
  const server = new Server(
    { name: "tabula-management", version: "1.0.0" },
    {
      capabilities: { tools: {} },
      instructions: "Create and shape Tabula databases: tables, columns, joins, row policies, or a whole database from one sentence (run_ai_builder). Each database's rows are served by its own MCP server at /v1/{instance}/mcp.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: MANAGEMENT_TOOLS.map((tool) => {
      const { operationId: _route, ...shown } = tool;
      return { ...shown, inputSchema: managementInputSchema(tool) as { type: "object" } };
    }),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callManagementTool(bound, request.params.name, request.params.arguments));
  return server;
};

/** A caller the management API does not know is its 401 (or 403), an HTTP answer before any MCP. */
export const handleManagementMcp = async (app: App, req: CoreRequest, session?: SessionResolver): Promise<CoreResponse> => {
  if (req.method === "POST") {
    const who = await handleManagementRequest(app, innerRequest(req, { method: "GET", pathname: "/api/v1/account" }), session);
    if (who.status !== 200) return who;
  }
  return serveMcp(req, () => managementServer({ app, req, session }));
};

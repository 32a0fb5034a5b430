// Where the MCP endpoints sit beside the two APIs: `/v1/{db}/mcp` before the data API's table paths (no table
// may be called `mcp`), `/api/v1/mcp` before the management routes. Both adapters route through these. The MCP
// handlers (and the SDK) load on the first MCP request, so a process that serves none never loads them.
import type { App } from "../app-type";
import type { CoreRequest, CoreResponse } from "../http/core-types";
import { handleDataRequest } from "../api/handle-data-request";
import { handleManagementRequest, type SessionResolver } from "../mgmt/handle-management-request";

const segments = (req: CoreRequest) => req.pathname.split("/");

/** `/v1/{db}/mcp` */
export const isDataMcpPath = (req: CoreRequest) => {
  if (!req.pathname.endsWith("/mcp")) return false;
  const s = segments(req);
  return s.length === 4 && s[1] === "v1" && s[3] === "mcp";
};

/** `/api/v1/mcp` */
export const isManagementMcpPath = (req: CoreRequest) => req.pathname === "/api/v1/mcp";

export const serveDataPath = (app: App, req: CoreRequest): Promise<CoreResponse> =>
  isDataMcpPath(req) ? import("./handle-data-mcp").then((m) => m.handleDataMcp(app, req)) : handleDataRequest(app, req);

export const serveManagementPath = (app: App, req: CoreRequest, session?: SessionResolver): Promise<CoreResponse> =>
  isManagementMcpPath(req)
    ? import("./handle-management-mcp").then((m) => m.handleManagementMcp(app, req, session))
    : handleManagementRequest(app, req, session);

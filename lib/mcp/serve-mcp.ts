// Streamable HTTP for the MCP endpoints, stateless: every POST gets a fresh server and transport, so any API
// node of a cluster answers any request. GET and DELETE (a standalone event stream, a session to end) have
// nothing to serve without sessions: 405, as the SDK's stateless servers answer.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { type CoreRequest, type CoreResponse, json } from "../http/core-types";

/** The headers the transport reads; the core request carries no list of all of them. */
const MCP_HEADERS = ["content-type", "accept", "mcp-protocol-version", "mcp-session-id", "last-event-id"];

const toWebRequest = (req: CoreRequest): Request => {
  const headers = new Headers();
  for (const name of MCP_HEADERS) {
    const value = req.header(name);
    if (value !== undefined) headers.set(name, value);
  }
  return new Request(`${req.origin}${req.pathname}`, { method: req.method, headers, body: req.body ?? "" });
};

const toCoreResponse = async (response: Response): Promise<CoreResponse> => {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const body = await response.text();
  return { status: response.status, headers, body: body === "" ? undefined : body };
};

const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  json(status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);

/** Answers one MCP request with the server `build` makes for it (tools already bound to the caller). */
export const serveMcp = async (req: CoreRequest, build: () => Server): Promise<CoreResponse> => {
  if (req.method !== "POST") return rpcError(405, -32000, "Method not allowed.", { allow: "POST" });
  if (req.bodyTooLarge) return rpcError(413, -32600, "The request body is larger than 1 MiB.");
  const server = build();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    return await toCoreResponse(await transport.handleRequest(toWebRequest(req)));
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
};

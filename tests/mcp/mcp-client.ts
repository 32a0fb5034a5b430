// An MCP client (the SDK's Client over Streamable HTTP) connected to a harness through its adapter: real
// sockets for "node", the Next route handlers called with real web Requests for "route".
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Harness } from "../helpers/harness";

type Handler = (request: Request) => Promise<Response>;

const routeFetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
  const path = new URL(url).pathname;
  const module = path.startsWith("/api/v1")
    ? await import("../../app/api/v1/[[...path]]/route")
    : await import("../../app/v1/[db]/[[...path]]/route");
  const handler = (module as unknown as Record<string, Handler | undefined>)[init?.method ?? "GET"];
  return handler ? handler(new Request(url, init)) : new Response(null, { status: 405 });
};

/** Connects (initialize + initialized) to `path` with these headers (at `base`, else the harness's); close it when done. */
export const connectMcp = async (h: Harness, path: string, headers: Record<string, string>, base = h.baseUrl) => {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}${path}`), {
    requestInit: { headers },
    ...(h.adapter === "route" ? { fetch: routeFetch } : {}),
  });
  const client = new Client({ name: "tabula-tests", version: "1.0.0" });
  await client.connect(transport);
  return client;
};

/** The first text content of a tool result, parsed as JSON. */
export const resultJson = (result: CallToolResult | Record<string, unknown>): any => {
  const content = (result as CallToolResult).content;
  const first = content?.[0];
  if (!first || first.type !== "text") throw new Error(`no text content: ${JSON.stringify(result)}`);
  return JSON.parse(first.text);
};

/** Calls a tool and returns the result; isError results are returned, not thrown. */
export const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

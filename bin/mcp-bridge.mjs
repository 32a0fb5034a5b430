// `tabula mcp`: a stdio MCP server for clients that only start processes, relaying every message to a Tabula
// MCP endpoint over Streamable HTTP: a database's (`--db`) or the management tools'. Plain JavaScript, so it
// runs from an install without building anything.
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export const BRIDGE_USAGE = "usage: tabula mcp --url <base url> --key <secret key or JWT> [--db <instance>]   (or TABULA_URL, TABULA_KEY)";

/** The endpoint a bridge relays to: `/v1/{db}/mcp` with --db, else `/api/v1/mcp`. */
export const bridgeEndpoint = (base, db) => new URL(db ? `v1/${encodeURIComponent(db)}/mcp` : "api/v1/mcp", base.endsWith("/") ? base : `${base}/`);

const isRequest = (message) => "method" in message && "id" in message;

export const runBridge = async (args) => {
  const { values } = parseArgs({ args, options: { url: { type: "string" }, key: { type: "string" }, db: { type: "string" } } });
  const url = values.url ?? process.env.TABULA_URL;
  const key = values.key ?? process.env.TABULA_KEY;
  if (!url || !key) {
    console.error(BRIDGE_USAGE);
    process.exit(2);
  }
  const remote = new StreamableHTTPClientTransport(bridgeEndpoint(url, values.db), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  const local = new StdioServerTransport();
  // The protocol version the server agreed to rides on every later request, as the SDK's own client sends it.
  const initializing = new Set();
  local.onmessage = (message) => {
    if (isRequest(message) && message.method === "initialize") initializing.add(message.id);
    remote.send(message).catch((err) => {
      if (isRequest(message)) void local.send({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: `tabula mcp: ${err?.message ?? err}` } });
      else console.error(`tabula mcp: ${err?.message ?? err}`);
    });
  };
  remote.onmessage = (message) => {
    if ("id" in message && initializing.delete(message.id) && message.result?.protocolVersion) remote.setProtocolVersion(message.result.protocolVersion);
    void local.send(message);
  };
  remote.onerror = (err) => console.error(`tabula mcp: ${err?.message ?? err}`);
  local.onclose = () => void remote.close().finally(() => process.exit(0));
  process.stdin.on("end", () => void local.close());
  await remote.start();
  await local.start();
};

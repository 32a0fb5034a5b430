// A call to a tool the server does not have: an error result naming it and the tools there are, so an agent
// can correct itself (a JSON-RPC error would read to many clients as the server failing).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiError } from "../errors";
import { errorResult } from "./call-core";

export const unknownTool = (name: string, tools: string[]): CallToolResult =>
  errorResult(new ApiError("not_found", `No tool "${name}" on this server; its tools are ${tools.join(", ")}.`));

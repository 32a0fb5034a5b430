// A tool call made into a request to the data or management API's own handler: the caller's credentials,
// address and request id carried over, so authentication, permissions, row policies, hooks, quotas and the
// rate limit are the API's, not copies of them. Its answer becomes the tool's result.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { CoreRequest, CoreResponse } from "../http/core-types";
import { errorResponse } from "../http/error-response";

export type CoreCall = {
  method: string;
  /** Path without the query string, segments already encoded. */
  pathname: string;
  query?: URLSearchParams;
  body?: unknown;
  /** Headers added to (or replacing) the caller's, e.g. `prefer`. */
  headers?: Record<string, string>;
};

/** The headers that decide who calls (and, for a session, that the write comes from this site): nothing else passes. */
const CALLER_HEADERS = new Set(["x-api-key", "authorization", "cookie", "origin", "host", "x-forwarded-host", "sec-fetch-site", "user-agent"]);

export const innerRequest = (outer: CoreRequest, call: CoreCall): CoreRequest => {
  const query = call.query ?? new URLSearchParams();
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  const extra: Record<string, string> = { ...(body === undefined ? {} : { "content-type": "application/json" }), ...call.headers };
  return {
    method: call.method,
    pathname: call.pathname,
    query,
    rawQuery: query.toString(),
    header: (name) => extra[name] ?? (CALLER_HEADERS.has(name) ? outer.header(name) : undefined),
    body,
    origin: outer.origin,
    clientAddress: outer.clientAddress,
    requestId: outer.requestId,
  };
};

const text = (value: string) => ({ type: "text" as const, text: value });

/** A 2xx answer is the API's JSON as it was sent; anything else is an error result with the API's error body. */
export const toToolResult = (out: CoreResponse, extra: Record<string, unknown> = {}): CallToolResult => {
  const body = out.body ?? (out.status === 204 ? JSON.stringify({ deleted: true }) : "");
  const ok = out.status >= 200 && out.status < 300;
  const content = [text(body)];
  if (ok && Object.keys(extra).length) content.push(text(JSON.stringify(extra)));
  return ok ? { content } : { content, isError: true };
};

/** An error raised before any API was called (arguments the tool's schema refuses), in the API's error body. */
export const errorResult = (err: unknown): CallToolResult => toToolResult(errorResponse(err));

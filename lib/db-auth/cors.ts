import type { CoreRequest, CoreResponse } from "../http/core-types";
import type { LoadedDatabase } from "../meta/schema-cache";

// `mcp-protocol-version`: a browser MCP client of /v1/{db}/mcp sends it on every request after initialize.
const ALLOWED_HEADERS = "authorization, content-type, prefer, mcp-protocol-version";
const EXPOSED_HEADERS = "x-total-count, link, preference-applied, retry-after, ratelimit, ratelimit-policy, www-authenticate, allow";

/** True when the database's auth settings list this Origin ("*" allows any). */
const originAllowed = (database: LoadedDatabase | undefined, origin: string | undefined) => {
  const origins = database?.auth?.cors_origins;
  if (!origin || !origins?.length) return false;
  return origins.includes("*") || origins.includes(origin);
};

/**
 * Adds CORS headers for an allowed Origin, to preflights and to every other response (errors included);
 * any other Origin gets none, so the browser blocks the read. No cookies are involved (no credentials mode).
 */
export const withCors = (database: LoadedDatabase | undefined, req: CoreRequest, res: CoreResponse): CoreResponse => {
  const origin = req.header("origin");
  const vary = { vary: res.headers.vary ? `${res.headers.vary}, Origin` : "Origin" };
  if (!originAllowed(database, origin)) return { ...res, headers: { ...res.headers, ...vary } };
  const headers: Record<string, string> = { ...res.headers, ...vary, "access-control-allow-origin": origin! };
  if (req.method === "OPTIONS") {
    headers["access-control-allow-methods"] = res.headers.allow ?? "GET, POST, PUT, PATCH, DELETE, OPTIONS";
    headers["access-control-allow-headers"] = ALLOWED_HEADERS;
    headers["access-control-max-age"] = "600";
  } else {
    headers["access-control-expose-headers"] = EXPOSED_HEADERS;
  }
  return { ...res, headers };
};

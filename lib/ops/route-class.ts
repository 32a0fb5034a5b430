/** The kinds of traffic the logs and metrics tell apart. */
export type RouteClass = "data" | "management" | "auth" | "docs" | "dashboard" | "ops";

export const OPS_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/** Classifies a request by its path alone (the query string is ignored). */
export const routeClassOf = (url: string): RouteClass => {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (path.startsWith("/v1/")) {
    const third = path.split("/")[3];
    if (third === "auth") return "auth";
    if (third === "openapi.json") return "docs";
    return "data";
  }
  if (path.startsWith("/api/v1/")) return path === "/api/v1/openapi.json" ? "docs" : "management";
  if (path.startsWith("/api/auth/") || path.startsWith("/api/session/")) return "auth";
  if (path.startsWith("/docs")) return "docs";
  if (OPS_PATHS.has(path)) return "ops";
  return "dashboard";
};

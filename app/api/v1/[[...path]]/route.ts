import { getApp } from "@/lib/app";
import { createSessionResolver } from "@/lib/auth/resolve-session";
import { webHandler } from "@/lib/http/web-adapter";
import { serveManagementPath } from "@/lib/mcp/serve-paths";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = webHandler(getApp, (app, req) => serveManagementPath(app, req, createSessionResolver(app)));
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as OPTIONS };

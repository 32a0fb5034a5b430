import { serveDataPath } from "@/lib/mcp/serve-paths";
import { getApp } from "@/lib/app";
import { webHandler } from "@/lib/http/web-adapter";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = webHandler(getApp, serveDataPath);
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as OPTIONS };

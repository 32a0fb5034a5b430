import { getApp } from "@/lib/app";
import { handleDocsRequest } from "@/lib/docs/serve-docs";
import { webHandler } from "@/lib/http/web-adapter";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = webHandler(getApp, handleDocsRequest);
export { handler as GET, handler as HEAD };

import { serveDataPath } from "@/lib/mcp/serve-paths";
import { handleUploadWebRequest, isUploadPath } from "@/lib/api/handle-upload-request";
import { getApp } from "@/lib/app";
import { errorResponse } from "@/lib/http/error-response";
import { fromWebRequest, toWebResponse, webHandler } from "@/lib/http/web-adapter";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const data = webHandler(getApp, serveDataPath);

/** Resumable uploads stream their body to tus; every other path is the data API. */
const handler = async (request: Request): Promise<Response> => {
  if (!isUploadPath(new URL(request.url).pathname)) return data(request);
  try {
    const app = await getApp();
    const out = await handleUploadWebRequest(app, await fromWebRequest(request, app.config.trustProxy, true), request);
    return out instanceof Response ? out : toWebResponse(out);
  } catch (error) {
    return toWebResponse(errorResponse(error));
  }
};
/** HEAD: tus's for uploads; elsewhere the GET answer without its body, as Next gives when HEAD is not exported. */
const head = async (request: Request): Promise<Response> => {
  if (isUploadPath(new URL(request.url).pathname)) return handler(request);
  const out = await data(new Request(request.url, { method: "GET", headers: request.headers }));
  return new Response(null, { status: out.status, headers: out.headers });
};

export { head as HEAD };
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as OPTIONS };

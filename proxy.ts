// Under Next (next dev, and pages behind server.ts): first the one canonical path (server.ts makes it before
// Next; here for Next alone), then host routing: a request whose Host is a verified custom docs domain gets that
// database's docs, or 404, never the app. server.ts's node handler does the same before Next.
import { NextResponse } from "next/server";
import { getApp } from "@/lib/app";
import { docsInstanceForHost } from "@/lib/docs/docs-hosts";
import { handleDocsHostRequest } from "@/lib/docs/serve-docs";
import { canonicalPath } from "@/lib/http/canonical-path";
import { json } from "@/lib/http/core-types";
import { fromWebRequest, toWebResponse } from "@/lib/http/web-adapter";

export const proxy = async (request: Request) => {
  const url = new URL(request.url);
  const canonical = canonicalPath(url.pathname);
  if (canonical === null) return toWebResponse(json(404, { error: "not_found", message: "No such path." }));
  if (canonical !== url.pathname) return NextResponse.rewrite(new URL(canonical + url.search, url));
  const app = await getApp();
  const instance = await docsInstanceForHost(app, request.headers.get("host") ?? undefined);
  if (!instance) return NextResponse.next();
  return toWebResponse(await handleDocsHostRequest(app, await fromWebRequest(request, app.config.trustProxy), instance));
};

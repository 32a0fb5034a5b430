// Host routing under Next (next dev, and pages behind server.ts): a request whose Host is a verified custom docs
// domain gets that database's docs, or 404, never the app. server.ts's node handler does the same before Next.
import { NextResponse } from "next/server";
import { getApp } from "@/lib/app";
import { docsInstanceForHost } from "@/lib/docs/docs-hosts";
import { handleDocsHostRequest } from "@/lib/docs/serve-docs";
import { fromWebRequest, toWebResponse } from "@/lib/http/web-adapter";

export const proxy = async (request: Request) => {
  const app = await getApp();
  const instance = await docsInstanceForHost(app, request.headers.get("host") ?? undefined);
  if (!instance) return NextResponse.next();
  return toWebResponse(await handleDocsHostRequest(app, await fromWebRequest(request), instance));
};

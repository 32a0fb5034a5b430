import { getApp } from "@/lib/app";
import { signUp } from "@/lib/auth/sign-up";
import { errorResponse } from "@/lib/http/error-response";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { fromWebRequest, toWebResponse } from "@/lib/http/web-adapter";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Public sign-up (first run, when the operator opened sign-up, or from an invite link); the client then signs in. */
export const POST = async (request: Request) => {
  try {
    const body = parseJsonBody(await fromWebRequest(request)) as { email?: unknown; password?: unknown; invite?: unknown };
    return Response.json(await signUp(await getApp(), body ?? {}), { status: 201 });
  } catch (err) {
    return toWebResponse(errorResponse(err));
  }
};

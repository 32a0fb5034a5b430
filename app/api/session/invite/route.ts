import { getApp } from "@/lib/app";
import { errorResponse } from "@/lib/http/error-response";
import { toWebResponse } from "@/lib/http/web-adapter";
import { describeInvite } from "@/lib/services/teams/invites";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/session/invite?token=: what the invite page shows before sign-in (whose workspace, role, status). */
export const GET = async (request: Request) => {
  try {
    const token = new URL(request.url).searchParams.get("token") ?? "";
    return Response.json(await describeInvite(await getApp(), token));
  } catch (err) {
    return toWebResponse(errorResponse(err));
  }
};

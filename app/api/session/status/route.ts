import { getApp } from "@/lib/app";
import { readSignupStatus } from "@/lib/auth/sign-up";
import { errorResponse } from "@/lib/http/error-response";
import { toWebResponse } from "@/lib/http/web-adapter";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Public: whether this is a fresh install (first visit creates the operator) and whether sign-up is open. */
export const GET = async () => {
  try {
    return Response.json(await readSignupStatus(await getApp()));
  } catch (err) {
    return toWebResponse(errorResponse(err));
  }
};

import { commitRows } from "../../meta/commit-meta";
import { bumpSessionVersion } from "../../auth/session-version";
import type { Ctx } from "../../meta/context";

export type EndAllSessionsInput = Record<string, never>;

/**
 * DELETE /account/sessions ("Sign out everywhere"): every dashboard session of the account ends, the caller's
 * own included (its cookie is cleared too). Keys are not sessions: they stay until revoked.
 */
export const endAllSessions = async (ctx: Ctx, _input: EndAllSessionsInput) => {
  await commitRows(ctx, (trx) => bumpSessionVersion(trx, ctx.actor.accountId));
  const session = ctx.actor.session;
  if (session) ctx.responseHeaders = { ...ctx.responseHeaders, "set-cookie": `${session.cookieName}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax` };
};

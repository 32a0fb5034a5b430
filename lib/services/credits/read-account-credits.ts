import { readLedger } from "../../credits/ledger";
import type { Ctx } from "../../meta/context";

export type ReadAccountCreditsInput = Record<string, never>;

/** GET /account/credits: the caller's ledger, newest first, with its balances. */
export const readAccountCredits = (ctx: Ctx, _input: ReadAccountCreditsInput) => readLedger(ctx.app.engine.meta, ctx.actor.accountId);

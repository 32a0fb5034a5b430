import type { App } from "../app";
import { ApiError } from "../errors";
import { createAccount } from "../services/accounts/create-account";
import type { Ctx } from "../meta/context";
import { readSettings } from "../settings/get-settings";
import { acceptInvite, requireUsableInvite } from "../services/teams/invites";
import { ACCOUNT_COLUMNS, accountView } from "../plans/account-view";
import { metaTransaction } from "../db/meta-transaction";

const hasAccounts = async (app: App) => !!(await app.engine.meta.selectFrom("accounts").select("id").limit(1).executeTakeFirst());

/** What the sign-in page needs before anyone is signed in: is this a fresh install, may visitors sign up. */
export const readSignupStatus = async (app: App) => {
  const [exists, settings] = await Promise.all([hasAccounts(app), readSettings(app)]);
  return { has_accounts: exists, signup: settings.signup, first_run: !exists };
};

/**
 * Public sign-up: on a fresh install it creates the operator's account; afterwards when the operator opened
 * sign-up, or from a usable invite link (the new account then joins that workspace). The key createAccount makes is not returned here: the dashboard shows keys after sign-in.
 */
export const signUp = async (app: App, input: { email?: unknown; password?: unknown; invite?: unknown }) => {
  const invite = typeof input.invite === "string" && input.invite ? input.invite : undefined;
  // An invite link opens sign-up for its invitee even when sign-up is closed; a dead link opens nothing.
  if (invite) await requireUsableInvite(app, invite);
  const status = await readSignupStatus(app);
  if (!invite && status.has_accounts && status.signup !== "open") {
    throw new ApiError("forbidden", "Sign-up is closed on this install; ask its operator to create your account.");
  }
  const { account } = await createAccount(app, { email: input.email, password: input.password });
  if (invite) {
    try {
      await acceptInvite(app, account.id, invite);
    } catch (err) {
      await discardAccount(app, account.id);
      throw err;
    }
  }
  return account;
};

/** Another sign-up took the invite's last use between the check and the accept: the new account goes too. */
const discardAccount = (app: App, accountId: number) =>
  metaTransaction(app.engine.meta, async (trx) => {
    await trx.deleteFrom("api_keys").where("account_id", "=", accountId).execute();
    await trx.deleteFrom("accounts").where("id", "=", accountId).execute();
  });

export type AddAccountInput = { body: unknown };

/** POST /api/v1/accounts: the operator adds an account (whatever the sign-up setting). */
export const addAccount = async (ctx: Ctx, { body: input }: AddAccountInput) => {
  const body = (typeof input === "object" && input !== null ? input : {}) as { email?: unknown; password?: unknown };
  const { account } = await createAccount(ctx.app, { email: body.email, password: body.password });
  return accountView(ctx.app.engine.meta, { ...account, is_operator: account.is_operator ? 1 : 0, disabled_at: null });
};

export type GetCurrentAccountInput = Record<string, never>;

/** GET /api/v1/account: who is signed in (or whose key this is), with plan, usage and credits. */
export const getCurrentAccount = async (ctx: Ctx, _input: GetCurrentAccountInput) => {
  const meta = ctx.app.engine.meta;
  const row = await meta.selectFrom("accounts").select(ACCOUNT_COLUMNS).where("id", "=", ctx.actor.accountId).executeTakeFirstOrThrow();
  return accountView(meta, row);
};

export type ListAccountsInput = Record<string, never>;

/** GET /api/v1/accounts: every account of this install with its plan, usage and credits, for the operator. */
export const listAccounts = async (ctx: Ctx, _input: ListAccountsInput) => {
  const meta = ctx.app.engine.meta;
  const rows = await meta.selectFrom("accounts").select(ACCOUNT_COLUMNS).orderBy("id").execute();
  return Promise.all(rows.map((r) => accountView(meta, r)));
};

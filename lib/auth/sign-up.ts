import type { App } from "../app-type";
import { ApiError } from "../errors";
import { createAccount } from "../services/accounts/create-account";
import { readSettings } from "../settings/read-settings";
import { acceptInvite, requireUsableInvite } from "../services/teams/invites";
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
      await acceptInvite({ app }, account.id, invite);
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

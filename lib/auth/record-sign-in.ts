// Dashboard sign-ins in the audit log: each success and each failure (wrong email or password, a disabled
// account), with the address it came from. A failure names the account when the email is one; the password never.
import type { App } from "../app-type";
import { insertAuditEntry } from "../meta/audit/write-audit";
import type { CountedSignIn } from "./limit-dashboard-sign-in";
import { normaliseEmail, type SignedInAccount } from "./verify-credentials";

/** Records one sign-in outcome: `account` is the one that signed in, or undefined when it was refused (`reason`). */
export const recordSignIn = async (app: App, signIn: CountedSignIn, account: SignedInAccount | null, reason?: "disabled" | "credentials") => {
  const email = account?.email ?? normaliseEmail(signIn.email);
  const known = account ?? (email ? await app.engine.meta.selectFrom("accounts").select("id").where("email", "=", email).executeTakeFirst() : undefined);
  const ok = account !== null && reason === undefined;
  await insertAuditEntry(app.engine.meta, {
    action: ok ? "signin.ok" : "signin.failed",
    via: "session",
    actorId: known?.id ?? null,
    actorEmail: email.slice(0, 255),
    ip: signIn.attempt.address ?? null,
    // A sign-in is its account's own business: its workspace is the account's (an unknown email: the operator's view only).
    workspaceId: known?.id ?? null,
    databaseId: null,
    database: null,
    target: email.slice(0, 255) || "(no email)",
    after: ok ? undefined : { reason },
  });
};

// A database's end users signing in with a password (POST /v1/{instance}/auth/login) in the audit log: each
// success and each refusal, in the database owner's workspace so its admins see them. The login is recorded
// (it names who tried), the password never.
import type { App } from "../app-type";
import { insertAuditEntry } from "../meta/audit/write-audit";
import type { AuthDatabase } from "./auth-database";

export type UserSignInOutcome = { userId: number } | { reason: "credentials" | "disabled" | "unverified" };

export const recordUserSignIn = async (app: App, database: AuthDatabase, attempt: { login: string; address?: string }, outcome: UserSignInOutcome) => {
  const { schema, auth } = database;
  const ok = "userId" in outcome;
  await insertAuditEntry(app.engine.meta, {
    action: ok ? "user_signin.ok" : "user_signin.failed",
    via: "user",
    actorId: null,
    actorEmail: attempt.login.slice(0, 255),
    ip: attempt.address ?? null,
    workspaceId: schema.ownerId,
    databaseId: schema.id,
    database: schema.instance,
    target: `${auth.users_table}.${attempt.login}`.slice(0, 255),
    after: ok ? { user_id: outcome.userId } : { reason: outcome.reason },
  });
};

// A restore or clone holds the display name it creates until it finishes: a second one with the same name in
// the same workspace (or a database already named so) is 409, whichever commits first wins.
import { conflict } from "../errors";
import { type Ctx, nowIso, transact } from "../meta/context";
import { isUniqueViolation } from "../db/unique-violation";

const STALE_MS = 60 * 60 * 1000;

export const nameTaken = (name: string) => conflict(`A database named "${name}" already exists in this workspace or is being restored; choose another name.`, [{ field: "name", code: "taken", message: `"${name}" is taken` }]);

/** Claims `name` in the caller's workspace; answers the release. */
export const claimName = async (ctx: Ctx, name: string): Promise<() => Promise<void>> => {
  const ownerId = ctx.workspaceId ?? ctx.actor.accountId;
  const meta = ctx.app.engine.meta;
  try {
    await transact({ app: ctx.app }, async (trx) => {
      // A claim left by a process that died mid-restore stops holding the name after an hour.
      await trx.deleteFrom("restore_claims").where("owner_id", "=", ownerId).where("name", "=", name).where("created_at", "<", new Date(Date.now() - STALE_MS).toISOString()).execute();
      const existing = await trx.selectFrom("databases").select("id").where("owner_id", "=", ownerId).where("name", "=", name).executeTakeFirst();
      if (existing) throw nameTaken(name);
      await trx.insertInto("restore_claims").values({ owner_id: ownerId, name, created_at: nowIso() }).execute();
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(name);
    throw err;
  }
  return async () => {
    await meta.deleteFrom("restore_claims").where("owner_id", "=", ownerId).where("name", "=", name).execute();
  };
};

// A restore or clone holds the display name it creates until it finishes: a second one with the same name in
// the same workspace (or a database already named so) is 409, whichever commits first wins. While the claim is
// held a database of that name is hidden from the list (the restore's is published when the claim is released);
// the claim is refreshed as the restore runs, and one left unrefreshed (its process died mid-restore) is swept
// with the partial database it attached, at start-up and every RESTORE_STALE_SECONDS after.
import type { App } from "../app-type";
import { conflict } from "../errors";
import { type Ctx, nowIso, transact } from "../meta/context";
import { isUniqueViolation } from "../db/unique-violation";
import { loadDatabase } from "../meta/load-schema";
import { logger } from "../ops/logger";
import { deleteDatabase } from "../services/databases/delete-database";

/** How long a claim may go unrefreshed before its restore counts as dead (RESTORE_STALE_SECONDS, default 60). */
const staleMs = () => Math.max(1, Number(process.env.RESTORE_STALE_SECONDS ?? 60)) * 1000;

export const nameTaken = (name: string) => conflict(`A database named "${name}" already exists in this workspace or is being restored; choose another name.`, [{ field: "name", code: "taken", message: `"${name}" is taken` }]);

type Claim = { owner_id: number; name: string; created_at: string; alive_at: string | null; database_id: number | null };

/** Deletes the partial database of a dead claim (the one its restore attached), then the claim. */
const sweepClaim = async (app: App, claim: Claim) => {
  const meta = app.engine.meta;
  const partial = claim.database_id === null ? undefined : await meta.selectFrom("databases").select("instance").where("id", "=", claim.database_id).executeTakeFirst();
  const database = partial && (await loadDatabase(app, partial.instance));
  if (database) {
    const actor = { accountId: claim.owner_id, isOperator: false, keyDatabaseId: null };
    await deleteDatabase({ app, actor, database }, { instance: database.schema.instance });
    logger.warn({ instance: database.schema.instance, name: claim.name }, "deleted the partial database of a restore that stopped mid-way");
  }
  await meta.deleteFrom("restore_claims").where("owner_id", "=", claim.owner_id).where("name", "=", claim.name).where("created_at", "=", claim.created_at).execute();
};

/** Sweeps every claim (or `only` this name's) not refreshed for RESTORE_STALE_SECONDS; answers how many. */
export const sweepStaleRestores = async (app: App, only?: { ownerId: number; name: string }) => {
  const cutoff = new Date(Date.now() - staleMs()).toISOString();
  const stale = await app.engine.meta
    .selectFrom("restore_claims")
    .selectAll()
    .where((eb) => eb.fn.coalesce("alive_at", "created_at"), "<", cutoff)
    .$if(only !== undefined, (q) => q.where("owner_id", "=", only!.ownerId).where("name", "=", only!.name))
    .execute();
  for (const claim of stale) await sweepClaim(app, claim);
  return stale.length;
};

/** The sweeper's timer: once now, then every RESTORE_STALE_SECONDS; unref'd. Returns the stop. */
export const startRestoreSweeper = (app: App): (() => void) => {
  const run = () => void sweepStaleRestores(app).catch((err) => logger.warn({ err }, "sweeping stopped restores failed"));
  run();
  const timer = setInterval(run, staleMs());
  timer.unref();
  return () => clearInterval(timer);
};

export type NameClaim = {
  /** Records the database the restore fills (right after it is created): the one the sweeper deletes should the restore stop. */
  attach: (instance: string) => Promise<void>;
  /** Ends the claim, which publishes the database. */
  release: () => Promise<void>;
};

/** Claims `name` in the caller's workspace and keeps the claim fresh until released. */
export const claimName = async (ctx: Ctx, name: string): Promise<NameClaim> => {
  const ownerId = ctx.workspaceId ?? ctx.actor.accountId;
  const meta = ctx.app.engine.meta;
  await sweepStaleRestores(ctx.app, { ownerId, name });
  const at = nowIso();
  try {
    await transact({ app: ctx.app }, async (trx) => {
      const existing = await trx.selectFrom("databases").select("id").where("owner_id", "=", ownerId).where("name", "=", name).executeTakeFirst();
      if (existing) throw nameTaken(name);
      await trx.insertInto("restore_claims").values({ owner_id: ownerId, name, created_at: at, alive_at: at, database_id: null }).execute();
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(name);
    throw err;
  }
  const heartbeat = setInterval(() => {
    void meta.updateTable("restore_claims").set({ alive_at: nowIso() }).where("owner_id", "=", ownerId).where("name", "=", name).where("created_at", "=", at).execute().catch(() => undefined);
  }, Math.max(200, staleMs() / 4));
  heartbeat.unref();
  return {
    attach: async (instance) => {
      const made = await meta.selectFrom("databases").select("id").where("instance", "=", instance).executeTakeFirstOrThrow();
      await meta.updateTable("restore_claims").set({ database_id: made.id, alive_at: nowIso() }).where("owner_id", "=", ownerId).where("name", "=", name).where("created_at", "=", at).execute();
    },
    release: async () => {
      clearInterval(heartbeat);
      await meta.deleteFrom("restore_claims").where("owner_id", "=", ownerId).where("name", "=", name).where("created_at", "=", at).execute();
    },
  };
};

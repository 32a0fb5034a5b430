// A metadata change in one place: the service's statements, the version bump and the request's audit entry in
// one transaction (re-run whole after a lost race), then the event, published once after COMMIT so every
// process's caches follow. Every management change commits here or in changeSchema, which writes its entry too.
import type { Transaction } from "kysely";
import type { MetaDb } from "../db/meta-schema";
import type { AppEvent } from "../events/bus";
import { auditedTransaction, writePendingAudit } from "./audit/write-audit";
import { bumpMetaVersion, type Ctx, transact } from "./context";

/** What a change needs of the service's ctx (a few callers outside routes pass only `{ app }`). */
export type ChangeCtx = Pick<Ctx, "app" | "trx" | "meter" | "audit">;

/**
 * Runs `fn` in the service's metadata transaction and, when `event` (or `event(result)`) names a change, bumps
 * the metadata version in it (for a schema event the database's schema_version too) and publishes the event after
 * it commits; a change that turned out to be none (`event` gives undefined) does neither. The request's pending
 * audit entry (ctx.audit) is written in the same transaction either way: the operation ran.
 */
export const commitMeta = async <T>(ctx: ChangeCtx, event: AppEvent | ((result: NoInfer<T>) => AppEvent | undefined), fn: (trx: Transaction<MetaDb>) => Promise<T>): Promise<T> => {
  let change: AppEvent | undefined;
  const result = await auditedTransaction(ctx.audit, (wrote) =>
    transact(ctx, async (trx) => {
      const value = await fn(trx);
      change = typeof event === "function" ? event(value) : event;
      // A schema change also moves the database's schema_version, so changes planned on the old schema are planned again.
      if (change) await bumpMetaVersion(trx, change.kind === "schema" ? change.databaseId : undefined);
      if (await writePendingAudit(trx, ctx.audit)) wrote();
      return value;
    }),
  );
  if (change) ctx.app.events.publish(change);
  return result;
};

/** Records an operation that changed nothing stored (a replayed grant, a test delivery) in a transaction of its own. */
export const commitAuditOnly = (ctx: ChangeCtx) => commitMeta(ctx, () => undefined, async () => undefined);

/** A change no process caches (webhooks, saved views, invites, AI builds): its rows and the audit entry in one transaction, no event. */
export const commitRows = <T>(ctx: ChangeCtx, fn: (trx: Transaction<MetaDb>) => Promise<T>): Promise<T> => commitMeta(ctx, () => undefined, fn);

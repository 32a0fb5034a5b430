// A metadata change in one place: the service's statements and the version bump in one transaction (re-run
// whole after a lost race), then the event, published once after COMMIT so every process's caches follow.
import type { Transaction } from "kysely";
import type { MetaDb } from "../db/meta-schema";
import type { AppEvent } from "../events/bus";
import { bumpMetaVersion, type Ctx, transact } from "./context";

/** What a change needs of the service's ctx (a few callers outside routes pass only `{ app }`). */
export type ChangeCtx = Pick<Ctx, "app" | "trx" | "meter">;

/**
 * Runs `fn` in the service's metadata transaction and, when `event` (or `event(result)`) names a change, bumps
 * the metadata version in it (for a schema event the database's schema_version too) and publishes the event after
 * it commits; a change that turned out to be none (`event` gives undefined) does neither.
 */
export const commitMeta = async <T>(ctx: ChangeCtx, event: AppEvent | ((result: NoInfer<T>) => AppEvent | undefined), fn: (trx: Transaction<MetaDb>) => Promise<T>): Promise<T> => {
  let change: AppEvent | undefined;
  const result = await transact(ctx, async (trx) => {
    const value = await fn(trx);
    change = typeof event === "function" ? event(value) : event;
    // A schema change also moves the database's schema_version, so changes planned on the old schema are planned again.
    if (change) await bumpMetaVersion(trx, change.kind === "schema" ? change.databaseId : undefined);
    return value;
  });
  if (change) ctx.app.events.publish(change);
  return result;
};

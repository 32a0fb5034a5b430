import type { Kysely, Transaction } from "kysely";
import type { App } from "../app";
import type { MetaDb } from "../db/meta-schema";
import type { Meter } from "../plans/quotas";
import type { DatabaseRole } from "../mgmt/permissions";

/** Who is acting (resolved by the management handler, authorized by lib/mgmt/authorize.ts before a service runs). A key limited to one database carries that database's id. */
export type Actor = { accountId: number; isOperator: boolean; keyDatabaseId: number | null; session?: SessionToken };

/** The dashboard session a request came with: its cookie's name and its decoded claims (lib/auth/session-version.ts). */
export type SessionToken = { cookieName: string; claims: Record<string, unknown> };

/**
 * What every service verb takes first: the app, the authorized actor, the metadata transaction when a caller
 * already holds one, and the quota meter of a route that declares a quota (applied by `transact`).
 */
export type Ctx = {
  app: App;
  actor: Actor;
  trx?: Transaction<MetaDb>;
  meter?: Meter;
  /** Set by authorize on workspace routes: the owner whose workspace the route acts on. */
  workspaceId?: number;
  /** Set by authorize on database and workspace routes: the caller's role there. */
  role?: DatabaseRole;
  /** The origin the caller used (absolute links such as invite URLs). */
  origin?: string;
  /** Headers a service adds to its answer (a renewed session cookie). */
  responseHeaders?: Record<string, string>;
};

/** A service's metadata transaction: the caller's, or a new one that first applies the route's quota meter. */
export const transact = <T>(ctx: Ctx, fn: (trx: Transaction<MetaDb>) => Promise<T>): Promise<T> =>
  ctx.trx
    ? fn(ctx.trx)
    : ctx.app.engine.meta.transaction().execute(async (trx) => {
        await ctx.meter?.apply(trx);
        return fn(trx);
      });

export const nowIso = () => new Date().toISOString();

/** Marks the metadata as changed so every process drops its caches; call inside the writing transaction. */
export const bumpMetaVersion = async (trx: Kysely<MetaDb> | Transaction<MetaDb>, databaseId?: number) => {
  await trx.updateTable("meta_state").set((eb) => ({ version: eb("version", "+", 1) })).where("id", "=", 1).execute();
  if (databaseId !== undefined) {
    await trx
      .updateTable("databases")
      .set((eb) => ({ schema_version: eb("schema_version", "+", 1), updated_at: nowIso() }))
      .where("id", "=", databaseId)
      .execute();
  }
};

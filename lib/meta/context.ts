import type { Kysely, Transaction } from "kysely";
import type { App } from "../app-type";
import type { MetaDb } from "../db/meta-schema";
import type { Meter } from "../plans/meter";
import type { DatabaseRole } from "../teams/permissions";
import type { LoadedDatabase } from "./schema-cache";
import type { AuditSlot } from "./audit/audit-slot";
import { META_RETRY } from "../db/meta-transaction";
import { withSerializationRetry } from "../db/serialization-retry";

/** Who is acting (resolved by the management handler, authorized by lib/mgmt/authorize.ts before a service runs). A key limited to one database carries that database's id. */
export type Actor = { accountId: number; isOperator: boolean; keyDatabaseId: number | null; session?: SessionToken };

/** The ctx of a database route's service: authorize loaded and checked the database (lib/services/databases/database-ctx.ts outside a route). */
export type DbCtx = Ctx & { database: LoadedDatabase };

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
  /** Set by authorize on database routes: the database it loaded and checked (schema, hooks, auth, plan), so services need not load it again. */
  database?: LoadedDatabase;
  /** The origin the caller used (absolute links such as invite URLs). */
  origin?: string;
  /** The request's pending audit entry (management writes): commitMeta or changeSchema writes it with the change. */
  audit?: AuditSlot;
  /** Headers a service adds to its answer (a renewed session cookie). */
  responseHeaders?: Record<string, string>;
};

/**
 * A service's metadata transaction: the caller's, or a new one that first applies the route's quota meter
 * (re-run whole, meter included, after a serialization failure).
 */
export const transact = <T>(ctx: Pick<Ctx, "app" | "trx" | "meter">, fn: (trx: Transaction<MetaDb>) => Promise<T>): Promise<T> => {
  if (ctx.trx) return fn(ctx.trx);
  const { meter } = ctx;
  return withSerializationRetry(async () => {
    const metering = meter !== undefined && !meter.applied;
    try {
      return await ctx.app.engine.meta.transaction().execute(async (trx) => {
        await meter?.apply(trx);
        return fn(trx);
      });
    } catch (err) {
      if (metering) meter.reset();
      throw err;
    }
  }, META_RETRY);
};

export const nowIso = () => new Date().toISOString();

// Changes kept in meta_changes; older rows go as new ones pass multiples of this (MAX(id) is all that is read).
const KEEP_CHANGES = 500;

/**
 * Marks the metadata as changed so every process drops its caches; call inside the writing transaction. An
 * insert, not an update of one counter: concurrent changes never meet on a hot row (Galera certifies them apart).
 * A change to one database (`databaseId`) also writes its row, so two changes of it certify against each other,
 * and moves its schema_version unless `schema` is false (hooks and auth settings change beside the schema).
 */
export const bumpMetaVersion = async (trx: Kysely<MetaDb> | Transaction<MetaDb>, databaseId?: number, { schema = true } = {}) => {
  const { insertId } = await trx.insertInto("meta_changes").values({ database_id: databaseId ?? null, created_at: nowIso() }).executeTakeFirstOrThrow();
  const id = Number(insertId);
  if (id % KEEP_CHANGES === 0) await trx.deleteFrom("meta_changes").where("id", "<", id - KEEP_CHANGES).execute();
  if (databaseId !== undefined) {
    await trx
      .updateTable("databases")
      .set((eb) => ({ ...(schema && { schema_version: eb("schema_version", "+", 1) }), updated_at: nowIso() }))
      .where("id", "=", databaseId)
      .execute();
  }
};

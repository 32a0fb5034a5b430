import type { CompiledHooks } from "../hooks/hooks";
import { LruMap } from "../lru-map";
import type { DatabaseAuth, DatabaseSchema } from "../schema/types";

/** Loaded databases (and each of their parts) kept per process; past it the least recently used reload on use. */
export const MAX_CACHED_DATABASES = 2_000;
/** Workspace entries (plan rate, membership) kept per process, by owner. */
export const MAX_CACHED_WORKSPACES = 10_000;

/**
 * A bounded process cache of loaded entries (past the bound the least recently used goes, which is no
 * invalidation: the epoch stays). Every delete or clear moves `epoch` on, so a load that began before an
 * invalidation (it read the old rows, then a change committed and dropped the entry) does not put its stale
 * entry back: `setIfCurrent` stores only when nothing was invalidated since the load began. `onDrop` passes a
 * delete (with its key) or a clear (without) on to the caches built from this one.
 */
class EpochCache<K, V> extends LruMap<K, V> {
  epoch = 0;
  onDrop?: (key?: K) => void;

  override delete(key: K) {
    this.epoch++;
    this.onDrop?.(key);
    return super.delete(key);
  }

  override clear() {
    this.epoch++;
    this.onDrop?.();
    super.clear();
  }

  setIfCurrent(key: K, value: V, epoch: number) {
    if (epoch === this.epoch) this.set(key, value);
  }
}

/** What a database takes from its owner's workspace: the plan's request rate and whether it has members. */
export type WorkspaceEntry = { requestsPerSecond: number | null; shared: boolean };

/**
 * One database as the data path and the services use it: its pure schema, and beside it what is stored or decided
 * apart from the tables (each cached under its own key, dropped by its own changes).
 */
export type LoadedDatabase = WorkspaceEntry & {
  schema: DatabaseSchema;
  /** Database auth settings with the decrypted signing secret; absent = never configured. */
  auth?: DatabaseAuth;
  /** Pre hooks by table name, compiled against `schema` (lib/hooks); empty = none. */
  hooks: Map<string, CompiledHooks>;
};

/** The process's caches behind loadDatabase (lib/meta/load-schema.ts), wired so a drop reaches what was built on it. */
export type DatabaseCaches = {
  /** Schemas by instance: tables, joins, policies, indexes; dropped by that database's schema changes. */
  schemas: EpochCache<string, DatabaseSchema>;
  /** Compiled pre hooks by instance; dropped by hook changes, and with the schema they were compiled against. */
  hooks: EpochCache<string, Map<string, CompiledHooks>>;
  /** Auth settings by instance (null: never configured); dropped with the schema (auth changes are schema events; the users table is kept by id). */
  auth: EpochCache<string, DatabaseAuth | null>;
  /** Workspace entries by owner id; dropped by plan and team changes, which leave the schemas alone. */
  workspaces: EpochCache<number, WorkspaceEntry>;
  /** The loaded databases by instance, assembled from the caches above: one lookup per request while nothing changes. */
  databases: EpochCache<string, LoadedDatabase>;
};

export const createDatabaseCaches = (): DatabaseCaches => {
  const caches: DatabaseCaches = {
    schemas: new EpochCache(MAX_CACHED_DATABASES),
    hooks: new EpochCache(MAX_CACHED_DATABASES),
    auth: new EpochCache(MAX_CACHED_DATABASES),
    workspaces: new EpochCache(MAX_CACHED_WORKSPACES),
    databases: new EpochCache(MAX_CACHED_DATABASES),
  };
  const { schemas, hooks, auth, workspaces, databases } = caches;
  const dropDatabase = (instance?: string) => (instance === undefined ? databases.clear() : databases.delete(instance));
  schemas.onDrop = (instance) => {
    if (instance === undefined) {
      hooks.clear();
      auth.clear();
    } else {
      hooks.delete(instance);
      auth.delete(instance);
    }
  };
  hooks.onDrop = dropDatabase;
  auth.onDrop = dropDatabase;
  // An owner's entry is in every one of its databases: a plan or team change re-assembles them all from the kept schemas.
  workspaces.onDrop = () => databases.clear();
  return caches;
};

import type { DatabaseSchema } from "../schema/types";

/**
 * A process cache of loaded entries. Every delete or clear moves `epoch` on, so a load that began before an
 * invalidation (it read the old rows, then a change committed and dropped the entry) does not put its stale
 * entry back: `setIfCurrent` stores only when nothing was invalidated since the load began.
 */
class EpochCache<K, V> extends Map<K, V> {
  epoch = 0;

  override delete(key: K) {
    this.epoch++;
    return super.delete(key);
  }

  override clear() {
    this.epoch++;
    super.clear();
  }

  setIfCurrent(key: K, value: V, epoch: number) {
    if (epoch === this.epoch) this.set(key, value);
  }
}

/** The schemas by instance: tables, joins, policies, indexes, auth and hooks; dropped by that database's changes. */
export class SchemaCache extends EpochCache<string, DatabaseSchema> {}

/** What a database takes from its owner's workspace: the plan's request rate and whether it has members. */
export type WorkspaceEntry = { requestsPerSecond: number | null; shared: boolean };

/** Workspace entries by owner id; dropped by plan and team changes, which leave the schemas alone. */
export class WorkspaceCache extends EpochCache<number, WorkspaceEntry> {}

import type { DatabaseSchema } from "../schema/types";

/**
 * The process's schemas by instance. Every delete or clear moves `epoch` on, so a load that began before an
 * invalidation (it read the old tables, then a change committed and dropped the entry) does not put its stale
 * schema back: `setIfCurrent` stores only when nothing was invalidated since the load began.
 */
export class SchemaCache extends Map<string, DatabaseSchema> {
  epoch = 0;

  override delete(instance: string) {
    this.epoch++;
    return super.delete(instance);
  }

  override clear() {
    this.epoch++;
    super.clear();
  }

  setIfCurrent(instance: string, schema: DatabaseSchema, epoch: number) {
    if (epoch === this.epoch) this.set(instance, schema);
  }
}

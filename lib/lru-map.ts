// A Map that keeps at most `maxEntries`: a read or a write makes an entry the newest, and a write past the bound
// drops the least recently used. For the process caches keyed by what clients send or by tenant, so none of
// them grows with the input. Dropping an entry only costs a reload; it is not an invalidation.
export class LruMap<K, V> extends Map<K, V> {
  /** The key read or written last: already the newest entry, so reading it again moves nothing. */
  private newest: K | undefined;

  constructor(readonly maxEntries: number) {
    super();
  }

  override get(key: K): V | undefined {
    if (key === this.newest) return super.get(key);
    if (!super.has(key)) return undefined;
    const value = super.get(key) as V;
    // Map keeps insertion order: moving the entry to the end makes the first one the least recently used.
    super.delete(key);
    super.set(key, value);
    this.newest = key;
    return value;
  }

  override set(key: K, value: V) {
    super.delete(key);
    super.set(key, value);
    this.newest = key;
    if (this.size > this.maxEntries) super.delete(this.keys().next().value as K);
    return this;
  }
}

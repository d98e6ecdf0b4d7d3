/**
 * A bounded map for the hot path's caches (verified init data, known players, click rows): when
 * full, it drops an entry not read or written since the last sweep passed it ("second chance", an
 * approximation of least-recently-used). A hit only sets a flag: moving the entry to the end of a
 * Map (delete, then set) on every hit churns a table of 10⁵ entries on every request.
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, { value: V; used: boolean }>();
  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    e.used = true;
    return e.value;
  }

  set(key: K, value: V): void {
    const e = this.map.get(key);
    if (e !== undefined) {
      e.value = value;
      e.used = true;
      return;
    }
    if (this.map.size >= this.limit) this.evict();
    this.map.set(key, { value, used: false });
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  /** Drops the oldest entry not used since it was last passed over; a used one goes to the end, unmarked. */
  private evict(): void {
    for (const [key, e] of this.map) {
      this.map.delete(key);
      if (!e.used) return;
      e.used = false;
      this.map.set(key, e);
    }
  }
}

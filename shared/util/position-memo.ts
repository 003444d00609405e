/**
 * What was found at each position of a sequence the last time it was walked: a key found at the
 * same position again (what an edit left in place) costs one comparison of references, where a
 * lookup in a WeakMap per item took a twentieth of every edit of a 10,000-declaration file.
 */
export class PositionMemo<K, V> {
  private keys: (K | undefined)[] = [];
  private values: (V | undefined)[] = [];

  /** The value of `key` at `position`: the one remembered when `key` was there last time, else `compute(key)`. */
  get(position: number, key: K, compute: (key: K) => V): V {
    if (this.keys[position] === key) return this.values[position] as V;
    const value = compute(key);
    this.set(position, key, value);
    return value;
  }

  set(position: number, key: K, value: V): void {
    this.keys[position] = key;
    this.values[position] = value;
  }

  /** Forgets the positions from `length` on: the sequence is shorter now, and they would keep its old items alive. */
  truncate(length: number): void {
    if (this.keys.length > length) this.keys.length = this.values.length = length;
  }

  clear(): void {
    this.keys = [];
    this.values = [];
  }
}

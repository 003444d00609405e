/**
 * Keys in the order they were last used, each with a weight (bytes, records…), kept while their
 * total stays within a budget. The most recently used key is always kept, even alone over the
 * budget: the caller's bound is then the budget plus one key's weight.
 */
export class WeightedLru<K> {
  /** Insertion order is use order: the first key is the least recently used. */
  private readonly weights = new Map<K, number>();
  private total = 0;

  constructor(private limit: number) {}

  get budget(): number {
    return this.limit;
  }

  /** Changes the budget; returns the keys that no longer fit, oldest first. */
  setBudget(budget: number): K[] {
    this.limit = budget;
    return this.evictBeyondBudget();
  }

  /** Marks `key` used now with this weight; returns the keys that no longer fit, oldest first (never `key`). */
  touch(key: K, weight: number): K[] {
    this.delete(key);
    this.weights.set(key, weight);
    this.total += weight;
    return this.evictBeyondBudget();
  }

  /** Drops the least recently used keys while over the budget, keeping the most recent one. */
  private evictBeyondBudget(): K[] {
    const evicted: K[] = [];
    for (const [old, w] of this.weights) {
      if (this.total <= this.limit || this.weights.size === 1) break;
      this.weights.delete(old);
      this.total -= w;
      evicted.push(old);
    }
    return evicted;
  }

  delete(key: K): boolean {
    const w = this.weights.get(key);
    if (w === undefined) return false;
    this.weights.delete(key);
    this.total -= w;
    return true;
  }

  has(key: K): boolean {
    return this.weights.has(key);
  }

  get size(): number {
    return this.weights.size;
  }

  /** The sum of the kept keys' weights. */
  get weight(): number {
    return this.total;
  }

  /** The kept keys, least recently used first. */
  keys(): K[] {
    return [...this.weights.keys()];
  }
}

interface Stamped<V> {
  value: V;
  /** The last generation that used it. */
  generation: number;
}

/**
 * A map kept in two generations: what the current or the previous generation used is kept, and
 * rotating forgets whatever neither used. What is in use stays, what was used long ago goes, and
 * memory is bounded however long an editing session runs. Rotation happens when the current
 * generation is full, or when the owner says so (e.g. once per analysis).
 *
 * One map of stamped entries rather than two maps: an analysis that uses the same 30,000 keys as
 * the one before only re-stamps them, instead of moving each into a fresh map.
 */
export class GenerationalMap<K, V> {
  private readonly entries = new Map<K, Stamped<V>>();
  private generation = 0;
  /** Entries the current and the previous generation used. */
  private usedNow = 0;
  private usedBefore = 0;

  /** @param perGeneration entries after which the current generation rotates on its own */
  constructor(private readonly perGeneration = Infinity) {}

  /** Entries held, stale ones not yet swept included (what the memory bound is about). */
  get heldEntries(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.generation === this.generation) return e.value;
    if (e.generation < this.generation - 1) {
      this.entries.delete(key);
      return undefined;
    }
    this.stamp(e);
    return e.value;
  }

  set(key: K, value: V): void {
    const e = this.entries.get(key);
    if (e !== undefined && e.generation >= this.generation - 1) {
      e.value = value;
      if (e.generation !== this.generation) this.stamp(e);
      return;
    }
    if (this.usedNow >= this.perGeneration) this.rotate();
    this.entries.set(key, { value, generation: this.generation });
    this.usedNow++;
  }

  /** Starts a new generation: entries not used since the last rotation are dropped at the next. */
  rotate(): void {
    this.generation++;
    this.usedBefore = this.usedNow;
    this.usedNow = 0;
    // Stale entries are unreachable already; sweep them once they outnumber the live ones.
    if (this.entries.size > 2 * this.usedBefore + 1024) this.sweep();
  }

  clear(): void {
    this.entries.clear();
    this.usedNow = this.usedBefore = 0;
  }

  private stamp(e: Stamped<V>): void {
    if (this.usedNow >= this.perGeneration) this.rotate();
    e.generation = this.generation;
    this.usedNow++;
  }

  private sweep(): void {
    const oldest = this.generation - 1;
    for (const [k, e] of this.entries) if (e.generation < oldest) this.entries.delete(k);
  }
}

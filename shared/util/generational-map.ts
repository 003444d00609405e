/** What a StampedMap's values carry: the last generation that used them (the map sets it). */
export interface Stamp {
  generation: number;
}

/**
 * A map kept in two generations: what the current or the previous generation used is kept, and
 * rotating forgets whatever neither used. What is in use stays, what was used long ago goes, and
 * memory is bounded however long an editing session runs. Rotation happens when the current
 * generation is full, or when the owner says so (e.g. once per analysis).
 *
 * One map of stamped entries rather than two maps: an analysis that uses the same 30,000 keys as
 * the one before only re-stamps them, instead of moving each into a fresh map. The values carry
 * their stamp themselves (a field of theirs): a map of tens of thousands of keys saves an object
 * per key (see GenerationalMap for values that cannot).
 */
export class StampedMap<K, V extends Stamp> {
  private readonly entries = new Map<K, V>();
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
    if (e.generation === this.generation) return e;
    if (e.generation < this.generation - 1) {
      this.entries.delete(key);
      return undefined;
    }
    this.stamp(e);
    return e;
  }

  /** Holds `value` under `key`, stamped as used now. */
  set(key: K, value: V): void {
    const e = this.entries.get(key);
    if (e !== undefined && e.generation >= this.generation - 1) {
      const current = e.generation === this.generation;
      if (e !== value) {
        value.generation = e.generation;
        this.entries.set(key, value);
      }
      if (!current) this.stamp(value);
      return;
    }
    if (this.usedNow >= this.perGeneration) this.rotate();
    value.generation = this.generation;
    this.entries.set(key, value);
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

  private stamp(e: V): void {
    if (this.usedNow >= this.perGeneration) this.rotate();
    e.generation = this.generation;
    this.usedNow++;
  }

  private sweep(): void {
    const oldest = this.generation - 1;
    for (const [k, e] of this.entries) if (e.generation < oldest) this.entries.delete(k);
  }
}

interface Stamped<V> extends Stamp {
  value: V;
}

/** A StampedMap of any values, each held in a stamp of its own. */
export class GenerationalMap<K, V> {
  private readonly stamped: StampedMap<K, Stamped<V>>;

  /** @param perGeneration entries after which the current generation rotates on its own */
  constructor(perGeneration = Infinity) {
    this.stamped = new StampedMap(perGeneration);
  }

  /** Entries held, stale ones not yet swept included (what the memory bound is about). */
  get heldEntries(): number {
    return this.stamped.heldEntries;
  }

  get(key: K): V | undefined {
    return this.stamped.get(key)?.value;
  }

  set(key: K, value: V): void {
    const e = this.stamped.get(key);
    if (e !== undefined) e.value = value;
    else this.stamped.set(key, { value, generation: 0 });
  }

  /** Starts a new generation: entries not used since the last rotation are dropped at the next. */
  rotate(): void {
    this.stamped.rotate();
  }

  clear(): void {
    this.stamped.clear();
  }
}

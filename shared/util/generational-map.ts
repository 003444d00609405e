/**
 * A map kept in two generations: lookups that hit the previous generation move the entry back to
 * the current one, and rotating drops whatever neither generation used. What is in use stays,
 * what was used long ago goes, and memory is bounded, however long an editing session runs.
 * Rotation happens when the current generation is full, or when the owner says so (e.g. once
 * per analysis).
 */
export class GenerationalMap<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();

  /** @param perGeneration entries after which the current generation rotates on its own */
  constructor(private readonly perGeneration = Infinity) {}

  get(key: K): V | undefined {
    let v = this.current.get(key);
    if (v === undefined) {
      v = this.previous.get(key);
      if (v !== undefined) this.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    if (this.current.size >= this.perGeneration && !this.current.has(key)) this.rotate();
    this.current.set(key, value);
  }

  /** Starts a new generation: entries not used since the last rotation are dropped at the next. */
  rotate(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  clear(): void {
    this.current.clear();
    this.previous.clear();
  }
}

/** FNV-1a of a string, as a signed 32-bit integer (small integers are stored without a heap number). */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** The start of a hash of a sequence of integers that begins with `first` (see mixHash). */
export function startHash(first: number): number {
  return Math.imul(first + 1, 0x9e3779b1);
}

/** The hash of a sequence of integers with `value` appended. */
export function mixHash(h: number, value: number): number {
  return Math.imul(h ^ value, 0x01000193);
}

/**
 * Ids by a 32-bit hash, colliding ones chained. The caller compares each candidate itself:
 * `for (let id = chains.first(h); id >= 0; id = chains.after(id))` allocates nothing.
 */
export class HashChains {
  private readonly heads = new Map<number, number>();
  private readonly next: number[] = [];

  /** The last id added under `hash`, or -1. */
  first(hash: number): number {
    return this.heads.get(hash) ?? -1;
  }

  /** The id added under the same hash before `id`, or -1. */
  after(id: number): number {
    return this.next[id] ?? -1;
  }

  add(hash: number, id: number): void {
    this.next[id] = this.first(hash);
    this.heads.set(hash, id);
  }
}

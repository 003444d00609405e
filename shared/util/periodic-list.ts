/**
 * A list kept as its shortest period: the items `items[i]` equal `period[i % period.length]` for
 * every i. What a call made under each method is most often the same records again and again (a
 * resources() call's seven under each of eight methods, with one fate each), and an outline
 * keeps that for every call of a file.
 */
export class PeriodicList<T> {
  private constructor(
    readonly length: number,
    private readonly period: readonly T[],
  ) {}

  /** The list of `items` (compared by identity), in linear time. */
  static of<T>(items: readonly T[]): PeriodicList<T> {
    const n = items.length;
    // KMP's failure function: the longest proper border of the whole list gives its shortest period.
    const border = new Int32Array(n);
    for (let i = 1, k = 0; i < n; i++) {
      while (k > 0 && items[i] !== items[k]) k = border[k - 1]!;
      if (items[i] === items[k]) k++;
      border[i] = k;
    }
    const period = n === 0 ? 0 : n - border[n - 1]!;
    return new PeriodicList(n, items.slice(0, period));
  }

  at(i: number): T {
    return this.period[i % this.period.length]!;
  }

  /** Whether `items` are this list's items, by identity, in order. */
  equals(items: readonly T[]): boolean {
    if (items.length !== this.length) return false;
    const p = this.period.length;
    for (let i = 0; i < items.length; i++) if (items[i] !== this.period[i % p]) return false;
    return true;
  }

  /** How many items are kept (for tests). */
  get kept(): number {
    return this.period.length;
  }
}

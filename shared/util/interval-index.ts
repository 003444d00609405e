import type { Span } from '../php/ast';

/**
 * Items with spans, indexed to find those containing an offset in O(log n + answers): hovers
 * and go-to-definition on a 10,000-declaration file asked every call "do you contain the
 * cursor?" on each request. Spans may nest. Built once; spans must not change afterwards.
 */
export class IntervalIndex<T> {
  /** Indexes into `items`, by span start. */
  private readonly order: number[];
  private readonly starts: number[];
  private readonly ends: number[];
  /** Largest end among order[0..i]: the walk back stops where no earlier span can reach the offset. */
  private readonly reach: number[];

  constructor(
    private readonly items: readonly T[],
    spanOf: (item: T) => Span | undefined,
  ) {
    const spans = items.map(spanOf);
    const order: number[] = [];
    spans.forEach((s, i) => s && order.push(i));
    order.sort((a, b) => spans[a]!.start - spans[b]!.start || a - b);
    this.order = order;
    this.starts = order.map((i) => spans[i]!.start);
    this.ends = order.map((i) => spans[i]!.end);
    this.reach = [];
    let max = -Infinity;
    for (const e of this.ends) this.reach.push((max = Math.max(max, e)));
  }

  /** Items whose span holds `offset` (start ≤ offset < end, or ≤ end with `inclusiveEnd`), in their original order. */
  containing(offset: number, inclusiveEnd = false): T[] {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid] <= offset) lo = mid + 1;
      else hi = mid;
    }
    const hits: number[] = [];
    for (let j = lo - 1; j >= 0; j--) {
      if (this.reach[j] < offset || (!inclusiveEnd && this.reach[j] === offset)) break;
      const end = this.ends[j];
      if (end > offset || (inclusiveEnd && end === offset)) hits.push(this.order[j]);
    }
    return hits.sort((a, b) => a - b).map((i) => this.items[i]);
  }
}

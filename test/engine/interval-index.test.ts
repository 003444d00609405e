import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { IntervalIndex } from '../../shared/util/interval-index';

interface Item {
  id: number;
  span?: { start: number; end: number };
}

/** What containing() must answer: every item, in order, whose span holds the offset. */
function bruteForce(items: Item[], offset: number, inclusiveEnd: boolean): Item[] {
  return items.filter((i) => i.span && i.span.start <= offset && (offset < i.span.end || (inclusiveEnd && offset === i.span.end)));
}

describe('IntervalIndex (calls under the cursor)', () => {
  it('finds exactly the spans holding an offset, nested, equal, empty or missing ones included', () => {
    const span = fc.tuple(fc.nat(60), fc.nat(25)).map(([start, length]) => ({ start, end: start + length }));
    fc.assert(
      fc.property(fc.array(fc.option(span, { freq: 6 }), { maxLength: 40 }), fc.integer({ min: -2, max: 90 }), fc.boolean(), (spans, offset, inclusiveEnd) => {
        const items: Item[] = spans.map((s, id) => ({ id, span: s ?? undefined }));
        const index = new IntervalIndex(items, (i) => i.span);
        assert.deepEqual(index.containing(offset, inclusiveEnd).map((i) => i.id), bruteForce(items, offset, inclusiveEnd).map((i) => i.id));
      }),
      { numRuns: 2000 },
    );
  });

  it('sees a long span that starts far before shorter ones that end before the offset', () => {
    const items: Item[] = [{ id: 0, span: { start: 0, end: 100 } }, ...Array.from({ length: 45 }, (_, k) => ({ id: k + 1, span: { start: 2 * k + 1, end: 2 * k + 2 } }))];
    assert.deepEqual(new IntervalIndex(items, (i) => i.span).containing(99).map((i) => i.id), [0]);
  });
});

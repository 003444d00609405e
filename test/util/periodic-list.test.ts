import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { PeriodicList } from '../../shared/util/periodic-list';

describe('PeriodicList', () => {
  it('keeps the shortest period and gives back every item', () => {
    const a = {};
    const b = {};
    const c = {};
    const cases: [unknown[], number][] = [
      [[], 0],
      [[a], 1],
      [[a, a, a, a], 1],
      [[a, b, c, a, b, c, a, b, c], 3],
      // a period that does not divide the length
      [[a, b, a, b, a], 2],
      [[a, b, c, a, b], 3],
      [[a, b, c], 3],
      [[a, a, b], 3],
    ];
    for (const [items, kept] of cases) {
      const list = PeriodicList.of(items);
      assert.equal(list.kept, kept, `${items.length} items`);
      assert.equal(list.length, items.length);
      items.forEach((item, i) => assert.equal(list.at(i), item));
      assert.ok(list.equals(items));
    }
  });

  it('equals only the same items in the same order, by identity', () => {
    const list = PeriodicList.of(['active', 'active', 'replaced']);
    assert.ok(list.equals(['active', 'active', 'replaced']));
    assert.ok(!list.equals(['active', 'active']));
    assert.ok(!list.equals(['active', 'replaced', 'active']));
    assert.ok(!PeriodicList.of([{}]).equals([{}]));
  });

  it('gives back any list of few distinct items (fixed seed)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 40 }), (items) => {
        const list = PeriodicList.of(items);
        assert.deepEqual(Array.from({ length: list.length }, (_, i) => list.at(i)), items);
        assert.ok(list.equals(items));
        // no shorter period exists
        for (let p = 1; p < list.kept; p++) assert.ok(items.some((x, i) => i >= p && x !== items[i - p]), `period ${p} of ${items.join('')}`);
      }),
      { seed: 20261127, numRuns: 500 },
    );
  });
});

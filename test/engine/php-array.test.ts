import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { PhpArray, type Key } from '../../shared/runtime/values';

type Op = { kind: 'set'; key: Key; origin: boolean } | { kind: 'delete'; key: Key } | { kind: 'append'; origin: boolean };

const key = fc.oneof(fc.constantFrom<Key>('a', 'b', 'c', 'd', 'e'), fc.integer({ min: 0, max: 4 }));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, origin: fc.boolean() }),
  fc.record({ kind: fc.constant('delete' as const), key }),
  fc.record({ kind: fc.constant('append' as const), origin: fc.boolean() }),
);

describe('PhpArray', () => {
  it('forEachEntry gives every entry in order with the origin originOf() gives, whatever the writes', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const a = new PhpArray();
        ops.forEach((o, i) => {
          const origin = { written: i };
          if (o.kind === 'set') a.set(o.key, i, o.origin ? origin : undefined);
          else if (o.kind === 'append') a.append(i, o.origin ? origin : undefined);
          else a.delete(o.key);
        });
        const seen: [Key, unknown, unknown][] = [];
        a.forEachEntry((value, k, origin) => seen.push([k, value, origin]));
        assert.deepEqual(
          seen,
          [...a.entries()].map(([k, v]) => [k, v, a.originOf(k)]),
        );
      }),
      { numRuns: 2000 },
    );
  });
});

import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { PhpArray, type Key, type Value } from '../../shared/runtime/values';
import { MappedRoutes, RecentOverlaps } from '../../shared/library/mapped-routes';
import { RecordTable } from '../../shared/library/record-table';
import type { RouteRecord } from '../../shared/library/records';

/** What map() built before views: a copy of the input with every route written over it. */
function eagerMap(input: PhpArray, table: RecordTable): PhpArray {
  const out = input.clone();
  table.forEachEntry((to, key, record) => out.set(key, to, record));
  return out;
}

/** Everything a reader can see of an array (nested arrays by their entries, not their sharing counts). */
function contents(a: PhpArray): unknown {
  const plain = (v: Value | undefined): unknown => (v instanceof PhpArray ? [...v.entries()].map(([k, x]) => [k, plain(x)]) : v);
  const viaCallback: [Key, unknown, unknown][] = [];
  a.forEachEntry((value, key, origin) => viaCallback.push([key, plain(value), origin]));
  const viaIterator = [...a.entries()].map(([k, v]) => [k, plain(v), a.originOf(k)]);
  const lookups = viaCallback.map(([k]) => [k, plain(a.get(k)), a.has(k), a.originOf(k)]);
  return { size: a.size, viaCallback, viaIterator, lookups, missing: [a.get('zz'), a.has('zz')] };
}

let ids = 0;
function record(key: Key, to: string): RouteRecord {
  return { kind: 'route', id: ids++, key, to } as unknown as RouteRecord;
}

type Step =
  | { kind: 'store'; key: Key }
  | { kind: 'write-view'; key: Key }
  | { kind: 'append-view' }
  | { kind: 'delete-view'; key: Key }
  | { kind: 'write-input'; key: Key }
  | { kind: 'write-nested'; key: Key };

const key = fc.oneof(fc.constantFrom<Key>('a', 'b', 'c', 'd', 'e', 'n'), fc.integer({ min: 0, max: 4 }));
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('store' as const), key }),
  fc.record({ kind: fc.constant('write-view' as const), key }),
  fc.record({ kind: fc.constant('append-view' as const) }),
  fc.record({ kind: fc.constant('delete-view' as const), key }),
  fc.record({ kind: fc.constant('write-input' as const), key }),
  fc.record({ kind: fc.constant('write-nested' as const), key }),
);

describe('map() as a view over its input and the library table', () => {
  it('reads and writes as the copy map() used to build, whatever is written after (input, view, table, nested arrays)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.boolean()), { maxLength: 8 }),
        fc.array(key, { maxLength: 8 }),
        fc.array(step, { maxLength: 12 }),
        (inputEntries, tableKeys, steps) => {
          // `$route` before map(): scalar entries (some null), some with an origin, and one nested array.
          const origins = inputEntries.map((_, i) => ({ assignment: i }));
          const makeInput = () => {
            const a = new PhpArray();
            inputEntries.forEach(([k, withOrigin], i) => a.set(k, i % 3 === 2 ? null : `in${i}`, withOrigin ? origins[i] : undefined));
            a.set('n', PhpArray.fromList(['x']));
            return a;
          };
          let input = makeInput();
          const table = new RecordTable();
          tableKeys.forEach((k, i) => table.store(record(k, `to${i}`)));

          let view = MappedRoutes.over(input, table, new RecentOverlaps(), () => {});
          let eager = eagerMap(input, table);
          // The input as another variable still holds it (`$before = $route;` before map()), and
          // what it must keep holding: built apart, so that no sharing hides a write into it.
          let inputReference = makeInput();
          assert.deepEqual(contents(view), contents(eager));
          steps.forEach((s, i) => {
            switch (s.kind) {
              case 'store':
                table.store(record(s.key, `later${i}`));
                break;
              case 'write-view':
                view = view.writable();
                view.set(s.key, `v${i}`);
                eager = eager.writable();
                eager.set(s.key, `v${i}`);
                break;
              case 'append-view':
                view.append(`p${i}`);
                eager.append(`p${i}`);
                break;
              case 'delete-view':
                view.delete(s.key);
                eager.delete(s.key);
                break;
              case 'write-input':
                input = input.writable();
                input.set(s.key, `w${i}`);
                inputReference = inputReference.writable();
                inputReference.set(s.key, `w${i}`);
                break;
              case 'write-nested': {
                // `$route['n'][] = ...` through the view: the input's nested array must not change.
                for (const [a, setInto] of [
                  [view, (v: PhpArray) => (view = v)],
                  [eager, (v: PhpArray) => (eager = v)],
                ] as const) {
                  const nested = a.get('n');
                  if (!(nested instanceof PhpArray)) continue;
                  const own = a.writable();
                  own.set('n', nested.writable().share());
                  (own.get('n') as PhpArray).append(`q${i}`);
                  setInto(own);
                }
                break;
              }
            }
            assert.deepEqual(contents(view), contents(eager), `after step ${i} (${s.kind})`);
            assert.deepEqual(contents(input), contents(inputReference), `the input after step ${i} (${s.kind})`);
          });
          // The next integer key (`$route[] = ...`), read last: it settles the view.
          assert.equal(view.clone().append('z'), eager.clone().append('z'));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

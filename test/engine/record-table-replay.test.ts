import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { BelowLookups, RecentTables, RecordTable } from '../../shared/library/record-table';
import { MethodState } from '../../shared/library/route-library';
import type { RouteRecord } from '../../shared/library/records';
import type { Key } from '../../shared/runtime/values';

/**
 * Replayed stores (MethodState.addAll, RecordTable.replayAll): a statement stored again on a table
 * that holds what it held last time takes what it replaced from its lookups and waits in
 * `pending`; the table settles by taking an earlier table's routes with the same print, or by
 * storing them. Whatever the path, the state reads as one that stored every record one by one.
 */

let ids = 1;
function record(key: Key): RouteRecord {
  return { kind: 'route', id: ids++, key, to: `t/${String(key)}`, plainTarget: true } as unknown as RouteRecord;
}

/** A table's routes in order, with what each store replaced. */
function contents(table: RecordTable): unknown {
  const rows: unknown[] = [];
  table.forEachEntry((_to, key, rec) => rows.push([key, rec.id]));
  return { size: table.size, rows };
}

const key = fc.constantFrom<Key>('a', 'b', 'c', 'd', 1, 2);
/** Statements: each a list of keys stored in one go; the frozen routes beneath: keys. */
const scenario = fc.record({
  below: fc.uniqueArray(key, { maxLength: 4 }),
  statements: fc.array(fc.array(key, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
  edited: fc.nat(),
  newKeys: fc.array(key, { maxLength: 3 }),
  /** Per version, the statement its checkpoint lies before (modulo their number, plus one). */
  checkpoints: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
});

describe('route tables: statements stored again as they were', () => {
  it('read as tables that stored each record, over versions that edit one statement (property)', () => {
    fc.assert(
      fc.property(scenario, ({ below, statements, edited, newKeys, checkpoints }) => {
        const base = new RecordTable();
        for (const k of below) base.store(record(k));
        const frozenBelow = base.freeze();
        const records = statements.map((keys) => keys.map(record));
        const lookups = statements.map(() => new BelowLookups());
        const at = edited % statements.length;
        const recall = new RecentTables();
        // Three versions: the edited statement's records are new in each; the others are the same
        // objects. Each resumes from a checkpoint of its own: the routes of the statements above
        // it, frozen (an editor's checkpoint moves with the edits).
        for (let version = 0; version < 3; version++) {
          const versionRecords = records.map((list, s) => (s === at ? (version % 2 === 0 ? newKeys : statements[s]).map(record) : list));
          const checkpoint = checkpoints[version] % (statements.length + 1);
          const above = RecordTable.on(frozenBelow);
          for (const list of versionRecords.slice(0, checkpoint)) for (const r of list) above.store(r);
          const frozen = above.freeze();
          const state = new MethodState();
          state.routes = RecordTable.on(frozen, recall);
          const reference = new MethodState();
          reference.routes = RecordTable.on(frozen);
          versionRecords.forEach((list, s) => {
            if (s < checkpoint) return;
            if (s === at) {
              for (const r of list) {
                state.add(r);
                reference.add(r);
              }
            } else {
              state.addAll(list, lookups[s]);
              for (const r of list) reference.add(r);
            }
          });
          const ids = (rs: readonly RouteRecord[]) => rs.map((r) => r.id);
          assert.deepEqual(ids(state.replaced), ids(reference.replaced), 'what each store replaced');
          assert.deepEqual(ids(state.created), ids(reference.created));
          assert.equal(state.ticks, reference.ticks);
          assert.equal(state.routes.size, reference.routes.size);
          assert.equal(state.routes.allTargetsPlain, reference.routes.allTargetsPlain);
          assert.deepEqual(state.routes.print(), reference.routes.print());
          state.routes.settle();
          assert.deepEqual(contents(state.routes), contents(reference.routes));
          for (const r of state.created) assert.equal(state.marks.replacedBy(r)?.id, reference.marks.replacedBy(r)?.id);
        }
      }),
    );
  });

  it('knows a table by its records, whatever checkpoint it was built on', () => {
    const [a, b, c] = ['a', 'b', 'c'].map(record);
    const [lookupsB, lookupsC] = [new BelowLookups(), new BelowLookups()];
    const above = new RecordTable();
    above.store(a);
    const afterA = above.freeze();
    above.store(b);
    const afterB = above.freeze();
    const recall = new RecentTables();
    // The last version resumed after `a`, and stored `b` and `c` one by one.
    const last = RecordTable.on(afterA, recall);
    last.store(b, lookupsB, 0);
    last.store(c, lookupsC, 0);
    last.settle();
    // This one resumes after `b` (the edit moved down): `c` lands on the same routes as last time.
    const now = RecordTable.on(afterB, recall);
    assert.deepEqual(now.print(), afterB.print);
    assert.equal(now.replayAll([c], lookupsC), true, 'stored together: the table holds what it held last time');
    assert.deepEqual(now.print(), last.print());
    now.settle();
    assert.deepEqual(contents(now), contents(last));
    // Another record beneath `c` is another table: stored one by one.
    const other = RecordTable.on(afterA, recall);
    other.store(record('b'));
    assert.equal(other.replayAll([c], lookupsC), false);
  });

  it('takes the routes of an earlier table with the same print, and never its own', () => {
    const frozen = new RecordTable().freeze();
    const records = ['a', 'b', 'a', 'c'].map(record);
    const lookups = new BelowLookups();
    const recall = new RecentTables();
    // Remembered first, while empty: it must not take its own routes for those it waits to store.
    const second = RecordTable.on(frozen, recall);
    second.settle();
    const first = RecordTable.on(frozen, recall);
    records.forEach((r, i) => first.store(r, lookups, i));
    first.settle();
    // The same statement on the same routes: the records wait, then the first table's routes are read.
    assert.equal(second.replayAll(records, lookups), true);
    assert.deepEqual(records.map((_r, i) => lookups.previousAt(i)?.id), [undefined, undefined, records[0].id, undefined]);
    assert.equal(second.size, 3);
    second.settle();
    assert.deepEqual(contents(second), contents(first));
    assert.deepEqual(contents(second), { size: 3, rows: [['a', records[2].id], ['b', records[1].id], ['c', records[3].id]] });
    // A write after taking them copies them first: the first table is left as it was.
    second.store(record('d'));
    assert.deepEqual(contents(first), { size: 3, rows: [['a', records[2].id], ['b', records[1].id], ['c', records[3].id]] });
    assert.equal(second.size, 4);
  });
});

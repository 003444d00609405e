import * as assert from 'node:assert/strict';
import { MAX_COMPLETION_ITEMS, filterCompletions, fuzzyMatches } from '../../server/src/lsp/completion-filter';

describe('completion filtering (thousands of route names)', () => {
  const names = Array.from({ length: 3000 }, (_, i) => ({ label: `orders_${i}_index` }));

  it('ships every item when there are few, for the editor to filter', () => {
    const few = names.slice(0, 10);
    assert.deepEqual(filterCompletions(few, () => 'zzz'), { items: few, complete: true });
  });

  it('keeps at most the cap, prefix matches first, and says the list is incomplete', () => {
    const r = filterCompletions([{ label: 'xorders_1' }, ...names], () => 'orders_1');
    assert.equal(r.items.length, MAX_COMPLETION_ITEMS);
    assert.equal(r.complete, false);
    assert.ok(r.items.every((e) => e.label.startsWith('orders_1')), 'prefix matches come before others');
  });

  it('is complete once what was typed narrows the list below the cap', () => {
    const r = filterCompletions(names, () => 'orders_2999');
    assert.deepEqual(r, { items: [{ label: 'orders_2999_index' }], complete: true });
  });

  it('matches typed characters in order, ignoring case', () => {
    assert.ok(fuzzyMatches('Orders_12_Index', 'o12i'));
    assert.ok(!fuzzyMatches('orders_12_index', 'i12'));
    assert.ok(fuzzyMatches('anything', ''));
  });
});

import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { completeNamed, NameChoices } from '../../shared/analysis/features/completion/completion';
import { MAX_COMPLETION_ITEMS, filterCompletions, fuzzyMatches } from '../../server/src/lsp/completion-filter';
import { markdownText } from '../../shared/util/escape';

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

  it("writes a route name's documentation when it is read (an editor resolves the item it shows), once", () => {
    const names = new Map([['about', { from: 'pages/about', methods: ['GET'] }], ['contact', { from: 'pages/contact', methods: ['GET', 'POST'] }]]);
    const choices = new NameChoices(names);
    const text = "<?= Route::named('";
    const [about, contact] = completeNamed(text, text.length, choices)!;
    const written = () => choices.list().filter((c) => c.documentation !== undefined).map((c) => c.name);
    assert.deepEqual(written(), []);
    assert.equal(contact.documentation, markdownText("Route::named('contact') returns 'pages/contact' (GET, POST)."));
    assert.deepEqual(written(), ['contact']);
    // The next request's entries read what was written.
    const again = completeNamed(text, text.length, choices)!;
    assert.equal(again[1].documentation, contact.documentation);
    assert.equal(about.label, 'about');
  });

  it('named() completion asked for the best 101 ships what filtering every name would', () => {
    // Few letters, so that both groups (names starting with what is typed, names only holding it) pass the cap.
    const name = fc.stringMatching(/^[abAB_]{1,8}$/);
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 400, size: 'max' }), fc.stringMatching(/^[aAb]{0,2}$/), (list, typed) => {
        const names = new Map(list.map((n) => [n, { from: `${n}/x`, methods: ['GET'] }]));
        const text = `<?= Route::named('${typed}`;
        const typedFor = () => typed;
        // What filtering every name, sorted, ships (written out here, not through completeNamed).
        const sorted = [...names.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((label) => ({ label }));
        const expected = filterCompletions(sorted, typedFor);
        const choices = new NameChoices(names);
        for (let request = 0; request < 2; request++) {
          // The same choices serve the next request too.
          const got = filterCompletions(completeNamed(text, text.length, choices, MAX_COMPLETION_ITEMS + 1) ?? [], typedFor);
          assert.deepEqual({ labels: got.items.map((e) => e.label), complete: got.complete }, { labels: expected.items.map((e) => e.label), complete: expected.complete });
          for (const e of got.items) assert.equal(e.documentation, markdownText(`Route::named('${e.label}') returns '${e.label}/x' (GET).`));
        }
      }),
      { numRuns: 400 },
    );
  });
});

import * as assert from 'node:assert/strict';
import { signatureAt } from '../../shared/analysis/features/signature-help';
import { withCursor } from './cursor-marker';

function help(src: string): ReturnType<typeof signatureAt> {
  const { text, offset } = withCursor(src);
  return signatureAt(text, offset);
}

describe('signatureAt', () => {
  it("gives the library's signature, its parameters with docs, and the first as active", () => {
    const s = help('<?php Route::any(|');
    assert.equal(s?.label, 'Route::any($from, $to, $options = [], $nested = false)');
    assert.deepEqual(s?.parameters.map((p) => p.label), ['$from', '$to', '$options = []', '$nested = false']);
    for (const p of s!.parameters) {
      assert.equal(s!.label.slice(p.labelOffsets[0], p.labelOffsets[1]), p.label);
      assert.ok(p.doc.length > 0, p.label);
    }
    assert.equal(s?.activeParameter, 0);
    assert.match(s?.doc ?? '', /every request method/);
  });

  it('counts arguments past strings, nested calls and arrays', () => {
    assert.equal(help("<?php Route::any('a,(b', strtolower('C,D'), array('as' => 'x', |")?.activeParameter, 2);
    assert.equal(help("<?php Route::get('a', strtolower('B', |")?.activeParameter, 1);
    assert.equal(help("<?php Route::get('a', \"b\", [1, [2, 3]], |")?.activeParameter, 3);
  });

  it('method-specific parameter docs', () => {
    const s = help("<?php Route::resources('photos', |");
    assert.equal(s?.activeParameter, 1);
    assert.match(s!.parameters[1].doc, /constraint/);
    assert.match(help("<?php Route::context('admin', |")!.parameters[1].doc, /array here is taken as `\$options`/);
  });

  it('a variadic parameter stays active; past the last parameter none is', () => {
    assert.equal(help("<?php Route::block('a', 'b', |")?.activeParameter, 0);
    assert.equal(help("<?php Route::named('a', |")?.activeParameter, undefined);
    const reset = help('<?php Route::reset(|');
    assert.deepEqual(reset?.parameters, []);
    assert.equal(reset?.activeParameter, undefined);
  });

  it("the innermost Route call; not inside a closure's body", () => {
    assert.equal(help("<?php Route::prefix('api', function () { |"), undefined);
    assert.equal(help("<?php Route::prefix('api', function () { Route::get('a', |")?.label.startsWith('Route::get('), true);
    assert.equal(help("<?php Route::get('a', Route::named(|")?.label, 'Route::named($name)');
    assert.equal(help("<?php Route::prefix('api', |")?.activeParameter, 1);
  });

  it('case-insensitive; nothing for unknown methods, closed calls, comments', () => {
    assert.equal(help('<?php route::GET(|')?.label.startsWith('Route::get('), true);
    assert.equal(help('<?php Route::nope(|'), undefined);
    assert.equal(help("<?php Route::any('a', 'b'); |"), undefined);
    assert.equal(help("<?php Route::any('a', // |"), undefined);
    assert.equal(help('<?php Route::constructor(|'), undefined);
    assert.equal(help('<?php Route::toString(|'), undefined);
  });
});

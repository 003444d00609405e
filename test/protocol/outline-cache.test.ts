import * as assert from 'node:assert/strict';
import { OutlineCache } from '../../server/src/lsp/outline-cache';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';
import type { DocumentSymbol } from 'vscode-languageserver';

describe('OutlineCache: the LSP outline of successive versions', () => {
  const text = `<?php
Route::get('about', 'pages/about', array('as' => 'about'));
Route::resources('photos');
Route::prefix('api', function () {
    Route::get('status', 'api/status');
});
$route['legacy'] = 'pages/legacy';
$route = Route::map($route);
`;
  const named = (symbols: DocumentSymbol[], name: string): DocumentSymbol => {
    for (const s of symbols) {
      if (s.name === name) return s;
      const inner = s.children && named(s.children, name);
      if (inner) return inner;
    }
    return undefined as unknown as DocumentSymbol;
  };

  it("gives a kept declaration's symbol again, and equals a fresh outline after every edit", () => {
    const document = new DocumentEvaluator();
    const cache = new OutlineCache();
    const outline = (t: string) => cache.get(t, document.update(t), 1000).symbols;
    const fresh = (t: string) => new OutlineCache().get(t, new DocumentEvaluator().update(t), 1000).symbols;
    const first = outline(text);
    assert.deepEqual(first, fresh(text));
    // One character of the first route's target: that declaration changes, the others are kept.
    const retargeted = text.replace("'pages/about'", "'pages/abouT'");
    const second = outline(retargeted);
    assert.deepEqual(second, fresh(retargeted));
    assert.notEqual(named(second, "Route::get('about')"), named(first, "Route::get('about')"));
    assert.equal(named(second, "Route::resources('photos')"), named(first, "Route::resources('photos')"));
    // A line above everything: every declaration moves, none is given again.
    const moved = `<?php\n// moved${retargeted.slice('<?php'.length)}`;
    const third = outline(moved);
    assert.deepEqual(third, fresh(moved));
    assert.notEqual(named(third, "Route::resources('photos')"), named(second, "Route::resources('photos')"));
    assert.equal(named(third, "Route::resources('photos')")!.range.start.line, 3);
  });
});

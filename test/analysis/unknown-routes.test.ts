import * as assert from 'node:assert/strict';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';

describe('dynamic-route as a document is edited (unknown routes counted where the tables changed)', () => {
  it('appears when an unknown route is typed, and goes when it is removed', () => {
    const lines = Array.from({ length: 60 }, (_, i) => `Route::get('page${i}', 'pages/show/${i}');`);
    const base = ['<?php', ...lines, '$route = Route::map($route);', ''].join('\n');
    const withUnknown = base.replace("Route::get('page30'", "Route::get(config_item('slug'), 'pages/slug');\nRoute::get('page30'");
    const evaluator = new DocumentEvaluator();
    const codes = (text: string) => analyzeRouteFile(text, evaluator.update(text)).map((f) => f.code);
    assert.deepEqual(codes(base), []);
    assert.deepEqual(codes(withUnknown), ['dynamic-route']);
    assert.deepEqual(codes(withUnknown.replace("'pages/slug'", "'pages/slug2'")), ['dynamic-route']);
    assert.deepEqual(codes(base), []);
    assert.deepEqual(codes(base.replace("'pages/show/5'", "'pages/show/five'")), []);
  });
});

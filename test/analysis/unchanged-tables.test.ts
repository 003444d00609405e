import * as assert from 'node:assert/strict';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { formatFindings } from './fixture-format';

/**
 * An edit usually changes one method's table: the checks keep what they decided about the others.
 * Their findings must still point at this version's text, and equal a fresh analysis's.
 */
describe('checks keep their decisions about tables an edit left unchanged', () => {
  // Routes the evaluator replays (their records move with the text) and entries it evaluates
  // again (assignments to $route: the same entries, with new origins).
  const original = `<?php
Route::get('a', 'x/a');
Route::post('(:any)', 'x/any');
Route::post('b', 'x/b');
Route::post('p', 'x/p/$1');
$route['q/(:any)'] = 'x/q';
$route['q/r'] = 'x/q/r';
$route = Route::map($route);
`;
  // Lines above POST's routes, and a GET route: every POST entry moves, none changes.
  const edited = original.replace("Route::get('a', 'x/a');", "// moved\nRoute::get('a', 'x/a');\nRoute::get('z', 'x/z');");

  const fresh = (text: string) => formatFindings(text, analyzeRouteFile(text, evaluateRouteFile(text)));

  it('moves the findings of the unchanged method with the text', () => {
    const document = new DocumentEvaluator();
    const before = fresh(original);
    assert.match(before, /L4:\d+-4:\d+ {2}unreachable-route {2}POST/, before);
    assert.match(before, /L5:\d+-5:\d+ {2}backreference-out-of-range {2}POST/, before);
    assert.match(before, /L7:\d+-7:\d+ {2}unreachable-route {2}ALL/, before);
    assert.equal(formatFindings(original, analyzeRouteFile(original, document.update(original))), before);
    const after = formatFindings(edited, analyzeRouteFile(edited, document.update(edited)));
    assert.equal(after, fresh(edited));
    assert.match(after, /L6:\d+-6:\d+ {2}unreachable-route {2}POST/, after);
    assert.match(after, /L7:\d+-7:\d+ {2}backreference-out-of-range {2}POST/, after);
    assert.match(after, /L9:\d+-9:\d+ {2}unreachable-route {2}ALL/, after);
    // And back: the edit undone.
    assert.equal(formatFindings(original, analyzeRouteFile(original, document.update(original))), before);
  });
});

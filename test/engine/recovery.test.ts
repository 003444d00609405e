import * as assert from 'node:assert/strict';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { keyToString } from '../../shared/runtime/values';
import { ALL_METHODS, REQUEST_METHODS } from '../../shared/runtime/methods';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';

const keys = (text: string, recover: boolean, m = 0) => [...(evaluateRouteFile(text, { recover }).methods[m].routes?.keys() ?? [])].map(keyToString);

const FILE = `<?php
Route::get('feed', 'blog/feed', ['as' => 'feed']);
Route::prefix('api', function () {
    Route::get('users', 'api/users');
    throw new RuntimeException('not yet');
});
Route::get('home', 'pages/home');
$route = Route::map($route);
Route::resource('orders');
$route['late'] = 'late/index';
`;

describe('recovery past fatal errors (what an editor shows)', () => {
  it('without recover, the evaluation stops where PHP does and holds the error', () => {
    const ev = evaluateRouteFile(FILE);
    assert.equal(ev.methods[0].error?.class, 'RuntimeException');
    assert.deepEqual(ev.fatals, []);
  });

  it('with recover, it goes on as if each failing statement were skipped, and lists every error in order', () => {
    const ev = evaluateRouteFile(FILE, { recover: true });
    for (const m of ev.methods) assert.equal(m.error, null);
    assert.deepEqual(ev.fatals.map((f) => [f.class, f.message, f.mask]), [
      ['RuntimeException', 'not yet', ALL_METHODS],
      ['Error', 'Call to undefined method Route::resource()', ALL_METHODS],
    ]);
    // The prefix the failed callback left set in PHP is not carried on: 'home', not 'api/home'.
    assert.deepEqual(keys(FILE, true), ['feed', 'api/users', 'home', 'late']);
  });

  it('a statement failing under some methods only is skipped under those only', () => {
    const text = `<?php
if ($_SERVER['REQUEST_METHOD'] === 'POST') { $x = intdiv(1, 0); }
Route::get('a', 'b');
$route = Route::map($route);
`;
    const ev = evaluateRouteFile(text, { recover: true });
    assert.deepEqual(ev.fatals.map((f) => [f.class, f.mask]), [['DivisionByZeroError', 1 << REQUEST_METHODS.indexOf('POST')]]);
    assert.deepEqual(keys(text, true, REQUEST_METHODS.indexOf('GET')), ['a']);
  });

  it('findings past an error say that PHP never gets there; those before it do not', () => {
    const text = `<?php
Route::any('(:any)', 'pages/show/$1');
Route::get('before', 'x/y');
$route = Route::map($route);
Route::resource('orders');
$route['after'] = 'x/z';
`;
    const findings = analyzeRouteFile(text, evaluateRouteFile(text, { recover: true }));
    const unreachable = findings.filter((f) => f.code === 'unreachable-route');
    assert.equal(unreachable.length, 2);
    assert.doesNotMatch(unreachable[0].message, /never gets here/);
    assert.match(unreachable[1].message, /PHP never gets here: it stops at line 5/);
    assert.ok(unreachable[1].related.some((r) => /stops here first/.test(r.message)));
  });

  it('an undefined method reached by several methods evaluated one at a time concerns them all', () => {
    const text = "<?php\nif ($_SERVER['REQUEST_METHOD'] === 'OPTIONS') exit(0);\nRoute::resource('orders');\n";
    const [f] = analyzeRouteFile(text, evaluateRouteFile(text, { recover: true })).filter((x) => x.code === 'undefined-route-method');
    assert.deepEqual(f.methods, REQUEST_METHODS.filter((m) => m !== 'OPTIONS'));
  });

  it('an editor evaluating version after version recovers alike (checkpoints keep the errors)', () => {
    const evaluator = new DocumentEvaluator();
    evaluator.configure({ recover: true });
    const lines = Array.from({ length: 60 }, (_, i) => `Route::get('r${i}', 'c/m${i}');`);
    lines.splice(30, 0, 'Route::resource("x");');
    const v1 = `<?php\n${lines.join('\n')}\n$route = Route::map($route);\n`;
    evaluator.update(v1);
    const v2 = v1.replace("'r50'", "'s50'");
    const ev = evaluator.update(v2);
    const fresh = evaluateRouteFile(v2, { recover: true });
    assert.deepEqual(ev.fatals.map((f) => [f.message, f.span.start]), fresh.fatals.map((f) => [f.message, f.span.start]));
    assert.deepEqual([...(ev.methods[0].routes?.keys() ?? [])], [...(fresh.methods[0].routes?.keys() ?? [])]);
  });
});

import * as assert from 'node:assert/strict';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { formatFindings } from './fixture-format';
import { tableView } from '../../shared/analysis/model/table-view';
import type { FileEvaluation } from '../../shared/evaluate/evaluate-file';
import { DecisionMemo } from '../../shared/analysis/diagnostics/checks/coverage-walk';
import { checkState } from '../../shared/analysis/diagnostics/checks/document-state';

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

  it('shares the view of a table whose routes are the same records in the same order, and reads a changed one again', () => {
    const GET = 0;
    const POST = 1;
    const text = `<?php
Route::get('a', 'x/a');
Route::post('b', 'x/b');
Route::post('c', 'x/c');
$route['d'] = 'x/d';
$route = Route::map($route);
`;
    const views = (e: FileEvaluation) => e.methods.map((m) => tableView(e, m.routes!));
    const plain = (e: FileEvaluation, m: number) => {
      const v = tableView(e, e.methods[m].routes!);
      return { keys: [...v.keys], values: [...v.values] };
    };
    const document = new DocumentEvaluator();
    const first = views(document.update(text));
    // Same length: nothing moves. GET's route changes; POST's routes and $route's entry do not.
    const getEdited = text.replace("'x/a'", "'x/A'");
    const second = document.update(getEdited);
    assert.equal(views(second)[POST], first[POST]);
    assert.notEqual(views(second)[GET], first[GET]);
    assert.deepEqual(plain(second, GET), plain(evaluateRouteFile(getEdited), GET));
    // POST's two routes swapped: the same keys, in another order, in a view of their own.
    const swapped = getEdited.replace("Route::post('b', 'x/b');\nRoute::post('c', 'x/c');", "Route::post('c', 'x/c');\nRoute::post('b', 'x/b');");
    assert.notEqual(swapped, getEdited);
    const third = document.update(swapped);
    assert.notEqual(views(third)[POST], views(second)[POST]);
    assert.deepEqual(plain(third, POST), plain(evaluateRouteFile(swapped), POST));
    // An entry of $route changed: every method's view is read again.
    const assigned = swapped.replace("'x/d'", "'x/D'");
    const fourth = document.update(assigned);
    assert.notEqual(views(fourth)[POST], views(third)[POST]);
    assert.deepEqual(plain(fourth, POST), plain(evaluateRouteFile(assigned), POST));
  });

  it('decides once for the methods whose tables hold the same routes, apart from verb arrays', () => {
    const decisions = (text: string): number[] => {
      const evaluation = new DocumentEvaluator().update(text);
      assert.equal(formatFindings(text, analyzeRouteFile(text, evaluation)), fresh(text));
      const tables = checkState(evaluation).reachability?.previous ?? [];
      // Which method's decisions each method has (the first with the same object).
      return tables.map((t) => tables.indexOf(t));
    };
    const text = `<?php
Route::any('(:any)', 'x/any');
Route::any('b', 'x/b');
$route['c'] = 'x/c';
$route = Route::map($route);
`;
    assert.deepEqual(decisions(text), [0, 0, 0, 0, 0, 0, 0, 0]);
    // A GET route: GET's table is its own, the seven others one.
    assert.deepEqual(decisions(text.replace("$route['c']", "Route::get('g', 'x/g');\n$route['c']")), [0, 1, 1, 1, 1, 1, 1, 1]);
    // A verb array: which entry a method reads depends on the method.
    assert.deepEqual(decisions(text.replace("$route['c'] = 'x/c';", "$route['c'] = array('GET' => 'x/c', 'POST' => 'x/d');")), [0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('decides only what the first edit after opening changed, however many routes the opening decided', () => {
    // 10,400 routes, each decided once (other keys under each method): the opening stores over 10,000 decisions.
    const verbs = ['get', 'post', 'put', 'delete'];
    const routes = Array.from({ length: 10_400 }, (_, i) => `Route::${verbs[i % 4]}('page${i}/(:num)', 'pages/show/${i}');`);
    const text = `<?php\n${routes.join('\n')}\n$route = Route::map($route);\n`;
    const document = new DocumentEvaluator();
    const rotate = DecisionMemo.prototype.rotate;
    let walks = 0;
    DecisionMemo.prototype.rotate = function (this: DecisionMemo) {
      walks++;
      rotate.call(this);
    };
    try {
      analyzeRouteFile(text, document.update(text));
      assert.equal(walks, 1, 'the opening decides every route');
      const edited = text.replace("'page8000/(:num)'", "'pagex8000/(:num)'");
      const findings = analyzeRouteFile(edited, document.update(edited));
      assert.equal(walks, 1, 'the edit decides what it changed');
      assert.deepEqual(findings, analyzeRouteFile(edited, evaluateRouteFile(edited)));
    } finally {
      DecisionMemo.prototype.rotate = rotate;
    }
  });
});

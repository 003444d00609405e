import * as assert from 'node:assert/strict';
import { evaluateRouteFile, type FileEvaluation } from '../../shared/evaluate/evaluate-file';

/** Each method's records as the objects they are: `[[0, 1], [0, 1], …]` numbers the distinct records in order of appearance. */
function recordNumbers(evaluation: FileEvaluation): number[][] {
  const seen: object[] = [];
  return evaluation.methods.map((m) =>
    m.library.created.map((r) => {
      if (!seen.includes(r)) seen.push(r);
      return seen.indexOf(r);
    }),
  );
}

describe('a route one call declares under several methods is one record in each table', () => {
  it('shares the records of any(), context() and block() between the methods', () => {
    const e = evaluateRouteFile("<?php\nRoute::any('a', 'x/a');\nRoute::block('b', 'c');\nRoute::get('d', 'x/d');\n");
    assert.deepEqual(recordNumbers(e), [[0, 1, 2, 3], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2]]);
    const context = evaluateRouteFile("<?php\nRoute::context('admin', array('home' => 'admin/home'));\n");
    assert.deepEqual(new Set(recordNumbers(context).map((list) => list.join(','))), new Set(['0,1,2,3,4,5,6']));
  });

  it('makes new records each time a call runs again, and the second replaces the first under every method', () => {
    const e = evaluateRouteFile("<?php\nforeach (array('a', 'a') as $k) {\n    Route::any($k, 'x/' . $k);\n}\n");
    assert.deepEqual(recordNumbers(e), Array(8).fill([0, 1]));
    for (const m of e.methods) assert.deepEqual(m.library.replaced.map((r) => m.library.created.indexOf(r)), [0]);
  });

  it('never gives a method a record that stores what another method stores', () => {
    const e = evaluateRouteFile("<?php\n$to = $_SERVER['REQUEST_METHOD'] === 'GET' ? 'x/get' : 'x/other';\nRoute::any('a', $to);\n");
    const [get, ...others] = e.methods.map((m) => m.library.created[0]);
    assert.equal(get.to, 'x/get');
    for (const r of others) {
      assert.equal(r.to, 'x/other');
      assert.notEqual(r, get);
    }
  });
});

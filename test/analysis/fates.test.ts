import * as assert from 'node:assert/strict';
import { ProducedIndex, uniqueCalls } from '../../shared/analysis/declarations';
import { producedBy } from '../../shared/analysis/produced';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS } from '../../shared/library/methods';

/** Hovers (producedBy) and the outline and lenses (ProducedIndex) tell one story about each route. */
describe('fates of declared routes', () => {
  const fates = (text: string) => {
    const evaluation = evaluateRouteFile(text);
    return uniqueCalls(evaluation).map((call) => {
      const hover = producedBy(evaluation, call.site, false).map((r) => r.fate.kind);
      const outline = ProducedIndex.of(evaluation)
        .of(call.site, false)
        .filter((e) => e.m === 0)
        .map((e) => e.fate.kind);
      return { call: call.site.method, hover, outline };
    });
  };

  it('are the same for hovers and the outline, a fatal error included', () => {
    const text = [
      '<?php',
      "Route::get('a', 'x/a');",
      "Route::get('a', 'x/b');",
      '$route = Route::map($route);',
      "Route::get('late', 'x/late');",
      'Route::nope();',
      '',
    ].join('\n');
    assert.equal(REQUEST_METHODS[0], 'GET');
    const got = fates(text).filter((f) => f.call === 'get');
    assert.deepEqual(got, [
      { call: 'get', hover: ['replaced'], outline: ['replaced'] },
      { call: 'get', hover: ['active'], outline: ['active'] },
      { call: 'get', hover: ['error'], outline: ['error'] },
    ]);
  });

  it('say which routes a file without errors left unmapped or overwrote', () => {
    const text = ['<?php', "Route::get('a', 'x/a');", '$route = Route::map($route);', "$route['a'] = 'override';", "Route::get('late', 'x/late');", ''].join('\n');
    const got = fates(text).filter((f) => f.call === 'get');
    assert.deepEqual(got, [
      { call: 'get', hover: ['overwritten'], outline: ['overwritten'] },
      { call: 'get', hover: ['not-mapped'], outline: ['not-mapped'] },
    ]);
  });
});

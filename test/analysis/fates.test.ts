import * as assert from 'node:assert/strict';
import { uniqueCalls } from '../../shared/analysis/model/declarations';
import { ProducedIndex, producedBy } from '../../shared/analysis/model/produced';
import { hoverAt } from '../../shared/analysis/features/hover';
import { declarationLenses } from '../../shared/analysis/features/code-lens';
import { documentSymbols } from '../../shared/analysis/features/symbols';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS } from '../../shared/runtime/methods';

/** Hovers (producedBy) and the outline and lenses (ProducedIndex) tell one story about each route. */
describe('fates of declared routes', () => {
  const fates = (text: string) => {
    const evaluation = evaluateRouteFile(text);
    return uniqueCalls(evaluation).map((call) => {
      const hover = producedBy(evaluation, evaluation.places.site(call.site), false).map((r) => r.fate.kind);
      const outline = ProducedIndex.of(evaluation)
        .of(evaluation.places.site(call.site), false)
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

  it('call unknown what the analysis could not follow to map(): it stopped at a limit on the way', () => {
    const text = ['<?php', "Route::get('a', 'x/a');", 'for ($i = 0; $i < 1000000; $i++) {}', "Route::get('late', 'x/late');", '$route = Route::map($route);', ''].join('\n');
    assert.deepEqual(
      fates(text).filter((f) => f.call === 'get'),
      [{ call: 'get', hover: ['unknown'], outline: ['unknown'] }],
    );
    const evaluation = evaluateRouteFile(text);
    const hover = hoverAt(text, evaluation, text.indexOf("get('a'"));
    assert.match(hover!.markdown, /\| GET \| `a` \| `x\/a` \|  \| not known: the analysis stopped at line 3 \(see the diagnostic there\) \|/);
    assert.deepEqual(declarationLenses(text, evaluation).map((l) => l.title), ['0 routes · 1 unknown (analysis stopped)']);
    // With the budget it needs, map() is reached.
    const whole = evaluateRouteFile(text, { maxSteps: 10_000_000 });
    assert.deepEqual(declarationLenses(text, whole).map((l) => l.title), ['1 route · GET', '1 route · GET']);
  });

  it('show a route whose path is not known the same way in hovers and the outline', () => {
    const text = "<?php\nRoute::get(config_item('x'), 'a/b');\n$route = Route::map($route);\n";
    const evaluation = evaluateRouteFile(text);
    const hover = hoverAt(text, evaluation, text.indexOf('get'));
    assert.match(hover!.markdown, /\| GET \| `‹dynamic›` \| `a\/b` \|  \|  \|$/);
    assert.deepEqual(documentSymbols(text, evaluation)[0].children.map((c) => c.name), ['GET ‹dynamic› → a/b']);
  });
});

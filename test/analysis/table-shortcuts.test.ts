import * as assert from 'node:assert/strict';
import { afterMap } from '../../shared/analysis/diagnostics/checks/after-map';
import { Describer } from '../../shared/analysis/model/origins';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { displacedRoutes } from '../../shared/library/mapped-routes';

/**
 * Checks that read only the routes map()'s view says were written over must find what a walk of
 * every route finds: each text is checked as evaluated (`$route` a view) and again after every
 * method's `$route` took its own copy (the walk).
 */
describe("checks that trust map()'s view", () => {
  const texts = {
    'a write over a route after map()': `<?php
Route::get('photos', 'photos/index');
Route::post('photos', 'photos/create');
$route = Route::map($route);
$route['photos'] = 'gallery/index';
$route['translate_uri_dashes'] = FALSE;
`,
    'a route declared after map()': `<?php
Route::get('a', 'x/a');
$route = Route::map($route);
Route::get('late', 'x/late');
`,
    "map()'s result not assigned to $route": `<?php
$route['default_controller'] = 'home';
Route::any('a', 'x/a');
$mapped = Route::map($route);
`,
    'no map() at all': `<?php
Route::any('a', 'x/a');
`,
    'map() twice, the second view kept': `<?php
Route::get('a', 'x/a');
$first = Route::map($route);
$route = Route::map($route);
$route['a'] = 'y/a';
`,
  };

  for (const [name, text] of Object.entries(texts)) {
    it(`routes-after-map and missing-map: ${name}`, () => {
      const evaluation = evaluateRouteFile(text);
      const ctx = { text, evaluation, describe: Describer.of(text) };
      const viaView = afterMap(ctx);
      for (const result of evaluation.methods) result.routes?.settle();
      assert.ok(evaluation.methods.every((r) => displacedRoutes(r.routes, r.library.routes) === undefined), 'settled: no view left');
      assert.deepEqual(viaView, afterMap(ctx));
    });
  }

  it("names the routes written over since map(), and nothing once $route has its own copy", () => {
    const evaluation = evaluateRouteFile(texts['a write over a route after map()']);
    const [get, post] = evaluation.methods;
    assert.deepEqual(displacedRoutes(get.routes, get.library.routes), ['photos']);
    assert.deepEqual(displacedRoutes(post.routes, post.library.routes), ['photos']);
    assert.equal(displacedRoutes(get.routes, post.library.routes), undefined, "another method's table");
    const late = evaluateRouteFile(texts['a route declared after map()']);
    assert.equal(displacedRoutes(late.methods[0].routes, late.methods[0].library.routes), undefined, 'the table changed after map(): the view took its own copy');
  });
});

import * as assert from 'node:assert/strict';
import { routeMisses, whyPatternMisses } from '../../shared/analysis/model/route-misses';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { methodIndex } from '../../shared/runtime/methods';

/** Why the other routes of a table did not take a request (Test URL's "why not" list). */
describe('routes that did not match a request', () => {
  const evaluation = evaluateRouteFile(`<?php
$route['default_controller'] = 'home';
$route['photos/(:num)'] = 'photos/show/$1';
$route['photos/new'] = 'photos/create_new';
$route['photos/([a-z]+)/edit'] = 'photos/edit/$1';
$route['photos/([a-z]+)'] = 'photos/by_name/$1';
$route['photos/(:any)'] = array('put' => 'photos/update/$1');
$route['videos/(:num)'] = 'videos/show/$1';
$route['(:any)'] = 'pages/show/$1';
`);
  const GET = methodIndex('GET')!;

  it('names the routes that match too, then the near misses, and counts what CodeIgniter tried', () => {
    const { misses, tried, more } = routeMisses(evaluation, GET, 'photos/new', 'photos/new');
    assert.equal(more, 0);
    // Before photos/new: photos/(:num) (and nothing else). After it: the routes matching too.
    assert.equal(tried, 1);
    assert.deepEqual(
      misses.map((m) => [m.kind, m.key, m.reason]),
      [
        ['later', 'photos/([a-z]+)', "it matches too, but 'photos/new' comes first in the table (the first match wins)"],
        ['later', 'photos/(:any)', "it matches too, but 'photos/new' comes first in the table (the first match wins)"],
        ['pattern', 'photos/(:num)', "segment 2: 'new' is not a number ((:num))"],
      ],
    );
    assert.ok(misses.every((m) => m.span !== undefined), 'each miss has its declaration');
  });

  it('says which methods a route is declared for when the request method has none', () => {
    const file = evaluateRouteFile(`<?php\nRoute::post('login', 'users/login');\nRoute::put('login', 'users/login');\nRoute::get('login/(:num)', 'users/login/$1');\n$route = Route::map($route);\n`);
    const get = routeMisses(file, GET, 'login', null);
    assert.deepEqual(
      get.misses.map((m) => [m.kind, m.key, m.methods, m.reason]),
      [
        ['method', 'login', ['POST'], 'it is declared for POST only: a GET request never sees it'],
        ['method', 'login', ['PUT'], 'it is declared for PUT only: a GET request never sees it'],
        ['pattern', 'login/(:num)', undefined, 'the URI has 1 segment, the route 2'],
      ],
    );
    assert.equal(get.tried, 1);
    // A key the method's own table holds is judged there, not as another method's.
    const put = routeMisses(file, methodIndex('PUT')!, 'login', 'login');
    assert.deepEqual(put.misses, []);
  });

  it('says a route before the match was skipped for its verb array', () => {
    const { misses } = routeMisses(evaluation, GET, 'photos/12x', null);
    assert.deepEqual(misses.filter((m) => m.kind === 'verbs').map((m) => [m.key, m.reason]), [['photos/(:any)', 'its target has no entry for GET: CodeIgniter skips it']]);
  });

  it('tries every route when none matches, and leaves out routes of other first segments', () => {
    const { misses, tried } = routeMisses(evaluation, GET, 'videos/abc/1', null);
    assert.equal(tried, 7);
    assert.deepEqual(
      misses.map((m) => [m.key, m.reason]),
      [
        ['videos/(:num)', "segment 2: 'abc' is not a number ((:num))"],
        ['(:any)', 'the URI has 3 segments, the route 1'],
      ],
    );
  });

  it('explains a pattern segment by segment where it can', () => {
    assert.equal(whyPatternMisses('photos/(:num)', 'photos'), 'the URI has 1 segment, the route 2');
    assert.equal(whyPatternMisses('Photos/(:num)', 'photos/1'), "segment 1: 'photos' is not 'Photos' (routes are case-sensitive)");
    assert.equal(whyPatternMisses('photos/([a-z]+)/edit', 'photos/12/edit'), "its pattern #^photos/([a-z]+)/edit$# does not match 'photos/12/edit'");
  });

  it('cuts the list at the limit and says how many more', () => {
    const many = evaluateRouteFile(`<?php\n${Array.from({ length: 30 }, (_, i) => `$route['a/x${i}'] = 'c/m';`).join('\n')}\n`);
    const { misses, more, tried } = routeMisses(many, GET, 'a/b', null, 20);
    assert.equal(misses.length, 20);
    assert.equal(more, 10);
    assert.equal(tried, 30);
  });
});

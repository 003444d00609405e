import * as assert from 'node:assert/strict';
import { controllerLenses, controllerLensTitle, controllerReach, declarationLenses, type ReachingRoute } from '../../shared/analysis/features/code-lens';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { FileListTree } from '../../shared/router/app-tree';
import { indexPhpFile } from '../../shared/workspace/php-index';
import { withCursor } from './cursor-marker';

function titles(text: string): [string, string][] {
  return declarationLenses(text, evaluateRouteFile(text)).map((l) => [text.slice(l.span.start, l.span.end).split('\n')[0].replace(/;$/, ''), l.title]);
}

describe('declarationLenses', () => {
  it('counts distinct (key, target) routes once, with the methods that have one', () => {
    assert.deepEqual(
      titles(`<?php
Route::resources('photos');
Route::any('about', 'pages/about');
Route::get('feed', 'feed/index');
Route::context('admin', array('home' => 'dashboard'));
Route::block('secret');
$x = Route::named('about');
$route = Route::map($route);
`),
      [
        ["Route::resources('photos')", '7 routes · GET POST PUT DELETE'],
        ["Route::any('about', 'pages/about')", '1 route · ANY'],
        ["Route::get('feed', 'feed/index')", '1 route · GET'],
        ["Route::context('admin', array('home' => 'dashboard'))", '7 routes · ANY'],
        ["Route::block('secret')", '1 route · ANY'],
      ],
    );
  });

  it('says why a declaration produces nothing or less', () => {
    assert.deepEqual(
      titles(`<?php
Route::resources('photos');
Route::get('photos', 'gallery/index');
Route::post('a', 'x/y');
Route::post('a', 'x/z');
$route = Route::map($route);
Route::any('late', 'a/b');
`),
      [
        ["Route::resources('photos')", '6 routes · GET POST PUT DELETE · 1 replaced'],
        ["Route::get('photos', 'gallery/index')", '1 route · GET'],
        ["Route::post('a', 'x/y')", '0 routes · 1 replaced'],
        ["Route::post('a', 'x/z')", '1 route · POST'],
        ["Route::any('late', 'a/b')", '0 routes · 1 lost after map()'],
      ],
    );
    assert.deepEqual(titles(`<?php\nRoute::any('a', 'b/c');\n`), [["Route::any('a', 'b/c')", '0 routes · 1 not mapped']]);
    assert.deepEqual(titles(`<?php\nRoute::any('a', 'b/c');\nRoute::reset();\n$route = Route::map($route);\n`), [["Route::any('a', 'b/c')", '0 routes · 1 reset']]);
    assert.deepEqual(titles(`<?php\nRoute::any('a', 'b/c');\nRoute::map($route);\n`), [["Route::any('a', 'b/c')", '0 routes · 1 not in $route']]);
    assert.deepEqual(titles(`<?php\nRoute::any('a', 'b/c');\nRoute::prefix('p', 'no closure');\n$route = Route::map($route);\n`), [
      ["Route::any('a', 'b/c')", '0 routes · 1 lost to an error'],
      ["Route::prefix('p', 'no closure')", '0 routes'],
    ]);
  });

  it('counts a prefix() closure for prefix(), and the routes of each call inside for that call', () => {
    assert.deepEqual(
      titles(`<?php
Route::prefix('api', function () {
    Route::get('a', 'x/a');
    Route::put('a', 'x/put');
});
$route = Route::map($route);
`),
      [
        ["Route::prefix('api', function () {", '2 routes · GET PUT'],
        ["Route::get('a', 'x/a')", '1 route · GET'],
        ["Route::put('a', 'x/put')", '1 route · PUT'],
      ],
    );
  });

  it('does not throw on broken files', () => {
    for (const text of ['<?php Route::any(', '<?php Route::prefix("a", 5);', '<?php Route::resource("x");', '<?php while (true) {}', '']) {
      assert.doesNotThrow(() => declarationLenses(text, evaluateRouteFile(text, { maxSteps: 10_000 })), text);
    }
  });
});

describe('controllerLenses', () => {
  const photosController = `<?php
class Photos extends CI_Controller {
    public function index() {}
    public function show($id) {}
    public function Update($id) {}
    public function view_large($id) {}
    protected function helper() {}
    public function _private() {}
}
`;
  const tree = new FileListTree(['controllers/Photos.php', 'controllers/Pages.php', 'modules/gallery/controllers/Albums.php']);

  function lenses(routes: string, controller = photosController, file = 'controllers/Photos.php', appTree = tree) {
    return controllerLenses(file, indexPhpFile(controller), [evaluateRouteFile(routes)], appTree);
  }

  it('lists the routes reaching each public method, on its name', () => {
    const out = lenses(`<?php
Route::resources('photos');
Route::get('pics/(:num)', 'photos/show/$1');
$route['legacy/(:num)'] = array('PUT' => 'photos/update/$1');
$route = Route::map($route);
`);
    assert.deepEqual(
      out.map((l) => [l.methodName, l.title]),
      [
        ['index', '1 route: GET photos'],
        ['show', '2 routes: GET photos/([a-zA-Z0-9\\-_]+), GET pics/(:num)'],
        // $route entries come first: map() adds the library's routes after them.
        ['Update', '2 routes: PUT legacy/(:num), PUT photos/([a-zA-Z0-9\\-_]+)'],
        ['view_large', '0 routes'],
      ],
    );
    const { text, offset } = withCursor(photosController.replace('function show', 'function |show'));
    assert.equal(text, photosController);
    assert.equal(out[1].span.start, offset);
    assert.equal(photosController.slice(out[1].span.start, out[1].span.end), 'show');
    assert.deepEqual(out[1].routes[1], { fileIndex: 0, key: 'pics/(:num)', target: 'photos/show/$1', methods: ['GET'], span: out[1].routes[1].span, certain: true });
  });

  it('counts a back-reference in the method segment as "may reach", only for the methods it can name', () => {
    const out = lenses(`<?php
Route::any('p/(:any)', 'photos/$1');
Route::any('big/(:any)', 'photos/view_$1');
Route::any('(:any)/(:any)', '$1/$2');
Route::any('x/(:any)', 'pho$1/index');
$route = Route::map($route);
`);
    assert.deepEqual(
      out.map((l) => [l.methodName, l.title]),
      [
        ['index', '0 routes · 1 may reach: ANY p/(:any)'],
        ['show', '0 routes · 1 may reach: ANY p/(:any)'],
        ['Update', '0 routes · 1 may reach: ANY p/(:any)'],
        ['view_large', '0 routes · 2 may reach: ANY p/(:any), ANY big/(:any)'],
      ],
    );
  });

  it('resolves HMVC module targets and ignores controllers of other files', () => {
    const albums = `<?php class Albums extends MX_Controller { public function show($id) {} }`;
    const routes = `<?php
Route::get('albums/(:num)', 'gallery/albums/show/$1');
Route::get('photos/(:num)', 'photos/show/$1');
$route = Route::map($route);
`;
    assert.deepEqual(
      lenses(routes, albums, 'modules/gallery/controllers/Albums.php').map((l) => l.title),
      ['1 route: GET albums/(:num)'],
    );
  });

  it('merges methods of one route, reads several route files and truncates long lists', () => {
    const a = `<?php
Route::get('a1', 'photos/index');
Route::head('a1', 'photos/index');
Route::get('a2', 'photos/index');
Route::get('a3', 'photos/index');
$route = Route::map($route);
`;
    const b = `<?php $route['b1'] = 'photos/index'; $route['b2'] = 'photos';`;
    const out = controllerLenses('controllers/Photos.php', indexPhpFile(photosController), [evaluateRouteFile(a), evaluateRouteFile(b)], tree);
    assert.equal(out[0].title, '5 routes: GET|HEAD a1, GET a2, GET a3, +2 more');
    assert.deepEqual(out[0].routes.map((r) => [r.fileIndex, r.key]), [[0, 'a1'], [0, 'a2'], [0, 'a3'], [1, 'b1'], [1, 'b2']]);
    // A reach computed once serves every controller.
    const reach = controllerReach([evaluateRouteFile(a), evaluateRouteFile(b)], tree);
    assert.equal(controllerLenses('controllers/Photos.php', indexPhpFile(photosController), [], tree, reach)[0].routes.length, 5);
  });

  it('applies translate_uri_dashes and takes the class named like the file', () => {
    const dashed = new FileListTree(['controllers/My_photos.php']);
    const controller = `<?php class Helper {} class My_photos extends CI_Controller { public function show_all() {} }`;
    const routes = `<?php $route['all'] = 'my-photos/show_all'; $route['translate_uri_dashes'] = TRUE;`;
    assert.deepEqual(
      controllerLenses('controllers/My_photos.php', indexPhpFile(controller), [evaluateRouteFile(routes)], dashed).map((l) => [l.methodName, l.title]),
      [['show_all', '1 route: ANY all']],
    );
  });

  it('titles: singular, plural, shortened keys', () => {
    const r = (key: string, certain = true): ReachingRoute => ({ fileIndex: 0, key, target: 't', methods: ['GET'], certain });
    assert.equal(controllerLensTitle([]), '0 routes');
    assert.equal(controllerLensTitle([r('a')]), '1 route: GET a');
    assert.equal(controllerLensTitle([r('a'), r('b', false)]), '1 route: GET a · 1 may reach: GET b');
    assert.equal(controllerLensTitle([r('x'.repeat(60))]), `1 route: GET ${'x'.repeat(39)}…`);
  });

  it('never throws on odd input', () => {
    const broken = indexPhpFile('<?php class Photos { public function show( {');
    assert.doesNotThrow(() => controllerLenses('controllers/Photos.php', broken, [evaluateRouteFile('<?php Route::any($x, $y);')], tree));
    assert.deepEqual(controllerLenses('controllers/Photos.php', { controllers: [], namedUsages: [], recovered: true }, [], tree), []);
  });
});

import * as assert from 'node:assert/strict';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import type { RouteFileRouting } from '../../shared/analysis/model/target-scope';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { LineIndex } from '../../shared/php/line-index';
import { FileListTree } from '../../shared/router/app-tree';
import { createControllerCatalog } from '../../shared/workspace/controller-catalog';

/** `line code` of each finding of a route file analysed as `routing` reads it. */
function findings(lines: string[], routing: RouteFileRouting, main?: string[]): string[] {
  const text = ['<?php', ...lines, ''].join('\n');
  const index = new LineIndex(text);
  const mainText = main && ['<?php', ...main, ''].join('\n');
  const mainRoutes = mainText === undefined ? undefined : { text: mainText, evaluation: evaluateRouteFile(mainText) };
  return analyzeRouteFile(text, evaluateRouteFile(text), { routing, mainRoutes }).map((f) => `${index.lineOf(f.span.start) + 1} ${f.code}${f.code === 'unreachable-route' && /main routes/.test(f.message) ? ' (main)' : ''}`);
}

const SHOP: RouteFileRouting = { flavour: 'mx', module: 'shop' };

describe("diagnostics of a module's routes file, as the HMVC routers read it", () => {
  it("reads `:any` as Modules::parse_routes() does (`.+`, across segments) when it compares the module's routes", () => {
    // shop/(:any) takes every URI shop/(:any)/list would: the second is never reached.
    assert.deepEqual(findings(["$route['shop/(:any)'] = 'cart/$1';", "$route['shop/(:any)/list'] = 'cart/list/$1';"], SHOP), ['3 unreachable-route']);
    // One segment does not take two: shop/(:any) still reaches shop/a/b.
    assert.deepEqual(findings(["$route['shop/([^/]+)'] = 'cart/$1';", "$route['shop/(:any)'] = 'cart/all/$1';"], SHOP), []);
    // The main routes file reads `:any` as one segment: there both are reached.
    assert.deepEqual(findings(["$route['shop/(:any)'] = 'cart/$1';", "$route['shop/(:any)/list'] = 'cart/list/$1';"], { flavour: 'mx' }), []);
  });

  it("reports keys that no URI of the module matches, under either HMVC router, not under CodeIgniter's own", () => {
    const lines = ["$route['basket'] = 'cart';", "$route['shop/basket'] = 'cart';"];
    assert.deepEqual(findings(lines, SHOP), ['2 unreachable-route']);
    assert.deepEqual(findings(lines, { flavour: 'bonfire', module: 'shop' }), ['2 unreachable-route']);
    assert.deepEqual(findings(lines, { flavour: 'ci', module: 'shop' }), []);
  });

  it("takes `default_controller` in a module's routes file for an ordinary key, never consulted: no claim about the home page", () => {
    const module = ['<?php', "$route['default_controller'] = 'home';", ''].join('\n');
    const controllers = createControllerCatalog(new FileListTree(['controllers/Welcome.php', 'modules/shop/controllers/Cart.php']), () => '<?php class X extends MX_Controller { public function index() {} }');
    const analysed = analyzeRouteFile(module, evaluateRouteFile(module), { routing: SHOP, controllers });
    assert.deepEqual(analysed.map((f) => f.code), []);
  });

  it('says what a missing 404_override controller answers: its own 404 page, not "404 for \'404_override\'"', () => {
    const text = ['<?php', "$route['404_override'] = 'custom404';", ''].join('\n');
    const controllers = createControllerCatalog(new FileListTree(['controllers/Welcome.php']), () => '<?php class Welcome extends CI_Controller { public function index() {} }');
    const [f] = analyzeRouteFile(text, evaluateRouteFile(text), { routing: { flavour: 'ci' }, controllers });
    assert.match(String(f?.message), /CodeIgniter answers 404 for the requests 404_override should serve \(its own 404 page\)\.$/);
  });

  it("reports a key that needs a dash in the URI's first three segments when the main routes translate dashes (Modular Extensions)", () => {
    const module = ["$route['shop/my-cart'] = 'cart';", "$route['shop/cart/by-date'] = 'cart/dated';", "$route['shop/a/b/by-date'] = 'cart/deep';", "$route['shop/([a-z-]+)/x'] = 'cart/x';", "$route['shop/my_cart'] = 'cart';"];
    const main = (translate: string) => ["$route['default_controller'] = 'home';", `$route['translate_uri_dashes'] = ${translate};`];
    // Lines 2 and 3 only: the fourth segment keeps its dash, a class may match without one, and '_' is what arrives.
    const dashed = (f: string[]) => f.filter((x) => x.endsWith('unreachable-route'));
    assert.deepEqual(dashed(findings(module, SHOP, main('TRUE'))), ['2 unreachable-route', '3 unreachable-route']);
    assert.deepEqual(dashed(findings(module, SHOP, main('FALSE'))), []);
    // Bonfire's router is not known to translate before its module routes: nothing concluded.
    assert.deepEqual(dashed(findings(module, { flavour: 'bonfire', module: 'shop' }, main('TRUE'))), []);
  });

  it('takes the main routes first: a module key whose URIs a main route always takes, and sends elsewhere, is never reached', () => {
    const module = ["$route['shop'] = 'cart';", "$route['shop/(:num)'] = 'cart/show/$1';"];
    // CodeIgniter's (:any) is one segment: `shop` is taken by the main route, `shop/5` is not.
    const main = ["$route['default_controller'] = 'home';", "$route['(:any)'] = 'pages/view/$1';"];
    assert.deepEqual(findings(module, SHOP, main), ['2 unreachable-route (main)']);
    // A main target that is another URI of the module does not reach this key, nor one that makes only longer ones.
    assert.deepEqual(findings(module, SHOP, [...main, "$route['basket'] = 'shop/cart/index';"]), ['2 unreachable-route (main)']);
    assert.deepEqual(findings(module, SHOP, ["$route['(:any)'] = 'shop/items/$1';"]), ['2 unreachable-route (main)']);
    // One that makes URIs the key matches does.
    assert.deepEqual(findings(["$route['shop/items/(:any)'] = 'cart/$1';"], SHOP, ["$route['(.+)'] = 'shop/items/$1';"]), []);
    const text = ['<?php', ...module, ''].join('\n');
    const mainText = ['<?php', ...main, ''].join('\n');
    const [f] = analyzeRouteFile(text, evaluateRouteFile(text), { routing: SHOP, mainRoutes: { text: mainText, evaluation: evaluateRouteFile(mainText) } });
    assert.match(f!.message, /^'shop' is never reached: every URI of module shop it matches is matched first by the main routes file, by '\(:any\)' \(line 3\)/);
    // Without the main file, nothing is concluded.
    assert.deepEqual(findings(module, SHOP), []);
  });

  it('concludes nothing when a main route may send requests into the module', () => {
    const module = ["$route['shop'] = 'cart';"];
    // A target built from the URI, one into the module, the default controller or 404_override into it, a closure.
    for (const main of [
      ["$route['(:any)'] = '$1/index';"],
      // `basket` is sent to the URI `shop`, which the module's key matches.
      ["$route['basket'] = 'shop';", "$route['(:any)'] = 'pages/$1';"],
      // Dashes read as underscores: URIs are not read as written.
      ["$route['translate_uri_dashes'] = TRUE;", "$route['(:any)'] = 'pages/$1';"],
      ["$route['default_controller'] = 'shop';", "$route['(:any)'] = 'pages/$1';"],
      ["$route['404_override'] = 'Shop/missing';", "$route['(:any)'] = 'pages/$1';"],
      ["$route['(:any)'] = function ($x) { return 'pages/' . $x; };"],
    ]) {
      assert.deepEqual(findings(module, SHOP, main), [], main.join(' '));
    }
  });

  it('reads the main routes per request method', () => {
    const module = ["$route['shop'] = 'cart';"];
    const main = ["$route['(:any)']['post'] = 'pages/save/$1';"];
    const text = ['<?php', ...module, ''].join('\n');
    const mainText = ['<?php', ...main, ''].join('\n');
    const [f, more] = analyzeRouteFile(text, evaluateRouteFile(text), { routing: SHOP, mainRoutes: { text: mainText, evaluation: evaluateRouteFile(mainText) } });
    assert.equal(more, undefined);
    assert.deepEqual(f!.methods, ['POST']);
  });

  it("takes the keys of a module's routes file the main routes include as main routes: not never reached, their targets the main file's to judge", () => {
    const shopFile = '/app/application/modules/shop/config/routes.php';
    const module = ['<?php', "$route['login'] = 'welcome';", "$route['shop/list'] = 'nothing/here';", "$route['shop/cart'] = 'cart';", ''].join('\n');
    const mainText = ['<?php', "$route['shop/(:any)'] = 'pages/$1';", "require APPPATH . 'modules/shop/config/routes.php';", ''].join('\n');
    const includes = { read: (p: string) => (p === shopFile ? { file: shopFile, text: module } : { unreadable: 'no such file' }), glob: () => [] };
    const main = evaluateRouteFile(mainText, { file: '/app/application/config/routes.php', constants: new Map([['APPPATH', '/app/application/']]), includes });
    assert.deepEqual(main.included.map((f) => f.path), [shopFile]);
    const controllers = createControllerCatalog(new FileListTree(['modules/shop/controllers/Cart.php']), () => '<?php class Cart extends MX_Controller { public function index() {} }');
    const analysed = analyzeRouteFile(module, evaluateRouteFile(module), { routing: SHOP, mainRoutes: { text: mainText, evaluation: main }, controllers });
    // Every key is a main route, which takes its URIs first: no target is looked up module-relative
    // ('login' → 'welcome' is never read by the module's router; 'shop/list' → 'nothing/here' only for a main target matching it).
    const missing = (list: typeof analysed) => list.filter((f) => f.code === 'missing-controller').map((f) => module.slice(f.span.start, f.span.end));
    assert.deepEqual(missing(analysed), []);
    // 'login' is a main route (no "never reached"); 'shop/list' and 'shop/cart' are taken first by the main 'shop/(:any)', not by their own copies in it.
    assert.deepEqual(
      analysed.filter((f) => f.code === 'unreachable-route').map((f) => /^'([^']*)'.*by '([^']*)'/.exec(f.message)?.slice(1).join(' by ')),
      ['shop/list by shop/(:any)', 'shop/cart by shop/(:any)'],
    );
    // Not included: the module's router alone reads it, and 'login' is never consulted.
    const alone = analyzeRouteFile(module, evaluateRouteFile(module), { routing: SHOP, mainRoutes: { text: "<?php\n$route['shop/(:any)'] = 'pages/$1';\n", evaluation: evaluateRouteFile("<?php\n$route['shop/(:any)'] = 'pages/$1';\n") }, controllers });
    assert.ok(alone.some((f) => f.code === 'unreachable-route' && f.message.startsWith("'login' is never reached")));
    // 'login' is never consulted, so its target is never dispatched: only the "never reached" finding speaks of it.
    assert.ok(!missing(alone).includes("'welcome'") && missing(alone).includes("'nothing/here'"), JSON.stringify(missing(alone)));
  });
});

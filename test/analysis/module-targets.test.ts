import * as assert from 'node:assert/strict';
import { controllerLenses } from '../../shared/analysis/features/code-lens';
import { completeMore } from '../../shared/analysis/features/completion/completion-more';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { targetHover } from '../../shared/analysis/features/targets';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { FileListTree } from '../../shared/router/app-tree';
import { locateTarget, type TargetRouting } from '../../shared/router/hmvc/locate-target';
import { createControllerCatalog } from '../../shared/workspace/controller-catalog';
import { indexPhpFile } from '../../shared/workspace/php-index';
import { APP_FILES, appCatalog, appListing } from './app-fixture';
import { withCursor } from './cursor-marker';

const where = (r: ReturnType<typeof locateTarget>) => ('found' in r && r.found ? `${r.target.file} ${r.target.class}::${r.target.method}` : JSON.stringify(r));

/** Targets read as the module loader reads them: relative to the module in a module's routes file. */
describe('targets in module route files', () => {
  it('missing-controller judges a module file target after the module name, and reports what its module lacks', () => {
    const text = "<?php\n$route['blog'] = 'posts';\n$route['blog/feed'] = 'feed';\n$route['blog/home'] = 'home/about';\n";
    const findings = analyzeRouteFile(text, evaluateRouteFile(text), { controllers: appCatalog(), routing: { flavour: 'mx', module: 'blog' } });
    // posts → blog/posts (Posts::index); feed → blog/feed (the module's own Blog::feed); home/about → blog/home/about,
    // which MX gives the module's own controller: Blog::home(), which it lacks (the application's Home is hidden).
    assert.deepEqual(
      findings.filter((f) => f.code === 'missing-controller').map((f) => f.message),
      [`'home/about' dispatches to modules/blog/controllers/Blog.php, which has no public method 'home()': CodeIgniter answers 404 for 'blog/home'.`],
    );
    const gallery = "<?php\n$route['gallery/home'] = 'home';\n";
    assert.deepEqual(
      analyzeRouteFile(gallery, evaluateRouteFile(gallery), { controllers: appCatalog(), routing: { flavour: 'mx', module: 'gallery' } }).map((f) => f.message),
      [`'home' dispatches to no controller: module "gallery" has no controller for "gallery/home". CodeIgniter answers 404 for 'gallery/home'.`],
    );
  });

  it('hover on a module file target names the module controller', () => {
    const { text, offset } = withCursor("<?php $route['blog/(:num)'] = 'posts/sh|ow/$1';");
    const hover = targetHover(text, evaluateRouteFile(text), offset, appCatalog(), { flavour: 'mx', module: 'blog' });
    assert.equal(hover?.markdown, "`posts/show/$1` dispatches to `modules/blog/controllers/Posts.php` (module `blog`) → `Posts::show($1)`");
  });

  it('a main file target into a module with a routes file is decided by that file\'s keys, and undecided without them', () => {
    const files = [...APP_FILES.keys(), 'modules/blog/config/routes.php'];
    const catalog = createControllerCatalog(new FileListTree(files), (f) => APP_FILES.get(f));
    const { text, offset } = withCursor("<?php $route['p'] = 'blog/posts/sh|ow';");
    const evaluation = evaluateRouteFile(text);
    assert.match(targetHover(text, evaluation, offset, catalog, { flavour: 'mx' })!.markdown, /is not known here: module blog.*routes file .*may route blog.*posts.*show elsewhere/);
    const decided = targetHover(text, evaluation, offset, catalog, { flavour: 'mx', moduleRouteKeys: () => ['blog', 'blog/archive/(:num)'] });
    assert.match(decided!.markdown, /dispatches to `modules\/blog\/controllers\/Posts\.php`/);
    const rewritten = targetHover(text, evaluation, offset, catalog, { flavour: 'mx', moduleRouteKeys: () => ['blog/(:any)'] });
    assert.match(rewritten!.markdown, /module blog.*s route .*blog.*any.* may route .*elsewhere/);
  });

  it("missing-controller in a main file follows each module's keys from version to version, deciding again only what read them", () => {
    const files = [...APP_FILES.keys(), 'modules/blog/config/routes.php', 'modules/gallery/config/routes.php'];
    const catalog = createControllerCatalog(new FileListTree(files), (f) => APP_FILES.get(f));
    // Blog::nope() and the gallery's missing controller: each module's routes file is read first.
    const text = "<?php\n$route['a'] = 'blog/posts/nope';\n$route['b'] = 'gallery/nothing';\n";
    const evaluation = evaluateRouteFile(text);
    const keys = new Map<string, readonly string[]>([['blog', ['blog/archive/(:num)']], ['gallery', ['gallery/x']]]);
    let version = 1;
    const missing = () =>
      analyzeRouteFile(text, evaluation, { controllers: catalog, routing: { flavour: 'mx', moduleRouteKeys: (m) => keys.get(m), moduleRouteKeysVersion: version } })
        .filter((f) => f.code === 'missing-controller')
        .map((f) => f.message.match(/answers 404 for '(\w+)'\.$/)?.[1]);
    assert.deepEqual(missing(), ['a', 'b']);
    // blog's file now may route blog/posts/nope elsewhere: that target is not judged; gallery's stays.
    keys.set('blog', ['blog/(:any)']);
    version++;
    assert.deepEqual(missing(), ['b']);
    keys.set('gallery', ['gallery/(:any)']);
    version++;
    assert.deepEqual(missing(), []);
    keys.set('blog', ['blog/archive/(:num)']);
    version++;
    assert.deepEqual(missing(), ['a']);
  });

  it('controller lenses count the routes of module files, module-relative', () => {
    const main = evaluateRouteFile("<?php $route['articles/(:num)'] = 'blog/posts/show/$1';");
    const blog = evaluateRouteFile("<?php $route['blog/(:num)'] = 'posts/show/$1'; $route['blog'] = 'posts';");
    const posts = 'modules/blog/controllers/Posts.php';
    const lenses = controllerLenses(posts, indexPhpFile(APP_FILES.get(posts)!), [main, { evaluation: blog, module: 'blog' }], { flavour: 'mx', root: appCatalog().root });
    assert.deepEqual(
      lenses.map((l) => [l.methodName, l.title]),
      [
        ['index', '1 route: ANY blog'],
        ['show', '2 routes: ANY articles/(:num), ANY blog/(:num)'],
      ],
    );
  });

  it("completion in a module file offers the module's controllers and its own controller's methods, without the module name", () => {
    const { text, offset } = withCursor("<?php $route['blog/x'] = '|';");
    const labels = completeMore(text, offset, appListing(), 'blog')!.map((e) => e.label);
    assert.deepEqual(labels.sort(), ['blog', 'feed', 'index', 'posts']);
  });
});

describe('locateTarget, per router', () => {
  // A sub-controller and a sub-directory of the same name, Bonfire's core modules and controllers.
  const root = new FileListTree([
    'application/modules/shop/controllers/Admin.php',
    'application/modules/shop/controllers/admin/Orders.php',
    'bonfire/modules/users/controllers/Settings.php',
    'bonfire/controllers/Images.php',
    'application/controllers/Users.php',
    'application/controllers/admin/Orders.php',
  ]);
  const routing = (flavour: TargetRouting['flavour'], module?: string): TargetRouting => ({ flavour, root, ...(module ? { module } : {}) });

  it('Modular Extensions tries the sub-directory first, Bonfire the sub-controller', () => {
    assert.equal(where(locateTarget(['shop', 'admin', 'orders'], routing('mx'))), 'modules/shop/controllers/admin/Orders.php orders::index');
    assert.equal(where(locateTarget(['shop', 'admin', 'orders'], routing('bonfire'))), 'modules/shop/controllers/Admin.php admin::orders');
  });

  it("Bonfire finds bonfire/modules and bonfire/controllers; the others do not", () => {
    assert.equal(where(locateTarget(['users', 'settings', 'edit'], routing('bonfire'))), '../bonfire/modules/users/controllers/Settings.php settings::edit');
    assert.equal(where(locateTarget(['images'], routing('bonfire'))), '../bonfire/controllers/Images.php images::index');
    // MX has no bonfire/modules: users/settings is the application's Users::settings.
    assert.equal(where(locateTarget(['users', 'settings', 'edit'], routing('mx'))), 'controllers/Users.php users::settings');
  });

  it("under Bonfire, leaves a target into a folder of controllers/ undecided when nothing else serves it: that folder's default controller does", () => {
    // BF_Router::locate() ends with controllers/admin/<default_controller>.php, which this look-up does not read.
    assert.deepEqual(locateTarget(['admin', 'grafik', 'index'], routing('bonfire')), {
      undecided: "Bonfire's router serves it from application/controllers/admin/ with that folder's default controller (default_controller) when no other controller matches, which this look-up does not read",
    });
    // Modular Extensions has no such step: there nothing serves it.
    assert.equal((locateTarget(['admin', 'grafik', 'index'], routing('mx')) as { found?: boolean }).found, false);
  });

  it('plain CodeIgniter walks the application folders and knows no module', () => {
    assert.equal(where(locateTarget(['admin', 'orders', 'show'], routing('ci'))), 'controllers/admin/Orders.php orders::show');
    assert.deepEqual(locateTarget(['news', 'index'], routing('ci')), { found: false, reason: 'no controller file controllers/News.php', tried: [] });
    // A module folder, though: an HMVC router the detection missed may serve it.
    assert.deepEqual(locateTarget(['shop', 'cart'], routing('ci')), { undecided: 'modules/shop/ exists, but no HMVC router was found to serve it (set ciRoutes.router or --router)' });
  });

  it("plain CodeIgniter: a 404 whose controller exists in other letter case says so (Linux's file tests are case-sensitive, Windows' and macOS's not)", () => {
    const cased = new FileListTree(['application/controllers/Security/Admin/Security.php', 'application/controllers/Welcome.php']);
    const r = locateTarget(['Security', 'admin', 'security', 'login'], { flavour: 'ci', root: cased });
    assert.deepEqual(r, {
      found: false,
      reason: "no controller file controllers/Security/Admin.php (on a case-insensitive file system, as Windows' and macOS's are by default, controllers/Security/Admin/Security.php would serve it: its letter case differs from the route's)",
      tried: [],
    });
    // Spelt as on disk, it is found; a controller missing in every case says nothing more.
    assert.equal(where(locateTarget(['Security', 'Admin', 'security', 'login'], { flavour: 'ci', root: cased })), 'controllers/Security/Admin/Security.php security::login');
    assert.deepEqual(locateTarget(['news'], { flavour: 'ci', root: cased }), { found: false, reason: 'no controller file controllers/News.php', tried: [] });
  });

  it("HMVC: a 404 whose module folder exists in other letter case says which file would serve it there", () => {
    const cased = new FileListTree(['application/modules/Auth/controllers/Login.php', 'application/modules/Backend/controllers/AdminController/AdminController.php']);
    const reason = (segments: string[]) => (locateTarget(segments, { flavour: 'mx', root: cased }) as { reason?: string }).reason;
    assert.equal(reason(['auth', 'login', 'index']), `no controller "Auth" in controllers/ nor a module "auth" (on a case-insensitive file system, as Windows' and macOS's are by default, modules/Auth/controllers/Login.php would serve it: its letter case differs from the route's)`);
    assert.match(reason(['backend', 'AdminController', 'AdminController', 'index']) ?? '', /modules\/Backend\/controllers\/AdminController\/AdminController\.php would serve it/);
    assert.equal(reason(['news', 'index']), 'no controller "News" in controllers/ nor a module "news"', 'missing in every case: nothing more');
  });

  it('a module file target is located after its module name, and a module folder hides the application controllers', () => {
    assert.equal(where(locateTarget(['admin', 'orders'], routing('mx', 'shop'))), 'modules/shop/controllers/admin/Orders.php orders::index');
    assert.deepEqual(locateTarget(['users'], routing('mx', 'shop')), { found: false, reason: 'module "shop" has no controller for "shop/users"', tried: [] });
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../helpers/paths';
import { tempProject } from '../helpers/temp-project';

const APP = {
  'application/config/routes.php': "<?php\n$route['default_controller'] = 'home';\n$route['pages/(:any)'] = 'home/page/$1';\n",
  'application/config/config.php': "<?php\n$config['base_url'] = '';\n$config['permitted_uri_chars'] = 'a-z 0-9~%.:_\\-';\n",
  'application/controllers/Home.php': '<?php class Home extends CI_Controller { public function index() {} public function page($p) {} }',
  'application/third_party/MX/Router.php': '<?php class MX_Router extends CI_Router {}',
};

/** `ci-routes match --json` of `uri` in a project holding APP with `files` over it. */
function matchIn(files: Record<string, string>, uri: string): Record<string, unknown> {
  const root = tempProject('ci-routes-match-', { ...APP, ...files });
  try {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'match', '--json', 'application/config/routes.php', '--', uri], { cwd: root, encoding: 'utf8' });
    return (JSON.parse(r.stdout) as { results: Record<string, unknown>[] }).results[0]!;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The same, with `router` as application/core/MY_Router.php. */
const match = (router: string, uri: string) => matchIn({ 'application/core/MY_Router.php': router }, uri);

describe("an application's own router (core/MY_Router.php)", () => {
  it('that redefines how the route table is matched leaves the outcome unknown, saying why', () => {
    // As a real application does it: `:any` read as `.+`, which the stock router reads as `[^/]+`.
    const r = match("<?php\nrequire APPPATH . 'third_party/MX/Router.php';\nclass MY_Router extends MX_Router {\n    protected function _parse_routes() {\n        // :any as .+\n    }\n}\n", 'pages/a/b');
    assert.deepEqual([r.main_matched_key, r.main_target_segments, r.controller_file, r['404']], [null, null, null, null]);
    assert.equal(r.unknown, "application/core/MY_Router.php redefines the router's _parse_routes(), which the analysis does not follow");
  });

  it('that redefines how a target becomes a controller (set_class(), _set_request()…) routes the URI but leaves the controller unknown', () => {
    const r = match("<?php\nclass MY_Router extends CI_Router {\n    public function set_class($class) {\n        parent::set_class(ucfirst($class) . '_page');\n    }\n}\n", 'pages/about');
    assert.deepEqual([r.main_matched_key, r.controller_file, r['404']], ['pages/(:any)', null, null]);
    assert.equal(r.unknown, "the controller is not looked up: application/core/MY_Router.php redefines the router's set_class(), which the analysis does not follow");
  });

  it('that extends a router the analysis does not read (a package not committed) leaves the outcome unknown', () => {
    const r = match("<?php\nrequire FCPATH . '../vendor/acme/hmvc/src/Router.php';\nclass MY_Router extends Acme_Router {}\n", 'pages/about');
    assert.deepEqual([r.main_matched_key, r.controller_file, r['404']], [null, null, null]);
    assert.equal(r.unknown, 'application/core/MY_Router.php extends Acme_Router, a router the analysis does not read');
    // The router in force says so too, rather than "no HMVC router found".
    const root = tempProject('ci-routes-match-', { ...APP, 'application/third_party/MX/Router.php': '', 'application/core/MY_Router.php': '<?php\nclass MY_Router extends Acme_Router {}\n' });
    try {
      const out = JSON.parse(spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'match', '--json', 'application/config/routes.php', '--', 'pages/about'], { cwd: root, encoding: 'utf8' }).stdout) as { router_source: string };
      assert.equal(out.router_source, 'default: application/core/MY_Router.php extends Acme_Router, a router the analysis does not read (its answers are unknown)');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("an older Modular Extensions (before 5.5: its MX_Router has _validate_request()) routes the URI but leaves the controller unknown: its locate() does not ucfirst() segments", () => {
    const r = matchIn({ 'application/third_party/MX/Router.php': '<?php class MX_Router extends CI_Router { public function _validate_request($segments) {} public function locate($segments) {} }' }, 'pages/about');
    assert.deepEqual([r.main_matched_key, r.controller_file, r['404']], ['pages/(:any)', null, null]);
    assert.match(String(r.unknown), /MX\/Router\.php is an older Modular Extensions \(before 5\.5, with _validate_request\(\)\)/);
  });

  it('that wraps locate() in logic of its own (disabled modules) routes the URI but leaves the controller unknown', () => {
    const wrapped = "<?php\nrequire APPPATH . 'third_party/MX/Router.php';\nclass MY_Router extends MX_Router {\n    public function locate($segments) {\n        if ($segments[0] === 'blog') { $this->located = -1; return; }\n        return parent::locate($segments);\n    }\n}\n";
    const r = match(wrapped, 'pages/about');
    assert.equal(r.main_matched_key, 'pages/(:any)');
    assert.match(String(r.unknown), /MY_Router\.php redefines the router's locate\(\), which the analysis does not follow/);
    const disabled = "<?php\nclass MY_Router extends MX_Router {\n    public function locate($segments) {\n        if ($this->disabled($segments[0])) show_error('disabled');\n        foreach (Modules::$locations as $location => $offset) { if (is_dir($location . $segments[0])) { $this->module = $segments[0]; } }\n    }\n}\n";
    assert.match(String(match(disabled, 'pages/about').unknown), /redefines the router's locate\(\)/);
  });

  it('that redefines only the controller look-up (a copy of a newer Modular Extensions) is routed as the stock router', () => {
    const r = match("<?php\nrequire APPPATH . 'third_party/MX/Router.php';\nclass MY_Router extends MX_Router {\n    public function locate($segments) {\n        return parent::locate($segments);\n    }\n}\n", 'pages/about');
    assert.deepEqual([r.main_matched_key, r.controller_file, r.unknown], ['pages/(:any)', 'application/controllers/Home.php', undefined]);
  });
});

describe("ci-routes check under an application's own router", () => {
  // A module's keys the stock router never consults, and a target no module controller serves:
  // findings under Modular Extensions' reading, which a router of the application's own replaces.
  const MODULE = {
    'application/modules/blog/config/routes.php': "<?php\n$route['news'] = 'front/posts/index';\n$route['news'] = 'front/posts/index';\n$route['blog/x'] = 'nothing/here';\n",
    'application/modules/blog/controllers/front/Posts.php': '<?php class Posts extends MX_Controller { public function index() {} }',
  };
  const checkIn = (files: Record<string, string>) => {
    const root = tempProject('ci-routes-check-', { ...APP, ...MODULE, ...files });
    try {
      const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'check'], { cwd: root, encoding: 'utf8' });
      return r.stdout;
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  };

  it("judges a module's keys and targets under the stock Modular Extensions router", () => {
    const out = checkIn({});
    assert.match(out, /'news' is never reached/);
    assert.match(out, /\[missing-controller\]/);
  });

  it('leaves them unjudged, saying why, when MY_Router redefines _set_routing(); what PHP arrays decide (a duplicate) is still said', () => {
    const out = checkIn({ 'application/core/MY_Router.php': "<?php\nclass MY_Router extends MX_Router {\n    protected function _set_routing() {\n        // every module's routes into $this->routes\n    }\n}\n" });
    assert.doesNotMatch(out, /never reached|missing-controller/);
    assert.match(out, /'news' is declared again/);
    assert.match(out, /Module route files are not checked for unreachable keys and missing controllers in application: application\/core\/MY_Router\.php redefines the router's _set_routing\(\)/);
  });

  it("lists a module's routes file as read in a way not known when MY_Router redefines _set_routing()", () => {
    const router = { 'application/core/MY_Router.php': "<?php\nclass MY_Router extends MX_Router {\n    protected function _set_routing() {\n    }\n}\n" };
    const listIn = (files: Record<string, string>) => {
      const root = tempProject('ci-routes-list-', { ...APP, ...MODULE, ...files });
      try {
        return spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'list'], { cwd: root, encoding: 'utf8' }).stdout;
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    };
    assert.match(listIn({}), /module blog: read after the main routes for URIs whose first segment is blog/);
    const out = listIn(router);
    assert.match(out, /module blog: how the application's router reads it is not known \(application\/core\/MY_Router\.php redefines the router's _set_routing\(\)/);
    assert.doesNotMatch(out, /read after the main routes/);
  });

  it('with its own controller look-up, no target is judged, saying why', () => {
    const main = "<?php\n$route['default_controller'] = 'home';\n$route['item/(:num)'] = 'catalog/show/$1';\n";
    assert.match(checkIn({ 'application/config/routes.php': main }), /missing-controller/);
    const out = checkIn({ 'application/config/routes.php': main, 'application/core/MY_Router.php': "<?php\nclass MY_Router extends MX_Router {\n    public function set_class($class) { parent::set_class($class . '_page'); }\n}\n" });
    assert.doesNotMatch(out, /missing-controller/);
    assert.match(out, /Targets are not checked for missing controllers in application: application\/core\/MY_Router\.php redefines the router's set_class\(\)/);
  });

  it('with its own _parse_routes(), no key is judged by the stock matching, in the main file either', () => {
    const main = "<?php\n$route['default_controller'] = 'home';\n$route['pages/(:any)'] = 'home/page/$1';\n$route['pages/about'] = 'home/page/about';\n";
    assert.match(checkIn({ 'application/config/routes.php': main }), /'pages\/about' .*never|unreachable-route/);
    const out = checkIn({ 'application/config/routes.php': main, 'application/core/MY_Router.php': '<?php\nclass MY_Router extends MX_Router {\n    protected function _parse_routes() {}\n}\n' });
    assert.doesNotMatch(out, /config\/routes\.php:4.*unreachable-route|'pages\/about'/);
    assert.match(out, /The main routes' keys are not checked for reachability in application: application\/core\/MY_Router\.php redefines the router's _parse_routes\(\)/);
  });

  it("with its own _parse_routes() only, a module's routes file is still judged: Modules::parse_routes() reads it, not the router's _parse_routes()", () => {
    const out = checkIn({ 'application/core/MY_Router.php': '<?php\nclass MY_Router extends MX_Router {\n    protected function _parse_routes() {}\n}\n' });
    assert.match(out, /'news' is never reached/);
    assert.match(out, /\[missing-controller\]/);
    assert.doesNotMatch(out, /Module route files are not checked/);
  });
});

describe('ci-routes match: an answer resting on an entry only one branch of an undecidable condition sets', () => {
  // As a real application sets its API's 404 page: from REQUEST_URI, which a static analysis cannot know.
  const ROUTES = `<?php
if (isset($_SERVER['REQUEST_URI']) && preg_match('#/api/#', $_SERVER['REQUEST_URI'])) {
    $route['404_override'] = 'home/page';
}
$route['default_controller'] = 'home';
if (isset($_SERVER['REQUEST_URI']) && strpos($_SERVER['REQUEST_URI'], '/beta/') === 0) {
    $route['beta/(:any)'] = 'home/page/$1';
} else {
    $route['about'] = 'home/page/about';
}
if (PHP_SAPI === 'cli' || isset($_SERVER['HTTPS'])) {
    $route['pages/(:any)'] = 'home/page/$1';
} else {
    $route['pages/(:any)'] = 'home/page/$1';
}
`;
  const run = (uri: string) => {
    const root = tempProject('ci-routes-match-', { ...APP, 'application/config/routes.php': ROUTES });
    try {
      return spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'match', '--json', 'application/config/routes.php', '--', uri], { cwd: root, encoding: 'utf8' });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  };
  const result = (uri: string) => (JSON.parse(run(uri).stdout) as { results: Record<string, unknown>[] }).results[0]!;

  it('names the entry and its condition, warns and exits 1: the 404_override that served it, the route that matched', () => {
    const served = run('nothing/here');
    assert.equal(served.status, 1);
    const r = JSON.parse(served.stdout).results[0];
    assert.equal(r.dispatch_404_override, true);
    assert.deepEqual(r.conditional, [{ key: '404_override', condition_at: 'application/config/routes.php:2' }]);
    assert.match(served.stderr, /routes\.php:2: '404_override', which the answer for 'nothing\/here' rests on, is set only where this condition holds/);
    assert.deepEqual(result('beta/x').conditional, [{ key: 'beta/(:any)', condition_at: 'application/config/routes.php:6' }]);
    assert.deepEqual(result('about').conditional, [{ key: 'about', condition_at: 'application/config/routes.php:6' }]);
  });

  it('is sure of an entry both branches set, and of one set outside any condition', () => {
    const both = run('pages/x');
    assert.equal(JSON.parse(both.stdout).results[0].conditional, undefined);
    assert.equal(result('').conditional, undefined, 'the default controller');
  });
});

describe('ci-routes match: the method the controller must have', () => {
  const routesIn = (routes: string, uri: string) => matchIn({ 'application/config/routes.php': routes }, uri);

  it('answers 404 for a method the controller lacks, as CodeIgniter.php does', () => {
    const r = routesIn("<?php\n$route['default_controller'] = 'home';\n", 'home/nonexistent/x');
    assert.deepEqual([r['404'], r.stage_404, r.show_404, r.controller_file], [true, 'dispatch', 'Home/nonexistent', null]);
    assert.deepEqual([routesIn("<?php\n$route['default_controller'] = 'home';\n", 'home/page/x').controller_file], ['application/controllers/Home.php']);
  });

  it('leaves it unknown when the controller may inherit it from a class not read, or a trait', () => {
    const vendor = routesIn("<?php\n$route['default_controller'] = 'home';\n", 'shop/nothing_here');
    assert.equal(vendor['404'], true, 'without the controller: 404');
    const withBase = matchIn({ 'application/controllers/Shop.php': '<?php class Shop extends Vendor_Base { public function index() {} }' }, 'shop/nothing_here');
    assert.deepEqual([withBase['404'], withBase.controller_file], [null, null]);
    assert.equal(withBase.unknown, 'whether controllers/Shop.php has a public method nothing_here() is not known: Shop extends Vendor_Base, which is not found beside the controller, in controllers/, core/ or libraries/, nor in a file it or core/MY_Controller.php requires');
    const withTrait = matchIn({ 'application/controllers/Shop.php': '<?php class Shop extends CI_Controller { use Exports; public function index() {} }' }, 'shop/export_csv');
    assert.match(String(withTrait.unknown), /Shop uses Exports, whose methods are not read$/);
    // A base beside it is read: its methods are known, and a method neither has is a 404.
    const files = {
      'application/controllers/shop/Base.php': '<?php class Base extends CI_Controller { public function listing() {} }',
      'application/controllers/shop/Products.php': "<?php require_once __DIR__ . '/Base.php'; class Products extends Base { public function index() {} }",
    };
    assert.equal(matchIn(files, 'shop/products/listing').controller_file, 'application/controllers/shop/Products.php');
    assert.equal(matchIn(files, 'shop/products/nope')['404'], true);
  });

  it('names _remap() when the controller has one: CodeIgniter.php calls it with the method and arguments instead', () => {
    const r = matchIn({ 'application/controllers/Api.php': '<?php class Api extends CI_Controller { public function _remap($method, $params = []) {} }' }, 'api/users/7');
    assert.deepEqual([r.controller_file, r.method, r.via_remap], ['application/controllers/Api.php', 'users', true]);
    const root = tempProject('ci-routes-match-', { ...APP, 'application/controllers/Api.php': '<?php class Api extends CI_Controller { public function _remap($method, $params = []) {} }' });
    try {
      const text = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'match', 'application/config/routes.php', 'api/users/7'], { cwd: root, encoding: 'utf8' }).stdout;
      assert.match(text, /controller +Api::_remap\('users', \['7'\]\) +application\/controllers\/Api\.php/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('leaves it unknown when 404_override would serve it instead', () => {
    const r = routesIn("<?php\n$route['default_controller'] = 'home';\n$route['404_override'] = 'errors/missing';\n", 'home/nonexistent');
    assert.deepEqual([r['404'], r.controller_file], [null, null]);
    assert.match(String(r.unknown), /^controllers\/Home\.php has no public method nonexistent\(\): CodeIgniter then serves 404_override \('errors\/missing'\)/);
  });
});

describe("a controller named as one of PHP's own classes", () => {
  const ERROR = {
    'application/config/routes.php': "<?php\n$route['default_controller'] = 'home';\n$route['404_override'] = 'error';\n",
    'application/controllers/Error.php': '<?php class Error extends CI_Controller { public function index() {} }',
  };
  const run = (args: string[], files: Record<string, string> = {}) => {
    const root = tempProject('ci-routes-own-class-', { ...APP, ...ERROR, ...files });
    try {
      return spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), ...args], { cwd: root, encoding: 'utf8' });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  };

  it('ends the request in an error under PHP 7 and later, as CodeIgniter.php does: loading it, or as 404_override', () => {
    const [direct, override] = (JSON.parse(run(['match', '--json', 'application/config/routes.php', '--', 'error', 'nothing/here']).stdout) as { results: Record<string, unknown>[] }).results;
    assert.match(String(direct!.error), /^PHP Fatal error: Cannot declare class Error, because the name is already in use/);
    assert.equal(direct!.controller_file, null);
    assert.match(String(override!.error), /^the 404_override controller Error is PHP's own class \(since PHP 7\.0\)/);
  });

  it('is reported by check, but not for an application on PHP 5 (composer.json), where Error is free', () => {
    assert.match(run(['check']).stdout, /'error' dispatches to controllers\/Error\.php, whose class Error is one of PHP's own \(since PHP 7\.0\)/);
    const php5 = run(['check'], { 'composer.json': '{"require": {"php": "~5.6"}}' });
    assert.doesNotMatch(php5.stdout, /PHP's own/);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Application } from '../../shared/app/application';
import { diskProjectFiles } from '../../server/src/host/disk-project-files';
import { ROOT } from '../helpers/paths';
import { tempProject } from '../helpers/temp-project';

const MX_ROUTER = { 'application/third_party/MX/Router.php': '<?php class MX_Router extends CI_Router {}' };
const ROUTES = { 'application/config/routes.php': "<?php\n$route['default_controller'] = 'home';\n$route['users'] = 'user/index';\n" };

/** A project folder holding the given files (paths from the project). */
const project = (files: Record<string, string>): string => tempProject('ci-routes-suffix-', files);

describe("Modular Extensions' controller_suffix", () => {
  const made: string[] = [];
  after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const checked = (files: Record<string, string>) => {
    const root = project({ ...ROUTES, ...files });
    made.push(root);
    const c = new Application(path.join(root, 'application'), diskProjectFiles()).checkedControllers();
    return 'catalog' in c ? 'checked' : c.unchecked;
  };

  it('leaves targets checked when config.php does not set it', () => {
    assert.equal(checked({ ...MX_ROUTER, 'application/config/config.php': "<?php\n$config['base_url'] = '';\n" }), 'checked');
    assert.equal(checked({ ...MX_ROUTER, 'application/config/config.php': "<?php\n$config['controller_suffix'] = '';\n" }), 'checked');
  });

  it('leaves them unchecked when config.php sets one, or when there is no config.php to tell', () => {
    assert.match(checked({ ...MX_ROUTER, 'application/config/config.php': "<?php\n$config['controller_suffix'] = 'Controller';\n" }), /controller_suffix \('Controller', config\/config\.php\)/);
    assert.match(checked({ ...MX_ROUTER, 'application/config/config.php': "<?php\n$config['controller_suffix'] = getenv('SUFFIX');\n" }), /not known \(config\/config\.php sets it otherwise than to a literal\)/);
    assert.match(checked(MX_ROUTER), /not known \(no config\/config\.php\)/);
  });

  it('leaves them unchecked when config.php puts modules elsewhere (modules_locations), not when it restates the default', () => {
    const config = (locations: string) => ({ ...MX_ROUTER, 'application/config/config.php': `<?php\n$config['controller_suffix'] = '';\n${locations}\n` });
    assert.match(checked(config("$config['modules_locations'] = array(\n    APPPATH . '../modules/' => '../../modules/',\n);")), /looks for modules where config\/config\.php sets modules_locations/);
    assert.equal(checked(config("$config['modules_locations'] = array(\n    APPPATH.'modules/' => '../modules/',\n);")), 'checked');
    assert.equal(checked(config("$config['modules_locations'] = array(\n    realpath(APPPATH).'/modules/' => '../modules/'\n);")), 'checked', 'realpath(APPPATH) has no trailing slash: the same folder');
    assert.equal(checked(config("// $config['modules_locations'] = array(APPPATH . '../modules/' => '../../modules/');")), 'checked');
    // Set in a file config.php includes from the application folder.
    const included = { ...config("require_once(APPPATH . 'config/application.php');"), 'application/config/application.php': "<?php\n$config['modules_locations'] = array(APPPATH . '../src/modules/' => '../../src/modules/');\n" };
    assert.match(checked(included), /looks for modules where config\/config\.php includes config\/application\.php, which sets modules_locations/);
  });

  it("leaves them unchecked when the application's Modules.php changes the default locations; MX's own default, in either spelling, changes nothing", () => {
    const modules = (def: string) => ({ ...MX_ROUTER, 'application/config/config.php': "<?php\n$config['controller_suffix'] = '';\n", 'application/third_party/MX/Modules.php': `<?php\nglobal $CFG;\nis_array(Modules::$locations = $CFG->item('modules_locations')) OR Modules::$locations = ${def};\nclass Modules {}\n` });
    assert.match(checked(modules("array(\n    APPPATH.'../modules/' => '../../modules/',\n)")), /looks for modules where third_party\/MX\/Modules\.php sets the default modules_locations/);
    assert.equal(checked(modules("array(\n    APPPATH.'modules/' => '../modules/',\n)")), 'checked');
    assert.equal(checked(modules("[\n    APPPATH . 'modules/' => '../modules/',\n]")), 'checked');
  });

  it("keeps the look-up's answer until a PHP file changes (forgetControllers), then reads config.php again", () => {
    const root = project({ ...ROUTES, ...MX_ROUTER, 'application/config/config.php': "<?php\n$config['controller_suffix'] = '';\n" });
    made.push(root);
    const app = new Application(path.join(root, 'application'), diskProjectFiles());
    assert.equal(app.controllerLookUpUnknown(), undefined);
    fs.writeFileSync(path.join(root, 'application', 'config', 'config.php'), "<?php\n$config['controller_suffix'] = 'Controller';\n");
    assert.equal(app.controllerLookUpUnknown(), undefined, 'kept until told');
    app.forgetControllers();
    assert.match(String(app.controllerLookUpUnknown()), /controller_suffix \('Controller'/);
  });

  it('names controllers for completion by the segment that reaches them: UsersController.php is `users`, Users.php nothing', () => {
    const root = project({
      ...ROUTES,
      ...MX_ROUTER,
      'application/config/config.php': "<?php\n$config['controller_suffix'] = 'Controller';\n",
      'application/modules/users/controllers/UsersController.php': '<?php class UsersController extends MX_Controller { public function profile() {} }',
      'application/modules/users/controllers/Users.php': '<?php class Users extends MX_Controller { public function index() {} }',
      'application/controllers/HomeController.php': '<?php class HomeController extends MX_Controller { public function index() {} }',
    });
    made.push(root);
    const listing = new Application(path.join(root, 'application'), diskProjectFiles()).controllerListing();
    assert.deepEqual(listing.controllers('users').map((c) => [c.name, c.methods]), [['users', ['profile']]]);
    assert.deepEqual(listing.controllers().map((c) => c.name), ['home']);
  });

  it("is Modular Extensions' alone: CodeIgniter's own router checks targets without config.php", () => {
    assert.equal(checked({}), 'checked');
  });

  it('ci-routes check says why targets are not checked, and reports no missing controller there', () => {
    const root = project({ ...ROUTES, ...MX_ROUTER, 'application/config/config.php': "<?php\n$config['controller_suffix'] = 'Controller';\n", 'application/controllers/HomeController.php': '<?php class HomeController extends MX_Controller { public function index() {} }' });
    made.push(root);
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'check'], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Targets are not checked for missing controllers in application: Modular Extensions' router adds config\.php's controller_suffix \('Controller'/);
    assert.doesNotMatch(r.stdout, /\[missing-controller\]/);
  });

  it('ci-routes match follows the main and module routes, and leaves the controller unknown, saying why', () => {
    const root = project({
      ...ROUTES,
      ...MX_ROUTER,
      'application/config/config.php': "<?php\n$config['controller_suffix'] = 'Controller';\n",
      // The unsuffixed file is not what the router loads: it must not be named as the controller.
      'application/controllers/Home.php': '<?php class Home extends MX_Controller { public function index() {} }',
      'application/modules/users/config/routes.php': "<?php\n$route['users/me'] = 'users/profile';\n",
      'application/modules/users/controllers/UsersController.php': '<?php class UsersController extends MX_Controller { public function profile() {} }',
    });
    made.push(root);
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'match', '--json', 'application/config/routes.php', '--', 'users/me', 'home'], { cwd: root, encoding: 'utf8' });
    const results = (JSON.parse(r.stdout) as { results: Record<string, unknown>[] }).results;
    const fields = results.map((x) => [x.module_route && (x.module_route as { value: string }).value, x.controller_file, x['404'], x.unknown]);
    const why = /^the controller is not looked up: Modular Extensions' router adds config\.php's controller_suffix \('Controller', config\/config\.php\) to controller names/;
    assert.deepEqual(fields.map(([route, file, notFound]) => [route, file, notFound]), [['users/profile', null, null], [null, null, null]]);
    for (const [, , , unknown] of fields) assert.match(String(unknown), why);
    const text = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'match', 'application/config/routes.php', '--', 'home'], { cwd: root, encoding: 'utf8' }).stdout;
    assert.doesNotMatch(text, /Home\.php|404/, text);
    assert.equal(text.match(/controller_suffix/g)?.length, 1, `said once: ${text}`);
  });

  it('ci-routes match with modules kept elsewhere (modules_locations) follows the main route only, and says the module routes and controller are unknown', () => {
    const root = project({
      ...ROUTES,
      ...MX_ROUTER,
      'application/config/config.php': "<?php\n$config['controller_suffix'] = '';\n$config['modules_locations'] = array(APPPATH . '../plugins/' => '../../plugins/');\n",
      'plugins/blog/config/routes.php': "<?php\n$route['blog/latest'] = 'blog/posts/latest';\n",
    });
    made.push(root);
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'match', '--json', 'application/config/routes.php', '--', 'users', 'blog/latest'], { cwd: root, encoding: 'utf8' });
    const results = (JSON.parse(r.stdout) as { results: Record<string, unknown>[] }).results;
    assert.deepEqual(results.map((x) => [x.main_matched_key, x.module_route, x.module, x.controller_file, x['404']]), [['users', null, null, null, null], [null, null, null, null, null]]);
    for (const x of results) assert.match(String(x.unknown), /^the module routes and controller are not looked up: Modular Extensions' router looks for modules where config\/config\.php sets modules_locations/);
    const text = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'ci-routes.js'), 'match', 'application/config/routes.php', '--', 'blog/latest'], { cwd: root, encoding: 'utf8' }).stdout;
    assert.doesNotMatch(text, /no module routes file was consulted/);
  });
});

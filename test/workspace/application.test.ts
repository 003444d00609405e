import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Applications } from '../../shared/app/application';
import { applicationDirOf } from '../../shared/app/layout';
import { MemoryProject } from '../helpers/memory-project';

const ROOT = path.resolve('/projects/club');
const at = (rel: string) => path.join(ROOT, rel);

/** A Bonfire project: application/ with a module, Bonfire's own tree beside it with two modules. */
function bonfireProject(): MemoryProject {
  return MemoryProject.at(ROOT, {
    'index.php': "<?php\ndefine('ENVIRONMENT', isset($_SERVER['CI_ENV']) ? $_SERVER['CI_ENV'] : 'staging');\n",
    'application/config/routes.php': "<?php\n$route['default_controller'] = 'home';\n",
    'application/config/constants.php': "<?php\ndefine('SITE_AREA', 'admin');\n",
    'application/config/staging/routes.php': "<?php\n$route['beta'] = 'home/beta';\n",
    'application/controllers/Home.php': '<?php class Home extends CI_Controller { public function index() {} }',
    'application/modules/blog/config/routes.php': "<?php\n$route['blog/(:num)'] = 'posts/show/$1';\n",
    'application/modules/blog/controllers/Posts.php': '<?php class Posts extends MX_Controller { public function show($id) {} }',
    'bonfire/core/BF_Router.php': '<?php class BF_Router extends MX_Router {}',
    'bonfire/libraries/Route.php': '<?php class Route { public static function context($name, $options) { self::any($name, "{$options[\'home\']}"); } }',
    'bonfire/modules/users/config/routes.php': "<?php\nRoute::any('login', 'users/login');\n",
    'bonfire/modules/users/controllers/Users.php': '<?php class Users extends Front_Controller { public function login() {} }',
    'bonfire/modules/docs/controllers/Docs.php': '<?php class Docs extends Base_Controller {}',
  });
}

describe('the application model (shared/app)', () => {
  it("gives a module of Bonfire's own bonfire/modules/ to the application beside bonfire/", () => {
    const files = bonfireProject();
    assert.equal(applicationDirOf(at('bonfire/modules/users/config/routes.php'), (p) => files.kind(p)), at('application'));
    // Read as a path alone (nothing to tell the application folder by), it stays bonfire/'s.
    assert.equal(applicationDirOf(at('bonfire/modules/users/config/routes.php')), at('bonfire'));
    const apps = new Applications(files);
    assert.equal(apps.of(at('bonfire/modules/users/config/routes.php')), apps.of(at('application/config/routes.php')));
  });

  it('is found from any of its route files, and sets each up as its router runs it', () => {
    const apps = new Applications(bonfireProject());
    const main = apps.setupFor(at('application/config/routes.php'));
    assert.equal(main.appDir, at('application'));
    assert.equal(main.module, undefined);
    assert.deepEqual([main.router.flavour, main.dialect, main.environment.name], ['bonfire', 'bonfire', 'staging']);
    assert.equal(main.constants.get('SITE_AREA'), 'admin');
    assert.equal(main.constants.get('ENVIRONMENT'), 'staging');
    assert.deepEqual(main.environmentRoutes, { environment: 'staging', path: at('application/config/staging/routes.php') });
    const users = apps.setupFor(at('bonfire/modules/users/config/routes.php'));
    assert.deepEqual([users.appDir, users.module, users.router.flavour, users.environmentRoutes], [at('application'), 'users', 'bonfire', undefined]);
  });

  it('reads the constants constants.php defines in the files it includes, as CodeIgniter loads them', () => {
    const files = MemoryProject.at(ROOT, {
      'index.php': "<?php\ndefine('ENVIRONMENT', 'production');\n",
      'application/config/routes.php': "<?php\n$route[SHOP_PREFIX . '/(:num)'] = 'products/show/$1';\n",
      'application/config/constants.php': "<?php\ndefine('SITE_AREA', 'admin');\ninclude_once(APPPATH . 'config/more_constants.php');\n",
      'application/config/more_constants.php': "<?php\ndefine('SHOP_PREFIX', 'shop');\n",
    });
    const apps = new Applications(files);
    const main = apps.setupFor(at('application/config/routes.php'));
    assert.deepEqual([main.constants.get('SITE_AREA'), main.constants.get('SHOP_PREFIX')], ['admin', 'shop']);
    // A change to the included file changes the constants: the server forgets the application then.
    assert.equal(apps.read(at('application/config/more_constants.php')), true);
    assert.equal(apps.read(at('application/config/routes.php')), false);
  });

  it('lists its route files in the order its router reads them: main, environments, modules (its own, then Bonfire’s)', () => {
    const app = new Applications(bonfireProject()).of(at('application/config/routes.php'))!;
    assert.deepEqual(app.routeFiles(), {
      main: at('application/config/routes.php'),
      environments: [{ environment: 'staging', file: at('application/config/staging/routes.php') }],
      modules: [
        { module: 'blog', file: at('application/modules/blog/config/routes.php') },
        { module: 'users', file: at('bonfire/modules/users/config/routes.php') },
      ],
    });
  });

  it('lets what is asked win over what the files tell', () => {
    const apps = new Applications(bonfireProject());
    const s = apps.setupFor(at('application/config/routes.php'), { router: 'mx', dialect: 'spec', constants: [['ENVIRONMENT', 'production'], ['SITE_AREA', 'manage']] });
    assert.deepEqual([s.router, s.dialect, s.environment.name, s.constants.get('SITE_AREA')], [{ flavour: 'mx', source: 'given' }, 'spec', 'production', 'manage']);
    assert.deepEqual(s.environmentRoutes, { environment: 'production', path: at('application/config/production/routes.php') });
  });

  it('reads its files once, until told to forget them', () => {
    const files = bonfireProject();
    const apps = new Applications(files);
    const constants = at('application/config/constants.php');
    apps.setupFor(at('application/config/routes.php'));
    apps.setupFor(at('application/modules/blog/config/routes.php'));
    apps.setupFor(at('bonfire/modules/users/config/routes.php'));
    assert.equal(files.reads.get(constants), 1);
    apps.forget(at('application'));
    apps.setupFor(at('application/config/routes.php'));
    assert.equal(files.reads.get(constants), 2);
  });

  it('knows its controllers, in the application, its modules and Bonfire’s tree', () => {
    const app = new Applications(bonfireProject()).of(at('application/config/routes.php'))!;
    assert.deepEqual(app.controllerFiles(), ['controllers/Home.php', 'modules/blog/controllers/Posts.php']);
    const catalog = app.controllers();
    assert.deepEqual([...(catalog.methods('modules/blog/controllers/Posts.php')?.names ?? [])], ['show']);
    assert.equal(catalog.root.isFile('bonfire/modules/users/controllers/Users.php'), true);
  });

  it('lists its controllers for completion from its catalog: each file read once for both, until told to forget them', () => {
    const files = bonfireProject();
    const app = new Applications(files).of(at('application/config/routes.php'))!;
    const posts = at('application/modules/blog/controllers/Posts.php');
    assert.deepEqual([...(app.controllers().methods('modules/blog/controllers/Posts.php')?.declared ?? [])], ['show']);
    assert.deepEqual(app.controllerListing().modules(), ['blog']);
    assert.deepEqual(app.controllerListing().controllers('blog'), [{ name: 'posts', file: 'modules/blog/controllers/Posts.php', methods: ['show'] }]);
    assert.deepEqual(app.controllerListing().controllers().map((c) => c.name), ['home']);
    assert.equal(files.reads.get(posts), 1);
    app.forgetControllers();
    assert.deepEqual(app.controllerListing().controllers('blog').map((c) => c.methods), [['show']]);
    assert.equal(files.reads.get(posts), 2);
  });

  it('evaluates a route file with no readable application from its text alone', () => {
    const apps = new Applications(MemoryProject.at(ROOT, {}));
    const s = apps.setupFor(path.resolve('/elsewhere/routes.php'));
    assert.deepEqual([s.appDir, s.router.flavour, s.dialect, s.constants.size > 0], [undefined, 'ci', 'spec', true]);
  });

  it('is found from a folder inside it or from its project root, never past a repository root', () => {
    const files = MemoryProject.at(path.resolve('/work'), {
      'club/.git/HEAD': 'ref: refs/heads/main\n',
      ...Object.fromEntries(Object.entries({
        'application/config/routes.php': '<?php\n',
        'application/config/production/routes.php': '<?php\n',
        'application/controllers/admin/Users.php': '<?php\n',
        'application/modules/blog/config/routes.php': '<?php\n',
        'application/modules/blog/controllers/Posts.php': '<?php\n',
        'application/modules/shop/controllers/Cart.php': '<?php\n',
        'bonfire/modules/users/config/routes.php': '<?php\n',
        'bonfire/core/BF_Router.php': '<?php\n',
        'docs/guide.md': '',
      }).map(([rel, text]) => [`club/${rel}`, text])),
      // An application above the repository, and a project with none.
      'application/config/routes.php': '<?php\n',
      'club/tools/.git': 'gitdir: elsewhere\n',
      'club/tools/bin/run.php': '<?php\n',
    });
    const apps = new Applications(files);
    const app = path.resolve('/work/club/application');
    const from = (rel: string) => apps.findFrom(path.resolve('/work', rel));
    for (const rel of ['club', 'club/application', 'club/application/config', 'club/application/config/production', 'club/application/controllers/admin', 'club/application/modules/blog/controllers', 'club/application/modules/shop', 'club/bonfire/modules/users', 'club/bonfire/core', 'club/docs']) {
      assert.equal(from(rel).app?.appDir, app, rel);
    }
    assert.equal(from('club/application/modules/blog').app, apps.of(path.join(app, 'config', 'routes.php')));
    // A repository root (a .git folder, or a .git file of a worktree) ends the search.
    const none = from('club/tools/bin');
    assert.deepEqual([none.app, none.appDir, none.from, none.upTo, none.repositoryRoot], [undefined, undefined, path.resolve('/work/club/tools/bin'), path.resolve('/work/club/tools'), true]);
    // Without one it goes on up to the file system's root.
    assert.equal(from('elsewhere/deep').app?.appDir, path.resolve('/work/application'));
  });

  it("knows the URL suffix its URI class strips: config.php's literal, the environment's over it", () => {
    const project = (files: Record<string, string>) => new Applications(MemoryProject.at(ROOT, { 'application/config/routes.php': '<?php\n', ...files })).at(at('application'))!;
    assert.deepEqual(project({}).urlSuffix(), { suffix: '', source: 'no config/config.php' });
    assert.deepEqual(project({ 'application/config/config.php': "<?php\n$config['base_url'] = '';\n" }).urlSuffix(), { suffix: '', source: 'not set in config/config.php' });
    const config = "<?php\n// $config['url_suffix'] = '.php';\n$config['url_suffix'] = '.html';\n";
    assert.deepEqual(project({ 'application/config/config.php': config }).urlSuffix(), { suffix: '.html', source: 'config/config.php' });
    assert.deepEqual(project({ 'application/config/config.php': config, 'application/config/production/config.php': '<?php\n$config["url_suffix"] = "";\n' }).urlSuffix('production'), { suffix: '', source: 'config/production/config.php' });
    assert.deepEqual(project({ 'application/config/config.php': config, 'application/config/production/config.php': '<?php\n$config["url_suffix"] = "";\n' }).urlSuffix('testing'), { suffix: '.html', source: 'config/config.php' });
    assert.deepEqual(project({ 'application/config/config.php': "<?php\n$config['url_suffix'] = 'it\\'s';\n" }).urlSuffix(), { suffix: "it's", source: 'config/config.php' });
    assert.deepEqual(project({ 'application/config/config.php': "<?php\n$config['url_suffix'] = SUFFIX;\n" }).urlSuffix(), { suffix: undefined, source: 'config/config.php sets it otherwise than to a literal' });
  });
});

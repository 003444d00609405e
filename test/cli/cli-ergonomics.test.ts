import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cli } from '../helpers/cli';
import { EXAMPLE_APP, ROOT } from '../helpers/paths';

const BIN = path.join(ROOT, 'bin', 'ci-routes.js');

/** The CLI as a process, run in `cwd`. */
function ciRoutesIn(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const MAIN_ROUTES = `<?php
$route['default_controller'] = 'home';
Route::get('blog/(:num)', 'blog/show/$1', array('as' => 'blog.show'));
Route::post('blog', 'blog/create', array('as' => 'blog.create'));
Route::any('about', 'pages/about', array('as' => 'about'));
Route::get('admin/users/(:any)', 'admin/users/edit/$1');
$route = Route::map($route);
`;

/** A project in a repository of its own: application/ with a module, a url_suffix, a controller. */
function makeProject(dir: string, files: Record<string, string> = {}): string {
  const project = path.join(dir, 'project');
  const all: Record<string, string> = {
    '.git/HEAD': 'ref: refs/heads/main\n',
    'application/config/routes.php': MAIN_ROUTES,
    'application/config/config.php': "<?php\n$config['base_url'] = '';\n$config['url_suffix'] = '.html';\n$config['permitted_uri_chars'] = 'a-z 0-9~%.:_\\-';\n",
    'application/controllers/Pages.php': '<?php class Pages extends CI_Controller { public function about() {} }\n',
    'application/modules/shop/config/routes.php': "<?php\n$route['shop/(:any)'] = 'cart/show/$1';\n$route['shop'] = 'cart';\n",
    'application/modules/shop/controllers/Cart.php': '<?php class Cart extends MX_Controller { public function index() {} public function show($id) {} }\n',
    ...files,
  };
  for (const [rel, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(project, rel)), { recursive: true });
    fs.writeFileSync(path.join(project, rel), text);
  }
  return project;
}

/** The rows of the tables `list` printed: [method, uri], file by file. */
function tableRows(stdout: string): string[][][] {
  const tables: string[][][] = [];
  let rows: string[][] | undefined;
  for (const line of stdout.split('\n')) {
    if (/^METHOD\s+URI/.test(line)) tables.push((rows = []));
    else if (/^\d+( of \d+)? routes?$/.test(line)) rows = undefined;
    else rows?.push(line.split(/\s{2,}/).slice(0, 2));
  }
  return tables;
}

describe('ci-routes: version, help, the application found from the current folder, list filters, match URLs', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-ergonomics-'));
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe('--version', () => {
    const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

    it("prints package.json's version, with --version and -V", () => {
      for (const flag of ['--version', '-V']) {
        const r = ciRoutesIn(dir, flag);
        assert.deepEqual([r.code, r.stdout, r.stderr], [0, `${version}\n`, ''], flag);
      }
      assert.equal(cli(['list', '--version']).stdout, `${version}\n`);
    });

    it('still knows it once bundled into one file and run from elsewhere', async () => {
      const esbuild = await import('esbuild');
      const bundle = path.join(dir, 'ci-routes.js');
      await esbuild.build({ entryPoints: [path.join(ROOT, 'server', 'src', 'cli', 'index.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'cjs', logLevel: 'silent' });
      const r = spawnSync(process.execPath, [bundle, '--version'], { encoding: 'utf8', cwd: dir });
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, `${version}\n`, '']);
    });
  });

  describe('help', () => {
    for (const command of ['list', 'eval', 'match', 'check']) {
      it(`prints ${command}'s own usage for \`${command} --help\` and \`help ${command}\`, and exits 0`, () => {
        const r = cli([command, '--help']);
        assert.equal(r.code, 0);
        assert.equal(r.stderr, '');
        assert.match(r.stdout, new RegExp(`^Usage: ci-routes ${command} `));
        assert.match(r.stdout, /\nOptions:\n/);
        assert.match(r.stdout, new RegExp(`\\nExamples?:\\n(  ci-routes ${command}\\b.*\\n)+$`));
        assert.doesNotMatch(r.stdout, /^Commands:/m);
        assert.deepEqual(cli(['help', command]), r);
        assert.deepEqual(cli(['-h', command]), r);
      });
    }

    it('documents what each command accepts', () => {
      const list = cli(['list', '--help']).stdout;
      for (const option of ['--method', '--path', '--name', '--sort', '--json']) assert.ok(list.includes(`  ${option} `), option);
      assert.match(list, /\(:any\)/);
      assert.match(cli(['match', '--help']).stdout, /--method M\s+the request method \(default GET\)/);
      assert.match(cli(['check', '--help']).stdout, /Without <routes\.php>/);
    });

    it('prints the whole usage for --help and help alone, and keeps the error for an unknown command', () => {
      for (const args of [['--help'], ['help']]) {
        const r = cli(args);
        assert.equal(r.code, 0);
        assert.match(r.stdout, /^ci-routes: CodeIgniter 3 route files/);
        assert.match(r.stdout, /\nCommands:\n/);
      }
      for (const args of [['frobnicate'], ['frobnicate', '--help'], ['help', 'frobnicate'], ['frobnicate', '--path', 'x']]) {
        const r = cli(args);
        assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', "ci-routes: unknown command 'frobnicate' (expected list, eval, match, check or help)\n"], args.join(' '));
      }
      const none = cli([]);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /^ci-routes: CodeIgniter 3 route files/);
    });
  });

  describe('list and check without a route file', () => {
    it('list finds the application from its project root, from inside it and from a module, and lists as with its path', () => {
      const project = makeProject(dir);
      const explicit = cli(['list', path.join(project, 'application', 'config', 'routes.php')]);
      assert.equal(explicit.code, 0, explicit.stderr);
      for (const [rel, shown] of [['.', 'application/config/routes.php'], ['application', 'config/routes.php'], ['application/config', 'routes.php'], ['application/modules/shop/controllers', '../../../config/routes.php'], ['application/modules', '../config/routes.php']] as const) {
        const r = ciRoutesIn(path.join(project, rel), 'list');
        assert.equal(r.code, 0, `${rel}: ${r.stderr}`);
        assert.equal(r.stdout.split('  ')[0], shown, rel);
        assert.deepEqual(tableRows(r.stdout), tableRows(explicit.stdout), rel);
      }
      const rows = tableRows(explicit.stdout);
      assert.equal(rows.length, 2);
      assert.deepEqual(rows[1], [['ANY', 'shop/(:any)'], ['ANY', 'shop']]);
    });

    it('list --json from the current folder names the main file relative to it, and applies the options', () => {
      const project = makeProject(dir);
      const r = ciRoutesIn(path.join(project, 'application'), 'list', '--json', '--method', 'POST');
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { file: string; routes: { uri: string }[]; other_files: { file: string }[] };
      assert.equal(out.file, path.join('config', 'routes.php'));
      assert.ok(out.routes.some((x) => x.uri === 'blog'));
      assert.deepEqual(out.other_files.map((o) => path.relative(project, o.file)), [path.join('application', 'modules', 'shop', 'config', 'routes.php')]);
    });

    it('check checks every route file of the application: main and modules', () => {
      const project = makeProject(dir);
      const clean = ciRoutesIn(path.join(project, 'application', 'controllers'), 'check');
      assert.equal(clean.code, 0, clean.stdout + clean.stderr);
      assert.match(clean.stdout, /in 2 route files and \d+ other PHP files(: \d+ warnings?)?\n$/);
      // A module's error fails the run: the module's file was checked, not only the main one.
      fs.writeFileSync(path.join(project, 'application', 'modules', 'shop', 'config', 'routes.php'), "<?php\nRoute::any('shop/(:any)', function ($x) { return 'cart/show/' . $x; });\n$route = Route::map($route);\n");
      const broken = ciRoutesIn(project, 'check', '--json');
      assert.equal(broken.code, 1, broken.stdout + broken.stderr);
      const out = JSON.parse(broken.stdout) as { files: { file: string; kind: string; findings: { severity: string }[] }[] };
      const routeFiles = out.files.filter((f) => f.kind === 'route file');
      assert.deepEqual(routeFiles.map((f) => f.file), [path.join('application', 'config', 'routes.php'), path.join('application', 'modules', 'shop', 'config', 'routes.php')]);
      assert.ok(routeFiles[1]!.findings.some((f) => f.severity === 'error'));
    });

    it("finds an application whose only route file is an environment's, and checks that file (CodeIgniter 3 needs no config/routes.php)", () => {
      const project = path.join(dir, 'env-only');
      fs.mkdirSync(path.join(project, 'application', 'config', 'production'), { recursive: true });
      fs.mkdirSync(path.join(project, 'application', 'controllers'), { recursive: true });
      fs.writeFileSync(path.join(project, 'application', 'config', 'production', 'routes.php'), "<?php\n$route['default_controller'] = 'welcome';\n$route['a'] = 'welcome/a';\n$route['a'] = 'welcome/b';\n");
      fs.writeFileSync(path.join(project, 'application', 'controllers', 'Welcome.php'), '<?php class Welcome extends CI_Controller { public function index() {} public function a() {} public function b() {} }');
      const r = ciRoutesIn(path.join(project, 'application', 'controllers'), 'check', '--json');
      const out = JSON.parse(r.stdout) as { files: { file: string; kind: string; findings: { code: string }[] }[] };
      const routeFiles = out.files.filter((f) => f.kind === 'route file');
      // Shown relative to the folder it was run in.
      assert.deepEqual(routeFiles.map((f) => [f.file, f.findings.map((x) => x.code)]), [[path.join('..', 'config', 'production', 'routes.php'), ['duplicate-route']]]);
      // Given its absent config/routes.php, it names the environments' files instead.
      const given = ciRoutesIn(project, 'check', path.join('application', 'config', 'routes.php'));
      assert.equal(given.code, 2);
      assert.match(given.stderr, /no such file \(the application's routes are in '.*production\/routes\.php', its environments' route files, which CodeIgniter reads without a config\/routes\.php/);
    });

    it('fails with exit 2 and says where it looked when no application is found', () => {
      // A repository of its own: the search stops at its root.
      const repo = path.join(dir, 'repo');
      fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
      fs.mkdirSync(path.join(repo, 'src', 'lib'), { recursive: true });
      for (const command of ['list', 'check']) {
        const r = ciRoutesIn(path.join(repo, 'src', 'lib'), command);
        assert.equal(r.code, 2, command);
        assert.equal(r.stdout, '');
        assert.equal(
          r.stderr,
          `ci-routes: no CodeIgniter application here: neither config/routes.php nor application/config/routes.php (nor an environment's, config/production/routes.php and the like) in ${fs.realpathSync(path.join(repo, 'src', 'lib'))} or a folder above it up to ${fs.realpathSync(repo)}, the repository's root; run ci-routes ${command} inside an application, or give the route file: ci-routes ${command} path/to/application/config/routes.php\n`,
        );
      }
      const atRoot = ciRoutesIn(repo, 'list');
      assert.match(atRoot.stderr, new RegExp(`in ${fs.realpathSync(repo).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; run`));
    });

    it('never takes an application above the repository the current folder is in', () => {
      makeProject(dir);
      // dir/project/application exists, but dir/project/tools is a repository of its own.
      const tools = path.join(dir, 'project', 'tools');
      fs.mkdirSync(path.join(tools, 'bin'), { recursive: true });
      fs.writeFileSync(path.join(tools, '.git'), 'gitdir: ../.git/worktrees/tools\n');
      assert.equal(ciRoutesIn(path.join(tools, 'bin'), 'list').code, 2);
      // Without that .git file the project's application is found.
      fs.rmSync(path.join(tools, '.git'));
      assert.equal(ciRoutesIn(path.join(tools, 'bin'), 'list').code, 0);
    });

    it('reads nothing outside the project found (a module linked from elsewhere) unless --follow-symlinks, in list and check', function () {
      const project = makeProject(dir);
      const outside = path.join(dir, 'outside', 'extras');
      fs.mkdirSync(path.join(outside, 'config'), { recursive: true });
      fs.writeFileSync(path.join(outside, 'config', 'routes.php'), "<?php\n$route['extras'] = 'extras/index';\n");
      try {
        fs.symlinkSync(outside, path.join(project, 'application', 'modules', 'extras'), 'dir');
      } catch {
        this.skip();
      }
      const fenced = ciRoutesIn(project, 'list', '--json');
      assert.equal(fenced.code, 0, fenced.stderr);
      assert.deepEqual((JSON.parse(fenced.stdout) as { other_files: { module: string }[] }).other_files.map((o) => o.module), ['shop']);
      const followed = ciRoutesIn(project, 'list', '--json', '--follow-symlinks');
      assert.deepEqual((JSON.parse(followed.stdout) as { other_files: { module: string }[] }).other_files.map((o) => o.module), ['extras', 'shop']);
      // check leaves the linked module out of the route files it finds, rather than failing to read it.
      const checkedFiles = (...args: string[]) => {
        const r = ciRoutesIn(project, 'check', '--json', ...args);
        assert.equal(r.stderr, '', args.join(' '));
        return (JSON.parse(r.stdout) as { files: { file: string; kind: string }[] }).files.filter((f) => f.kind === 'route file').map((f) => path.basename(path.dirname(path.dirname(f.file))));
      };
      assert.deepEqual(checkedFiles(), ['application', 'shop']);
      assert.deepEqual(checkedFiles('--follow-symlinks'), ['application', 'extras', 'shop']);
    });
  });

  describe('list --path, --name, --sort', () => {
    let routes: string;
    const list = (...args: string[]) => {
      const r = cli(['list', routes, ...args]);
      assert.equal(r.code, 0, r.stderr);
      return r;
    };
    const json = (...args: string[]) => JSON.parse(list(...args, '--json').stdout) as { routes: { uri: string; names: string[]; methods: string[] }[]; other_files: { routes: { uri: string }[] }[] };

    beforeEach(() => {
      routes = path.join(makeProject(dir), 'application', 'config', 'routes.php');
    });

    it('--path keeps the routes whose URI pattern is the glob or matches it; parentheses are plain text', () => {
      const uris = (glob: string) => json('--path', glob).routes.map((r) => r.uri);
      assert.deepEqual(uris('blog/*'), ['blog/(:num)']);
      assert.deepEqual(uris('blog/(:num)'), ['blog/(:num)']);
      assert.deepEqual(uris('blog{,/**}'), ['blog/(:num)', 'blog']);
      assert.deepEqual(uris('**/(:any)'), ['admin/users/(:any)']);
      assert.deepEqual(uris('/about'), ['about']);
      assert.deepEqual(uris('a*'), ['about']);
      assert.deepEqual(uris('default_controller'), ['default_controller']);
      assert.deepEqual(uris('nothing/**'), []);
    });

    it('--name keeps the routes with a name that is the glob or matches it', () => {
      assert.deepEqual(json('--name', 'blog.*').routes.map((r) => r.uri), ['blog/(:num)', 'blog']);
      assert.deepEqual(json('--name', 'about').routes.map((r) => r.uri), ['about']);
      assert.deepEqual(json('--name', '*').routes.map((r) => r.names[0]), ['blog.show', 'about', 'blog.create']);
    });

    it('--sort orders by URI pattern, by name (unnamed last), or keeps the table’s order', () => {
      const table = json().routes.map((r) => r.uri);
      assert.deepEqual(json('--sort', 'file').routes.map((r) => r.uri), table);
      assert.deepEqual(json('--sort', 'uri').routes.map((r) => r.uri), ['about', 'admin/users/(:any)', 'blog', 'blog/(:num)', 'default_controller']);
      assert.deepEqual(json('--sort', 'name').routes.map((r) => r.uri).slice(0, 3), ['about', 'blog', 'blog/(:num)']);
      assert.deepEqual(json('--sort', 'name', '--name', 'blog.*').routes.map((r) => r.names[0]), ['blog.create', 'blog.show']);
      const text = list('--sort', 'uri', '--method', 'GET').stdout;
      assert.deepEqual(tableRows(text)[0], [['GET', 'about'], ['GET', 'admin/users/(:any)'], ['GET', 'blog/(:num)']]);
    });

    it('filters the other route files’ tables too, in text and JSON, and counts what is shown', () => {
      assert.deepEqual(json('--path', 'shop/*').other_files.map((o) => o.routes.map((r) => r.uri)), [['shop/(:any)']]);
      assert.deepEqual(json('--path', 'shop/*').routes, []);
      assert.deepEqual(json('--sort', 'uri').other_files.map((o) => o.routes.map((r) => r.uri)), [['shop', 'shop/(:any)']]);
      const text = list('--path', 'blog{,/**}').stdout;
      assert.match(text, /^2 of 4 routes$/m);
      assert.match(text, /^0 of 2 routes$/m);
      assert.doesNotMatch(text, /^default_controller =/m);
      assert.doesNotMatch(text, /^ANY\s+shop/m);
      const all = list().stdout;
      assert.match(all, /^4 routes$/m);
      assert.match(all, /^default_controller = home$/m);
    });

    it('refuses a bad order, and the filters with another command, with exit 2', () => {
      const bad = cli(['list', routes, '--sort', 'size']);
      assert.deepEqual([bad.code, bad.stderr], [2, "ci-routes: unknown --sort order 'size' (expected file, uri or name)\n"]);
      assert.deepEqual(cli(['match', routes, '--path', 'x', 'about']).stderr, 'ci-routes: --path applies to list only\n');
      assert.deepEqual(cli(['check', routes, '--sort', 'uri']).code, 2);
      assert.deepEqual(cli(['list', routes, '--path', '']).stderr, "ci-routes: --path expects a pattern, got ''\n");
    });
  });

  describe('match: GET by default, URLs as pasted from a browser', () => {
    type Result = { uri: string; routed_uri?: string; main_matched_key: string | null; class: string | null };
    const matchJson = (routes: string, ...args: string[]) => {
      const r = cli(['match', routes, '--json', ...args]);
      return { code: r.code, out: JSON.parse(r.stdout) as { method: string; url_suffix: string | null; url_suffix_source: string; results: Result[] } };
    };

    it('routes GET without --method', () => {
      const routes = path.join(makeProject(dir), 'application', 'config', 'routes.php');
      const get = matchJson(routes, 'blog', 'blog/12');
      assert.equal(get.out.method, 'GET');
      // `blog` is POST's only.
      assert.deepEqual(get.out.results.map((r) => r.main_matched_key), [null, 'blog/(:num)']);
      assert.deepEqual(matchJson(routes, '--method', 'POST', 'blog').out.results.map((r) => r.main_matched_key), ['blog']);
      const text = cli(['match', routes, 'about']);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^GET \/about$/m);
    });

    it("says how an error page and an empty target end, in CodeIgniter's words", () => {
      const root = path.join(dir, 'no-home');
      fs.mkdirSync(path.join(root, 'application', 'config'), { recursive: true });
      fs.mkdirSync(path.join(root, 'application', 'controllers'));
      const routes = path.join(root, 'application', 'config', 'routes.php');
      fs.writeFileSync(routes, "<?php\n$route['old'] = '';\n$route['404_override'] = '';\n");
      const home = cli(['match', routes, '/']).stdout;
      assert.match(home, /error\s+show_error\(500\): Unable to determine what should be displayed/);
      assert.doesNotMatch(home, /Oracle/);
      const list = cli(['list', routes]).stdout;
      assert.match(list, /^ANY\s+old\s+'' \(the default controller\)/m);
      assert.match(list, /^ANY\s+404_override\s+'' \(no override\)/m);
    });

    it('lists a verb array under the methods it routes only, as CodeIgniter skips it for the others', () => {
      const root = path.join(dir, 'verbs');
      fs.mkdirSync(path.join(root, 'application', 'config'), { recursive: true });
      const routes = path.join(root, 'application', 'config', 'routes.php');
      fs.writeFileSync(routes, "<?php\n$route['default_controller'] = 'welcome';\n$route['api/x']['GET'] = 'api/read';\n$route['api/x']['POST'] = 'api/write';\n");
      assert.match(cli(['list', routes]).stdout, /^GET\|POST\s+api\/x\s+GET → api\/read, POST → api\/write/m);
      const head = cli(['list', routes, '--method', 'HEAD']).stdout;
      assert.doesNotMatch(head, /api\/x/);
      assert.match(cli(['list', routes, '--method', 'POST']).stdout, /^POST\s+api\/x/m);
    });

    it('reads full URLs: scheme, host, a sub-folder’s index.php, the url_suffix, the query string', () => {
      const routes = path.join(makeProject(dir), 'application', 'config', 'routes.php');
      const { out } = matchJson(routes, 'http://localhost/app/index.php/blog/12?x=1', 'https://example.com/about.html#top', 'http://localhost/index.php?/about.html', '/index.php/admin/users/7.html/', 'blog/12');
      assert.deepEqual([out.url_suffix, out.url_suffix_source], ['.html', 'config/config.php']);
      assert.deepEqual(
        out.results.map((r) => [r.uri, r.routed_uri, r.main_matched_key]),
        [
          ['http://localhost/app/index.php/blog/12?x=1', 'blog/12', 'blog/(:num)'],
          ['https://example.com/about.html#top', 'about', 'about'],
          ['http://localhost/index.php?/about.html', 'about', 'about'],
          ['/index.php/admin/users/7.html/', 'admin/users/7', 'admin/users/(:any)'],
          ['blog/12', undefined, 'blog/(:num)'],
        ],
      );
      const text = cli(['match', routes, 'http://localhost/app/index.php/about.html?x=1']).stdout;
      assert.match(text, /^GET http:\/\/localhost\/app\/index\.php\/about\.html\?x=1\n {2}routed as {4}\/about\n {2}main route {3}about /m);
      assert.match(text.split('\n')[0]!, /url_suffix \.html \(config\/config\.php\)/);
    });

    it('cuts no suffix it cannot know, and says so', () => {
      const routes = path.join(makeProject(dir, { 'application/config/config.php': "<?php\n$config['url_suffix'] = SUFFIX;\n" }), 'application', 'config', 'routes.php');
      const { out } = matchJson(routes, 'about.html');
      assert.deepEqual([out.url_suffix, out.url_suffix_source], [null, 'config/config.php sets it otherwise than to a literal']);
      assert.deepEqual(out.results.map((r) => [r.routed_uri, r.main_matched_key]), [[undefined, null]]);
      assert.match(cli(['match', routes, 'about']).stdout.split('\n')[0]!, /url_suffix unknown \(config\/config\.php sets it otherwise than to a literal\): not cut from URIs/);
    });

    it('keeps the example application’s answers for URIs typed as before', () => {
      const routes = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');
      const { code, out } = matchJson(routes, 'about', '/index.php/about');
      assert.equal(code, 0);
      assert.deepEqual(out.results.map((r) => [r.main_matched_key, r.class]), [['about', 'Pages'], ['about', 'Pages']]);
      assert.equal(out.url_suffix, '');
    });
  });
});

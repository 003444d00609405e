import * as assert from 'node:assert/strict';
import { evaluateRouteFile, type FileEvaluation } from '../../shared/evaluate/evaluate-file';
import type { IncludeFiles } from '../../shared/evaluate/includes';
import { PhpArray, Unknown } from '../../shared/runtime/values';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { StatementParser } from '../../shared/php/parse';
import { evaluationTrace } from '../helpers/evaluation-trace';
import { undecidedConditions } from '../../shared/analysis/model/route-table';

/** Files in memory, by absolute path; relative paths are taken from the includer's folder (glob()'s from the folder given). */
function memoryFiles(files: Record<string, string>, workingDir?: string): IncludeFiles {
  const resolve = (p: string, from: string) => (p.startsWith('/') ? p : `${from.slice(0, from.lastIndexOf('/'))}/${p}`);
  return {
    ...(workingDir === undefined ? {} : { workingDir }),
    read: (p, from) => {
      const file = resolve(p.replace(/\/\.\//g, '/'), from);
      return file in files ? { file, text: files[file] } : { unreadable: 'no such file', missing: true };
    },
    glob: (pattern, baseDir) => {
      const full = resolve(pattern, `${baseDir.replace(/\/$/, '')}/`);
      const re = new RegExp(`^${full.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);
      return Object.keys(files).filter((f) => re.test(f)).sort();
    },
    list: (dir) => {
      const prefix = dir.endsWith('/') ? dir : `${dir}/`;
      const names = new Set(Object.keys(files).filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length).split('/')[0]!));
      return names.size ? ['..', ...[...names].reverse(), '.'] : { missing: true };
    },
    kind: (file) => (file in files ? 'file' : Object.keys(files).some((f) => f.startsWith(`${file.replace(/\/$/, '')}/`)) ? 'dir' : 'none'),
  };
}

const MAIN = '/app/application/config/routes.php';
const APPPATH = new Map([['APPPATH', '/app/application/']]);

function table(evaluation: FileEvaluation): [string, string][] {
  const routes = evaluation.methods[0].routes;
  assert.ok(routes instanceof PhpArray);
  return [...routes.entries()].map(([k, v]) => [String(k), String(v)]);
}

describe('scandir(), is_dir(), is_file() and file_exists() within the project', () => {
  // The loop of a real application's main routes file: every module's routes file required.
  const loop = [
    '<?php',
    "$route['default_controller'] = 'pages';",
    "$modules_path = APPPATH . 'modules/';",
    '$modules = scandir($modules_path);',
    'foreach ($modules as $module) {',
    "    if ($module === '.' || $module === '..') continue;",
    "    if (is_dir($modules_path . $module)) {",
    "        $routes_path = $modules_path . $module . '/config/routes.php';",
    '        if (file_exists($routes_path)) {',
    '            require($routes_path);',
    '        }',
    '    }',
    '}',
    '',
  ].join('\n');
  const files = memoryFiles({
    '/app/application/modules/shop/config/routes.php': "<?php\n$route['cart'] = 'shop/cart';\n",
    '/app/application/modules/auth/config/routes.php': "<?php\n$route['login'] = 'auth/login';\n",
    '/app/application/modules/blog/controllers/Blog.php': '<?php class Blog {}',
  });

  it('lists a folder sorted by bytes and tests paths, so a loop requiring every module\'s routes file is evaluated', () => {
    const e = evaluateRouteFile(loop, { file: MAIN, constants: APPPATH, includes: files });
    assert.deepStrictEqual(e.problems, []);
    assert.deepStrictEqual(table(e), [['default_controller', 'pages'], ['login', 'auth/login'], ['cart', 'shop/cart']]);
    assert.deepStrictEqual(e.included.map((f) => f.path), ['/app/application/modules/auth/config/routes.php', '/app/application/modules/shop/config/routes.php']);
  });

  it("answers scandir()'s orders, false for a missing folder, and leaves relative paths and unsorted listings unknown", () => {
    const e = evaluateRouteFile(
      [
        '<?php',
        "$route['up'] = implode(',', scandir(APPPATH . 'modules'));",
        "$route['down'] = implode(',', scandir(APPPATH . 'modules', SCANDIR_SORT_DESCENDING));",
        "$route['missing'] = scandir(APPPATH . 'nothing') === false ? 'false' : 'a list';",
        "$route['tests'] = (is_dir(APPPATH . 'modules/blog') ? 'd' : '-') . (is_file(APPPATH . 'modules/blog') ? 'f' : '-') . (file_exists(APPPATH . 'modules/blog/controllers/Blog.php') ? 'e' : '-') . (file_exists(APPPATH . 'nothing') ? 'e' : '-');",
        "$route[scandir('modules')[0]] = 'relative';",
        '',
      ].join('\n'),
      { file: MAIN, constants: APPPATH, includes: files },
    );
    const t = new Map(table(e));
    assert.equal(t.get('up'), '.,..,auth,blog,shop');
    assert.equal(t.get('down'), 'shop,blog,auth,..,.');
    assert.equal(t.get('missing'), 'false');
    assert.equal(t.get('tests'), 'd-e-');
    assert.ok([...t.keys()].some((k) => k.startsWith('\u0000dynamic:')), 'the relative scandir() is unknown');
  });
});

describe('include and require', () => {
  it('runs the included file in the includer scope, its routes carrying their file', () => {
    const files = memoryFiles({ '/app/application/config/routes/admin.php': "<?php\n$route['admin'] = $prefix . 'dashboard';\n$seen = true;\n" });
    const e = evaluateRouteFile("<?php\n$prefix = 'admin/';\nrequire APPPATH . 'config/routes/admin.php';\n$route['after'] = $seen ? 'yes' : 'no';\n", { file: MAIN, constants: APPPATH, includes: files });
    assert.deepStrictEqual(table(e), [['admin', 'admin/dashboard'], ['after', 'yes']]);
    assert.deepStrictEqual(e.problems, []);
    assert.deepStrictEqual(e.included.map((f) => f.path), ['/app/application/config/routes/admin.php']);
  });

  it('Route:: calls in an included file know their file and line', () => {
    const files = memoryFiles({ '/app/application/config/api.php': "<?php\n\nRoute::get('api/users', 'api/users/index');\n" });
    const e = evaluateRouteFile("<?php\ninclude __DIR__ . '/api.php';\n$route = Route::map($route ?? []);\n", { file: MAIN, includes: files });
    const record = e.methods[0].library.created[0];
    const site = e.places.site(record.site);
    assert.equal(site.span.file?.path, '/app/application/config/api.php');
    assert.ok(site.span.file?.text.slice(site.span.start, site.span.end).startsWith("Route::get('api/users', 'api/users/index')"));
    assert.equal(site.span.file?.includedAt.start, 6);
  });

  it('runs an _once file once, and include_once of it again gives true', () => {
    const files = memoryFiles({ '/app/once.php': "<?php\n$n = ($n ?? 0) + 1;\n" });
    const e = evaluateRouteFile("<?php\n$a = include_once '/app/once.php';\n$b = include_once '/app/once.php';\n$route['n'] = \"$n\";\n$route['b'] = var_export($b, true);\n", { file: MAIN, includes: files });
    assert.deepStrictEqual(table(e).slice(0, 1), [['n', '1']]);
  });

  it('gives the included file\'s top-level return as include\'s value, and stops it there', () => {
    const files = memoryFiles({ '/app/r.php': "<?php\n$route['in'] = 'x/y';\nreturn 'value';\n$route['never'] = 'x/z';\n" });
    const e = evaluateRouteFile("<?php\n$route['v'] = include '/app/r.php';\n", { file: MAIN, includes: files });
    assert.deepStrictEqual(table(e), [['in', 'x/y'], ['v', 'value']]);
  });

  describe("paths PHP takes from its working directory (the front controller's folder)", () => {
    const files = {
      '/app/application/config/routes_admin.php': "<?php $route['admin/login'] = 'admin/auth/login';",
      '/app/application/config/routes_shop.php': "<?php $route['shop'] = 'shop/index';",
      '/app/routes_shop.php': "<?php $route['top'] = 'top/index';",
      '/app/application/config/only_here.php': "<?php $route['here'] = 'here/index';",
      '/app/parts/a.php': "<?php $route['a'] = 'a/a';",
    };

    it('reads `dir/file.php` and `./dir/file.php` from the working directory, a bare name there first and then beside the includer', () => {
      const e = evaluateRouteFile(
        "<?php\ninclude 'application/config/routes_admin.php';\ninclude_once './application/config/routes_admin.php';\ninclude 'routes_shop.php';\ninclude 'only_here.php';\n",
        { file: MAIN, includes: memoryFiles(files, '/app') },
      );
      assert.deepStrictEqual(e.problems, []);
      assert.deepStrictEqual(table(e), [['admin/login', 'admin/auth/login'], ['top', 'top/index'], ['here', 'here/index']]);
      assert.deepStrictEqual(e.included.map((f) => f.path), ['/app/application/config/routes_admin.php', '/app/routes_shop.php', '/app/application/config/only_here.php']);
    });

    it('takes glob(), scandir() and file tests of relative paths from the working directory', () => {
      const e = evaluateRouteFile("<?php\nforeach (glob('parts/*.php') as $f) require $f;\n$route['d'] = is_dir('parts') ? 'yes/dir' : 'no/dir';\n", { file: MAIN, includes: memoryFiles(files, '/app') });
      assert.deepStrictEqual(e.problems, []);
      assert.deepStrictEqual(table(e), [['a', 'a/a'], ['d', 'yes/dir']]);
    });

    it('says why when no working directory is known: a `./` path and a relative pattern unknown, a bare name read beside the includer only', () => {
      const e = evaluateRouteFile("<?php\ninclude './application/config/routes_admin.php';\ninclude 'routes_shop.php';\n$route['g'] = glob('parts/*.php');\n", { file: MAIN, includes: memoryFiles(files) });
      const limits = e.problems.filter((p) => p.code === 'evaluation-limit').map((p) => p.message);
      assert.equal(limits.length, 1, limits.join('\n'));
      assert.match(limits[0]!, /cannot be evaluated: PHP takes it from the working directory, the front controller's folder, and no index\.php was found/);
      assert.deepStrictEqual(table(e)[0], ['shop', 'shop/index']);
      const g = e.methods[0].routes!.get('g');
      assert.ok(g instanceof Unknown);
      assert.match(g.reason, /glob\('parts\/\*\.php'\) cannot be evaluated: PHP takes it from the working directory/);
    });

    it('names both places when a bare name is in neither', () => {
      const e = evaluateRouteFile("<?php\ninclude 'nowhere.php';\n", { file: MAIN, includes: memoryFiles(files, '/app') });
      assert.match(e.problems[0]!.message, /no such file in the working directory \/app nor beside \/app\/application\/config\/routes\.php/);
    });
  });

  it('reads a variable unset after an include it could not evaluate as unknown (that file may set it), not as null', () => {
    const e = evaluateRouteFile(
      "<?php\n$known = 'a';\ninclude PLUGIN_DIR . 'plugins.php';\nforeach (array_keys($plugins) as $p) {\n    $route[$p . '/(:any)'] = $p . '/index/$1';\n}\n$route[$known] = 'a/b';\n",
      { file: MAIN, includes: memoryFiles({}) },
    );
    assert.ok(e.methods.every((m) => !m.error), 'no TypeError from array_keys(null)');
    const routes = e.methods[0].routes!;
    assert.equal(routes.get('a'), 'a/b');
    assert.ok([...routes.keys()].some((k) => String(k).startsWith('\u0000dynamic:')), 'the loop over $plugins declares an unknown route');
    assert.ok(![...routes.keys()].some((k) => String(k).includes('include-not-run')));
  });

  it('runs glob() loops in sorted order', () => {
    const files = memoryFiles({ '/app/r/b.php': "<?php $route['b'] = 'b/b';", '/app/r/a.php': "<?php $route['a'] = 'a/a';" });
    const e = evaluateRouteFile("<?php\nforeach (glob('/app/r/*.php') as $f) require $f;\n", { file: MAIN, includes: files });
    assert.deepStrictEqual(table(e), [['a', 'a/a'], ['b', 'b/b']]);
  });

  it('reports an include it cannot evaluate at the include, as a limit, and goes on', () => {
    for (const [code, why] of [
      ["include '/app/missing.php';", 'no such file'],
      ['include $nowhere;', 'cannot be known statically'],
      ["include '/app/self.php';", 'a cycle'],
      ["include '/app/broken.php';", 'syntax error'],
    ]) {
      const files = memoryFiles({ '/app/self.php': "<?php include '/app/self.php';", '/app/broken.php': '<?php $route[ = ;' });
      const e = evaluateRouteFile(`<?php\n${code}\n$route['after'] = 'a/b';\n`, { file: MAIN, includes: files });
      assert.deepStrictEqual(table(e), [['after', 'a/b']], code);
      const limits = e.problems.filter((p) => p.code === 'evaluation-limit');
      assert.equal(limits.length, 1, code);
      assert.match(limits[0].message, new RegExp(why), code);
    }
  });

  it('without files to read, an include is reported, not skipped silently', () => {
    const e = evaluateRouteFile("<?php\ninclude 'other.php';\n$route['x'] = 'a/b';\n");
    assert.equal(e.problems.filter((p) => p.code === 'evaluation-limit').length, 1);
  });

  it('puts a finding inside an included file at the include, with the place as related information', () => {
    const files = memoryFiles({ '/app/dup.php': "<?php\nRoute::get('a', 'x/y');\nRoute::get('a', 'x/z');\n" });
    const text = "<?php\ninclude '/app/dup.php';\n$route = Route::map([]);\n";
    const e = evaluateRouteFile(text, { file: MAIN, includes: files });
    const dup = analyzeRouteFile(text, e).find((f) => f.code === 'duplicate-route');
    assert.ok(dup);
    assert.ok(text.slice(dup.span.start, dup.span.end).startsWith("include '/app/dup.php'"));
    assert.equal(dup.related[0].file, '/app/dup.php');
    assert.match(dup.message, /dup\.php line 3/);
  });

  it("parses an included file once while its text stays the same, with the document's parser", () => {
    const parser = new StatementParser();
    const first = parser.parseIncluded('/app/a.php', "<?php $route['a'] = 'one/one';");
    assert.equal(parser.parseIncluded('/app/a.php', "<?php $route['a'] = 'one/one';"), first);
    const changed = parser.parseIncluded('/app/a.php', "<?php $route['a'] = 'two/two';");
    assert.notEqual(changed, first);
    assert.equal(changed.text, "<?php $route['a'] = 'two/two';");
    assert.notEqual(parser.parseIncluded('/app/b.php', "<?php $route['a'] = 'two/two';"), changed, 'another file, its own parse');
    // Edits of the document that includes it: its routes are the included file's each time.
    const evaluator = new DocumentEvaluator({ file: MAIN, includes: memoryFiles({ '/app/a.php': "<?php $route['a'] = 'one/one';" }) });
    assert.deepStrictEqual(table(evaluator.update("<?php\ninclude '/app/a.php';\n$route['b'] = 'x/y';\n")), [['a', 'one/one'], ['b', 'x/y']]);
    assert.deepStrictEqual(table(evaluator.update("<?php\ninclude '/app/a.php';\n$route['b'] = 'x/z';\n")), [['a', 'one/one'], ['b', 'x/z']]);
  });

  it("replays an included file's declarations on each edit of the document, as a fresh evaluation reads them", () => {
    const contents: Record<string, string> = {
      '/app/application/config/routes_legacy.php': "<?php\nRoute::get('old-1', 'pages/one');\n$route['old-2/(:num)'] = 'pages/two/$1';\nRoute::resources('photos', array('as' => 'legacy_photos'));\nRoute::get('old-3', 'pages/three');\n",
      '/app/application/config/development/routes.php': "<?php\nRoute::get('dev', 'pages/dev');\n",
    };
    const options = { file: MAIN, constants: APPPATH, includes: memoryFiles(contents), environmentRoutes: { environment: 'development', path: '/app/application/config/development/routes.php' } };
    const evaluator = new DocumentEvaluator(options);
    const main = (target: string, again = '') => `<?php\nRoute::get('a', '${target}');\ninclude APPPATH . 'config/routes_legacy.php';\n${again}$route = Route::map($route);\n`;
    const moved = (target: string, again = '') => main(target, again).replace("Route::get('a'", "Route::get('old-3'");
    const versions = [
      main('pages/a'),
      main('pages/b'),
      // Above the include, longer: the include moved, and what its file's spans say of it with it (recorded again).
      moved('pages/c'),
      moved('pages/d'),
      // Included twice: its second run runs.
      moved('pages/e', "include APPPATH . 'config/routes_legacy.php';\n"),
      // The included file changed (read again, recorded again), then the document alone.
      moved('pages/f'),
      moved('pages/g'),
    ];
    const replayed: number[] = [];
    versions.forEach((text, v) => {
      if (v === 5) contents['/app/application/config/routes_legacy.php'] = contents['/app/application/config/routes_legacy.php'].replace("'pages/three'", "'pages/four'");
      if (v === 5) assert.equal(evaluator.otherFilesChanged(), true);
      const incremental = evaluator.update(text);
      replayed.push(incremental.statements.replayed);
      assert.deepEqual(evaluationTrace(incremental), evaluationTrace(evaluateRouteFile(text, options)), `version ${v}`);
    });
    // Replayed once recorded under the same include: the included file's declarations (the environment's file follows the document's end).
    assert.deepEqual(replayed.map((n) => n > 0), [false, true, false, true, true, false, true]);
    assert.ok(replayed[1] >= 4, `replayed ${replayed[1]}`);
  });

  it("places an included file's undecidable conditions in that file, apart from the including file's at the same offsets", () => {
    const inc = "<?php\nif ($m->ok) { $route['b'] = 'x/b'; }\n";
    const options = { file: MAIN, includes: memoryFiles({ '/app/inc.php': inc }) };
    // The main file's condition starts where the included one's does: offset 6.
    const text = "<?php\nif ($m->ok) { $route['a'] = 'x/a'; }\ninclude '/app/inc.php';\n";
    const conditions = undecidedConditions(evaluateRouteFile(text, options)).map((c) => `${c.span.file?.path ?? 'main'}:${c.span.start}`);
    assert.deepEqual(conditions, ['main:6', '/app/inc.php:6']);
  });

  it("replays nothing of an included file after a statement that left the state unclean, as the main loop does", () => {
    const options = { file: MAIN, includes: memoryFiles({ '/app/inc.php': "<?php\nRoute::get('a', 'x/a');\nif ($host) { $_SERVER['HTTP_HOST'] = 'h'; }\nRoute::get('b', 'x/b');\n" }) };
    const evaluator = new DocumentEvaluator(options);
    const replayed = [0, 1].map((host) => {
      const text = `<?php\n$host = ${host};\ninclude '/app/inc.php';\n$route = Route::map($route);\n`;
      const incremental = evaluator.update(text);
      assert.deepEqual(evaluationTrace(incremental), evaluationTrace(evaluateRouteFile(text, options)));
      return incremental.statements.replayed;
    });
    // Once $_SERVER is written, `b` runs: only `a` is replayed.
    assert.deepEqual(replayed, [0, 1]);
  });

  it('a document evaluated again after other files changed reads them again', () => {
    const contents: Record<string, string> = { '/app/a.php': "<?php $route['a'] = 'one/one';" };
    const evaluator = new DocumentEvaluator({ file: MAIN, includes: memoryFiles(contents) });
    const text = "<?php\ninclude '/app/a.php';\n";
    assert.deepStrictEqual(table(evaluator.update(text)), [['a', 'one/one']]);
    contents['/app/a.php'] = "<?php $route['a'] = 'two/two';";
    assert.deepStrictEqual(table(evaluator.update(text)), [['a', 'one/one']], 'the same text, nothing said: the same evaluation');
    assert.equal(evaluator.otherFilesChanged(), true);
    assert.deepStrictEqual(table(evaluator.update(text)), [['a', 'two/two']]);
  });
});

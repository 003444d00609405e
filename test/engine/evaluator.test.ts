import * as assert from 'node:assert/strict';
import { evaluateRouteFile, type FileEvaluation } from '../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS } from '../../shared/runtime/methods';
import { outcomeToJson } from '../../shared/evaluate/outcome-json';
import type { RouteRecord } from '../../shared/library/records';

const GET = REQUEST_METHODS.indexOf('GET');
const POST = REQUEST_METHODS.indexOf('POST');

/** Evaluates both ways (all methods together, each alone) and checks they agree. */
function evaluate(php: string, options: Parameters<typeof evaluateRouteFile>[1] = {}): FileEvaluation {
  const together = evaluateRouteFile(php, options);
  const alone = evaluateRouteFile(php, { ...options, perMethod: true });
  for (let m = 0; m < REQUEST_METHODS.length; m++) {
    assert.deepStrictEqual(outcomeToJson(together.methods[m]), outcomeToJson(alone.methods[m]), `${REQUEST_METHODS[m]}: shared and per-method evaluations differ`);
  }
  return together;
}

function routes(ev: FileEvaluation, m = GET): [string, unknown][] {
  return outcomeToJson(ev.methods[m]).routes ?? [];
}

describe('evaluator: the PHP subset of route files', () => {
  it('keeps going past defined(BASEPATH) OR exit()', () => {
    const ev = evaluate("<?php\ndefined('BASEPATH') OR exit('No direct script access allowed');\n$route['a'] = 'b/c';\n");
    assert.deepStrictEqual(routes(ev), [['a', 'b/c']]);
  });

  it("merges $route after Route::map() entry by entry when an undecidable branch writes to it (Bonfire 0.8's stock routes.php ends so)", () => {
    const ev = evaluate("<?php\n$route['default_controller'] = 'home';\nRoute::any('a', 'b/c');\n$route = Route::map($route);\nif (rand(0, 1)) {\n    $route['translate_uri_dashes'] = false;\n}\n");
    for (const m of [GET, POST]) assert.deepStrictEqual(routes(ev, m), [['default_controller', 'home'], ['a', 'b/c'], ['translate_uri_dashes', false]]);
  });

  it('evaluates variables, interpolation, heredoc, nowdoc and concatenation', () => {
    const php = `<?php
$area = 'admin';
$parts = ['users' => 'people'];
$route["$area/x"] = "{$parts['users']}/index";
$route[$area . '/y'] = <<<EOT
{$area}/y
EOT;
$route['n'] = <<<'EOT'
raw/$area
EOT;
`;
    assert.deepStrictEqual(routes(evaluate(php)), [['admin/x', 'people/index'], ['admin/y', 'admin/y'], ['n', 'raw/$area']]);
  });

  it('casts canonical integer keys and keeps insertion order', () => {
    const ev = evaluate("<?php\n$route['404'] = 'a';\n$route['007'] = 'b';\n$route['-5'] = 'c';\n$route[' 1'] = 'd';\n");
    assert.deepStrictEqual(routes(ev), [['404', 'a'], ['007', 'b'], ['-5', 'c'], [' 1', 'd']]);
  });

  it('reads integer, octal, hex and float literals', () => {
    const ev = evaluate("<?php\n$route['a'] = 0644;\n$route['b'] = 0x1F;\n$route['c'] = 1_000;\n$route['d'] = 1.5;\n");
    assert.deepStrictEqual(routes(ev), [['a', 420], ['b', 31], ['c', 1000], ['d', 1.5]]);
  });

  it('uses define(), const and constants given by the caller', () => {
    const ev = evaluate("<?php\ndefine('AREA', 'admin');\nconst SHOP = 'store';\nRoute::any(AREA . '/' . SHOP, 'x/' . GIVEN);\n$route = Route::map($route);\n", { constants: new Map([['GIVEN', 'y']]) });
    assert.deepStrictEqual(routes(ev), [['admin/store', 'x/y']]);
  });

  it('loops with foreach over known arrays and decides known conditions', () => {
    const php = `<?php
foreach (array('news' => 'articles', 'faq' => 'help') as $path => $controller) {
    if ($path === 'faq') { Route::get($path, "$controller/index"); }
    elseif (strlen($path) > 10) { Route::get('never', 'x/y'); }
    else { Route::any($path, $controller . '/list'); }
}
Route::any(true ? 'yes' : 'no', 'a/b');
$route = Route::map($route);
`;
    assert.deepStrictEqual(routes(evaluate(php)), [['news', 'articles/list'], ['faq', 'help/index'], ['yes', 'a/b']]);
  });

  it('calls pure builtins', () => {
    const php = "<?php\nRoute::any(strtolower('ABC') . '/' . implode('-', ['a', 'b']), sprintf('%s/%d', trim('  c  '), 5));\n$route = Route::map($route);\n";
    assert.deepStrictEqual(routes(evaluate(php)), [['abc/a-b', 'c/5']]);
  });

  it('marks routes declared under an undecidable condition as conditional, evaluating both branches', () => {
    const ev = evaluate("<?php\nif (ENVIRONMENT === 'production') { Route::any('a', 'x/a'); } else { Route::any('b', 'x/b'); }\n$route = Route::map($route);\n");
    assert.deepStrictEqual(routes(ev).map(([k]) => k), ['a', 'b']);
    const created = ev.methods[GET].library.created as RouteRecord[];
    assert.ok(created.every((r) => r.conditional));
    assert.notDeepStrictEqual(created[0].branches, created[1].branches);
    assert.ok(ev.problems.some((p) => p.code === 'unknown-value'));
  });

  it('marks routes with an unknown $from or $to as dynamic, with the reason', () => {
    const ev = evaluate("<?php\nRoute::any(some_helper(), 'x/y');\nRoute::any('known', $undefinedTarget ?? config_item('x'));\n$route = Route::map($route);\n");
    const created = ev.methods[GET].library.created;
    assert.equal(created.length, 2);
    assert.ok(created.every((r) => r.dynamic));
  });

  it('evaluates closures given to prefix() and as $nested', () => {
    const php = "<?php\nRoute::prefix('api', function () { Route::get('users', 'users/index'); });\nRoute::any('clubs', 'clubs/index', array(), function () { Route::any('members', 'members/index'); });\n$route = Route::map($route);\n";
    assert.deepStrictEqual(routes(evaluate(php)), [['api/users', 'users/index'], ['clubs', 'clubs/index'], ['clubs/members', 'members/index']]);
  });

  it('keeps closures and verb arrays assigned to $route', () => {
    const php = "<?php\n$route = Route::map($route ?? []);\n$route['v/(:num)'] = array('GET' => 'v/read/$1', 'post' => 'v/write/$1');\n$route['c'] = function ($x) { return 'c/' . $x; };\n$route['off'] = FALSE;\n";
    assert.deepStrictEqual(routes(evaluate(php)), [['v/(:num)', { '<array>': [['GET', 'v/read/$1'], ['post', 'v/write/$1']] }], ['c', '<callable>'], ['off', false]]);
  });

  it('gives each request method its own table when code depends on it', () => {
    const php = "<?php\nif ($_SERVER['REQUEST_METHOD'] === 'POST') { Route::any('form', 'form/send'); } else { Route::any('form', 'form/show'); }\n$route = Route::map($route);\n";
    const ev = evaluate(php);
    assert.equal(ev.mode, 'per-method');
    assert.deepStrictEqual(routes(ev, GET), [['form', 'form/show']]);
    assert.deepStrictEqual(routes(ev, POST), [['form', 'form/send']]);
  });

  it("decides CodeIgniter's is_cli() per table: true on the command line, false for a web request; an application's own is_cli() wins", () => {
    const php = "<?php\n$route['default_controller'] = 'welcome';\nif (is_cli()) { $route['default_controller'] = 'tasks'; }\n";
    const ev = evaluate(php);
    assert.deepStrictEqual(routes(ev, GET), [['default_controller', 'welcome']]);
    assert.deepStrictEqual(routes(ev, REQUEST_METHODS.indexOf('CLI')), [['default_controller', 'tasks']]);
    assert.deepStrictEqual(ev.problems, []);
    const own = evaluate(`<?php\nfunction is_cli() { return true; }\n${php.slice(6)}`);
    assert.deepStrictEqual(routes(own, GET), [['default_controller', 'tasks']]);
  });

  it('reports the fatal errors of missing methods as PHP does', () => {
    for (const [call, message] of [
      ["Route::resource('x');", 'Call to undefined method Route::resource()'],
      ["Route::all('x', 'y');", 'Call to undefined method Route::all()'],
    ]) {
      const ev = evaluate(`<?php\n${call}\n$route = Route::map($route);\n`);
      assert.deepStrictEqual(outcomeToJson(ev.methods[GET]).error, { class: 'Error', message });
    }
  });
});

describe('evaluator: limits and broken code', () => {
  it('ends while (true) {} with an evaluation-limit problem instead of hanging', () => {
    const ev = evaluateRouteFile("<?php\nRoute::any('a', 'b/c');\nwhile (true) {}\nRoute::any('never', 'x/y');\n", { maxSteps: 10_000 });
    assert.ok(ev.problems.some((p) => p.code === 'evaluation-limit'));
    assert.deepStrictEqual([...ev.methods[GET].library.routes.keys()], ['a']);
  });

  it('ends endless recursion with an evaluation-limit problem', () => {
    const ev = evaluateRouteFile("<?php\n$f = function () use (&$f) { $f(); };\nfunction again() { return again(); }\nagain();\n");
    assert.ok(ev.problems.some((p) => p.code === 'evaluation-limit'));
  });

  it('survives 2,000 nested arrays and parentheses', () => {
    const deep = `<?php\n$a = ${'['.repeat(2000)}1${']'.repeat(2000)};\n$b = ${'('.repeat(2000)}1${')'.repeat(2000)};\nRoute::any('after', 'x/y');\n`;
    const ev = evaluateRouteFile(deep);
    assert.ok(ev.methods[GET].library.routes.has('after'));
  });

  it('keeps the routes around a broken statement', () => {
    const php = "<?php\nRoute::any('before', 'a/b');\nRoute::any('broken', 'a/b';\n$x = ();\nRoute::any('after', 'c/d');\n$route = Route::map($route);\n";
    const ev = evaluateRouteFile(php);
    assert.ok(ev.parsed.problems.length >= 2);
    assert.equal(ev.methods[GET].error?.class, 'ParseError');
    // The half-typed call is still recovered as a declaration; the statement php-parser cannot parse is skipped.
    assert.deepStrictEqual([...ev.methods[GET].library.routes.keys()], ['before', 'broken', 'after']);
  });

  it('recovers from an unterminated string without losing the next statements', () => {
    const php = "<?php\nRoute::any('a', 'x/a');\nRoute::any('b, 'x/b');\nRoute::any('c', 'x/c');\n$route = Route::map($route);\n";
    const ev = evaluateRouteFile(php);
    assert.ok([...ev.methods[GET].library.routes.keys()].includes('c'));
  });
});

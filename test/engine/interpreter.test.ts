import * as assert from 'node:assert/strict';
import { evaluateRouteFile, type EvaluateOptions, type FileEvaluation, type MethodResult } from '../../shared/evaluate/evaluate-file';
import { PhpClosure, Unknown, type Key, type PhpArray } from '../../shared/runtime/values';
import { BUILTINS_WITH_SIGNATURE } from '../../shared/runtime/builtin-signatures';
import type { EntryOriginInfo } from '../../shared/library/records';
import { builtinNames } from '../../shared/runtime/builtins';
import { StatementParser } from '../../shared/php/parse';
import { REQUEST_METHODS, type RequestMethod } from '../../shared/runtime/methods';
import { outcomeToJson, valueToJson, type JsonValue } from '../../shared/evaluate/outcome-json';
import type { AssignmentOrigin, RouteRecord } from '../../shared/library/records';

/**
 * Evaluates a route file the default way (all methods in one pass) and each method alone, asserts
 * that both give the same outcome for every method, and returns the default evaluation.
 */
function run(src: string, options: EvaluateOptions = {}): FileEvaluation {
  // One parser for both: the second evaluation reuses the parsed statements.
  const parser = options.parser ?? new StatementParser();
  const shared = evaluateRouteFile(src, { ...options, parser });
  const alone = evaluateRouteFile(src, { ...options, parser, perMethod: true });
  assert.equal(alone.mode, 'per-method');
  for (let m = 0; m < REQUEST_METHODS.length; m++) {
    assert.deepStrictEqual(
      outcomeToJson(shared.methods[m]),
      outcomeToJson(alone.methods[m]),
      `${REQUEST_METHODS[m]}: the shared evaluation differs from evaluating the method alone`,
    );
  }
  return shared;
}

function method(ev: FileEvaluation, m: RequestMethod = 'GET'): MethodResult {
  return ev.methods[REQUEST_METHODS.indexOf(m)];
}

/** An array's entries (or the library's table of routes); keys keep their PHP type (int or string). */
function entries(a: Pick<PhpArray, 'entries'>): [Key, JsonValue][] {
  return [...a.entries()].map(([k, v]) => [k, valueToJson(v)]);
}

/** `$route` when the script ended. */
function table(ev: FileEvaluation, m: RequestMethod = 'GET'): [Key, JsonValue][] {
  const routes = method(ev, m).routes;
  assert.ok(routes, `${m}: $route holds an array`);
  return entries(routes);
}

/** The routes the library holds (declared and not reset), whether or not map() ran. */
function declared(ev: FileEvaluation, m: RequestMethod = 'GET'): [Key, JsonValue][] {
  return entries(method(ev, m).library.routes);
}

/** One `$route[...]` value. */
function entry(ev: FileEvaluation, key: Key, m: RequestMethod = 'GET'): JsonValue | undefined {
  const v = method(ev, m).routes?.get(key);
  return v === undefined ? undefined : valueToJson(v);
}

function record(ev: FileEvaluation, from: string, m: RequestMethod = 'GET'): RouteRecord {
  const rec = method(ev, m).library.created.find((r) => r.key === from);
  assert.ok(rec, `a route record for ${from}`);
  return rec;
}

function dynamicRecords(ev: FileEvaluation, m: RequestMethod = 'GET'): RouteRecord[] {
  return method(ev, m).library.created.filter((r) => r.dynamic);
}

function codes(ev: FileEvaluation): string[] {
  return ev.problems.map((p) => p.code);
}

function assertNoError(ev: FileEvaluation): void {
  for (const m of ev.methods) assert.equal(m.error, null, `${m.method}: ${JSON.stringify(m.error)}`);
}

describe('interpreter: the PHP subset of route files', () => {
  describe('the file header', () => {
    it('keeps going past `defined(\'BASEPATH\') OR exit(...)`', () => {
      const ev = run(`<?php
defined('BASEPATH') OR exit('No direct script access allowed');
$route['default_controller'] = 'welcome';
Route::any('about', 'pages/about');
$route = Route::map($route);
`);
      assertNoError(ev);
      assert.deepEqual(table(ev), [['default_controller', 'welcome'], ['about', 'pages/about']]);
      assert.ok(!codes(ev).includes('exit'));
      assert.deepEqual(method(ev).warnings, []);
    });

    it('keeps going past `if (!defined(\'BASEPATH\')) exit(...)`', () => {
      const ev = run(`<?php
if ( ! defined('BASEPATH')) exit('No direct script access allowed');
$route['a'] = 'b';
`);
      assert.deepEqual(table(ev), [['a', 'b']]);
      assert.deepEqual(codes(ev), []);
    });

    it('stops at an unconditional exit and reports it', () => {
      const ev = run(`<?php
$route['a'] = 'x';
exit('stop');
$route['b'] = 'y';
`);
      assert.deepEqual(table(ev), [['a', 'x']]);
      assert.deepEqual(codes(ev), ['exit']);
    });

    it('ends the file under the request methods that reach an exit, and only there', () => {
      const ev = run(`<?php
$route['a'] = 'x';
if ($_SERVER['REQUEST_METHOD'] === 'OPTIONS') exit(0);
$route['b'] = 'y';
`);
      assert.deepEqual(table(ev, 'OPTIONS'), [['a', 'x']]);
      assert.deepEqual(table(ev, 'GET'), [['a', 'x'], ['b', 'y']]);
    });

    it("gives $_SERVER what a web request has: the host and the like exist, their values are not known", () => {
      const ev = run(`<?php
$route['a'] = isset($_SERVER['HTTP_HOST']) ? 'web/a' : 'cli/a';
$route['b'] = $_SERVER['HTTP_HOST'] === 'api.example.com' ? 'api/b' : 'site/b';
`);
      assert.deepEqual(table(ev, 'GET')[0], ['a', 'web/a']);
      assert.ok(method(ev, 'GET').routes!.get('b') instanceof Unknown);
      assert.deepEqual(method(ev, 'GET').warnings, []);
      // A command-line run has no host.
      assert.deepEqual(table(ev, 'CLI'), [['a', 'cli/a'], ['b', 'site/b']]);
    });

    it('takes a variable extract() may set for unknown, and keeps an entry assigned by reference as unknown', () => {
      const ev = run(`<?php
extract(array('admin' => 'backoffice'));
$route[$admin] = 'welcome/index';
$t = 'welcome/home';
$route['home'] = &$t;
$route['next'] = 'welcome/next';
`);
      const routes = method(ev, 'GET').routes!;
      const keys = [...routes.keys()].map(String);
      assert.equal(keys.length, 3, keys.join(' '));
      assert.match(keys[0]!, /^\u0000dynamic:/, 'no route under the empty key PHP never makes');
      const home = routes.get('home');
      assert.ok(home instanceof Unknown && /by reference/.test(home.reason), 'the entry is there, its value not known');
      assert.equal(routes.get('next'), 'welcome/next');
      assert.deepEqual(method(ev, 'GET').warnings, [], 'no "Undefined variable $admin"');
    });

    it("says where routes.php writes the router's state, and takes what a builtin changes in place for unknown", () => {
      const ev = run(`<?php
$this->uri->uri_string = 'front';
array_unshift($this->uri->segments, 'front');
$route['a'] = 'welcome/index';
$route['b'] = 'welcome/index';
array_pop($route);
`);
      const limits = ev.problems.filter((p) => p.code === 'evaluation-limit');
      assert.deepEqual(limits.map((p) => [p.message.startsWith("this writes the router's state"), p.routingOnly]), [[true, true], [true, true]]);
      assert.equal(method(ev, 'GET').routes, undefined, 'not the table before array_pop()');
      assert.match(String(method(ev, 'GET').routesUnknown?.reason), /changed by array_pop\(\)/);
    });

    it("stops where a verb array is written into a string entry on PHP 8.1 and later, as PHP does (php-cli 8.2: TypeError)", () => {
      const src = "<?php\n$route['contact'] = 'welcome/index';\n$route['contact']['post'] = 'welcome/send';\n";
      const ev = run(src);
      assert.deepEqual([method(ev, 'GET').error?.class, method(ev, 'GET').error?.message], ['TypeError', 'Cannot access offset of type string on string']);
      const old = run(src, { phpVersion: { major: 7, minor: 4 } });
      assert.equal(method(old, 'GET').error ?? undefined, undefined, 'PHP 7 warned and wrote at offset 0: not evaluated, not a fatal error');
    });

    it('goes on past an exit or a return under an undecidable condition, in the other branch only', () => {
      for (const end of ['exit;', 'return;', 'die("installing");']) {
        const ev = run(`<?php
$route['a'] = 'x';
if (!file_exists(FCPATH . 'installed')) {
    $route['setup'] = 'install/index';
    ${end}
}
$route['setup'] = 'welcome/setup';
$route['b'] = 'y';
`);
        assert.deepEqual(table(ev).map(([k]) => k), ['a', 'setup', 'b'], end);
        assert.ok(!codes(ev).includes('exit'), end);
        // What follows the if runs only where its first branch was not taken.
        const origin = method(ev).routes!.originOf('b') as EntryOriginInfo | undefined;
        assert.ok(origin?.kind === 'assignment' && origin.conditional && origin.branches.length === 1 && origin.branches[0]!.endsWith(':1'), end);
      }
    });
  });

  describe('variables and strings', () => {
    it('evaluates variables and concatenation', () => {
      const ev = run(`<?php
$base = 'blog';
$ctl = $base . '/posts';
$route[$base . '/(:num)'] = $ctl . '/show/$1';
$ctl .= '_admin';
$route["$base/admin"] = $ctl;
`);
      assert.deepEqual(table(ev), [['blog/(:num)', 'blog/posts/show/$1'], ['blog/admin', 'blog/posts_admin']]);
    });

    it('interpolates `{$a}`, `$a` and `{$arr[\'k\']}` in double-quoted strings', () => {
      const ev = run(`<?php
$a = 'x';
$arr = ['k' => 'v', 'q' => "it's"];
$route['i1'] = "{$a}/x";
$route['i2'] = "$a/x";
$route['i3'] = "{$arr['k']}";
$route['i4'] = "{$arr["q"]}!";
`);
      assert.deepEqual(table(ev), [['i1', 'x/x'], ['i2', 'x/x'], ['i3', 'v'], ['i4', "it's!"]]);
    });

    it('reads `"$arr[k]"` as the key \'k\' and `"$arr[007]"` as the string key \'007\', as PHP does', () => {
      const ev = run(`<?php
$arr = ['k' => 'v', 7 => 'seven', '007' => 'oh', -1 => 'minus'];
$i = 7;
$route['s'] = "$arr[k]/$arr[7]/$arr[007]/$arr[-1]/$arr[$i]/{$arr[007]}";
`);
      // {$arr[007]} is an expression: 007 is an octal literal there.
      assert.deepEqual(table(ev), [['s', 'v/seven/oh/minus/seven/seven']]);
      assert.deepEqual(method(ev).warnings, []);
    });

    it('decodes escapes in double quotes and only \\\' and \\\\ in single quotes', () => {
      const ev = run(`<?php
$route['d'] = "t\\tx\\x41\\101\\u{263A}\\$a\\\\";
$route['s'] = 'a\\nb\\'c\\\\d$a';
`);
      assert.deepEqual(table(ev), [['d', 't\txAA\u263a$a\\'], ['s', "a\\nb'c\\d$a"]]);
    });

    it('evaluates a heredoc with interpolation and an indented closing label', () => {
      const ev = run(`<?php
$v = 'api';
$route['h'] = <<<EOT
    {$v}/users
      indented
    EOT;
`);
      assert.deepEqual(table(ev), [['h', 'api/users\n  indented']]);
    });

    it('leaves a nowdoc uninterpreted', () => {
      const ev = run(`<?php
$v = 'api';
$route['n'] = <<<'EOT'
  {$v}/raw\\n
  EOT;
`);
      assert.deepEqual(table(ev), [['n', '{$v}/raw\\n']]);
    });

    it('converts scalars to strings in concatenation as PHP 8 does', () => {
      const ev = run(`<?php
$route['s'] = 'x' . 1 . 1.5 . true . null . false . -3;
$route['f'] = (0.1 + 0.2) . '|' . 1e20 . '|' . 7.0 / 2 . '|' . 10 / 4 . '|' . 10 / 5 . '|' . 1 / 3;
`);
      assert.deepEqual(table(ev), [['s', 'x11.51-3'], ['f', '0.3|1.0E+20|3.5|2.5|2|0.33333333333333']]);
    });

    it('reports a warning once per method when reading a value that differs by method', () => {
      const ev = run(`<?php\n$route['a'] = 'b';\n$route = Route::map($route);\n$x = $route['nope'];\n$y = 's' . $route;\n`);
      for (const m of ev.methods) assert.deepEqual(m.warnings, ['Undefined array key "nope"', 'Array to string conversion'], m.method);
    });

    it('names a variable variable from a value that differs by method the same way in both evaluations', () => {
      const ev = run(`<?php
$route['a'] = 'b';
$route = Route::map($route);
$$route['x'] = 'y';
`);
      for (const m of ev.methods) assert.ok(m.warnings.includes('Array to string conversion'), m.method);
    });

    it('reads an undefined variable as null with a warning, as PHP does', () => {
      const ev = run(`<?php\n$route['a'] = 'x' . $nothing;\n`);
      assert.deepEqual(table(ev), [['a', 'x']]);
      assert.deepEqual(method(ev).warnings, ['Undefined variable $nothing']);
    });
  });

  describe('arrays', () => {
    it('builds array() and [] with keys, nesting, appends and +', () => {
      const ev = run(`<?php
$route = array('a' => 'x', 'b' => array('GET' => 'y'));
$route += ['c' => 'z', 'a' => 'ignored'];
$list = ['one', 'two'];
$list[] = 'three';
$route['list'] = implode(',', $list);
$route['count'] = count($list);
`);
      assert.deepEqual(table(ev), [
        ['a', 'x'],
        ['b', { '<array>': [['GET', 'y']] }],
        ['c', 'z'],
        ['list', 'one,two,three'],
        ['count', 3],
      ]);
    });

    it('casts canonical integer-string keys to int and keeps the order', () => {
      const ev = run(`<?php
$route['404'] = 'a';
$route['007'] = 'b';
$route['-5'] = 'c';
$route['1.5'] = 'd';
$route[' 12'] = 'e';
$route['0'] = 'f';
$route['-0'] = 'g';
`);
      assert.deepEqual(table(ev), [[404, 'a'], ['007', 'b'], [-5, 'c'], ['1.5', 'd'], [' 12', 'e'], [0, 'f'], ['-0', 'g']]);
    });

    it('casts keys in array literals and continues numbering after the largest int key', () => {
      const ev = run(`<?php\n$route = ['5' => 'a', 'b', true => 'c', null => 'd', 1.0 => 'e', '9' => 'f'];\n$route[] = 'g';\n`);
      assert.deepEqual(table(ev), [[5, 'a'], [6, 'b'], [1, 'e'], ['', 'd'], [9, 'f'], [10, 'g']]);
    });

    it('keeps the first position of a redeclared key and takes the last value', () => {
      const ev = run(`<?php\n$route['a'] = 1;\n$route['b'] = 2;\n$route['a'] = 3;\n`);
      assert.deepEqual(table(ev), [['a', 3], ['b', 2]]);
    });

    it('copies the table returned by Route::map() on assignment (value semantics)', () => {
      const ev = run(`<?php
Route::any('r', 'x');
$route = Route::map($route);
$saved = $route;
$route['added'] = 'y';
$route = $saved;
`);
      assert.deepEqual(table(ev, 'GET'), [['r', 'x']]);
      assert.deepEqual(table(ev, 'CLI'), [['r', 'x']]);
    });

    it('unsets an entry of the table returned by Route::map()', () => {
      const ev = run(`<?php
$route['a'] = 'b';
Route::any('r', 'x');
$route = Route::map($route);
unset($route['a']);
`);
      assert.deepEqual(table(ev), [['r', 'x']]);
    });

    it('copies arrays on assignment (value semantics)', () => {
      const ev = run(`<?php\n$a = ['x' => 1];\n$b = $a;\n$b['x'] = 2;\n$route['a'] = $a['x'];\n$route['b'] = $b['x'];\n`);
      assert.deepEqual(table(ev), [['a', 1], ['b', 2]]);
    });
  });

  describe('numbers', () => {
    it('reads decimal, octal, hex, binary, separated and float literals', () => {
      const ev = run(`<?php\n$route['n'] = implode(',', [010, 0x1F, 0b101, 0o17, 1_000, 1.5, 1e3, .5, 0.0, PHP_INT_SIZE]);\n`);
      assert.deepEqual(table(ev), [['n', '8,31,5,15,1000,1.5,1000,0.5,0,8']]);
    });

    it('computes int and float arithmetic', () => {
      const ev = run(`<?php\n$route['n'] = implode(',', [7 % 3, 2 ** 3, -5 + 2, (int) '12abc', 7 / 2, 6 / 3, 2 ** -1, 1 + 1.0]);\n`);
      assert.deepEqual(table(ev), [['n', '1,8,-3,12,3.5,2,0.5,2']]);
    });
  });

  describe('constants', () => {
    it('defines constants with define() and const, including const expressions', () => {
      const ev = run(`<?php
define('API', 'api/v1');
const ADMIN = 'admin', PANEL = ADMIN . '/panel';
Route::any(API . '/users', 'users');
Route::any(PANEL, 'panel');
$route['defined'] = defined('API') && defined('PANEL') && !defined('NOPE');
`);
      assert.deepEqual(declared(ev), [['api/v1/users', 'users'], ['admin/panel', 'panel']]);
      assert.equal(entry(ev, 'defined'), true);
    });

    it('keeps the first value of a constant defined twice, with PHP’s warning', () => {
      const ev = run(`<?php\ndefine('A', 'x');\ndefine('A', 'y');\n$route['a'] = A;\n`);
      assert.deepEqual(table(ev), [['a', 'x']]);
      assert.deepEqual(method(ev).warnings, ['Constant A already defined']);
    });

    it('uses constants given in options.constants', () => {
      const ev = run(`<?php\nRoute::any(API_PREFIX . '/x', 'y');\n$route['d'] = defined('API_PREFIX') ? 'yes' : 'no';\n`, {
        constants: new Map([['API_PREFIX', 'api/v2']]),
      });
      assert.deepEqual(declared(ev), [['api/v2/x', 'y']]);
      assert.equal(entry(ev, 'd'), 'yes');
    });

    it('decides an ENVIRONMENT condition when the caller gives ENVIRONMENT', () => {
      const src = `<?php\nif (ENVIRONMENT === 'production') { Route::any('prod', 'p'); } else { Route::any('dev', 'd'); }\n`;
      const ev = run(src, { constants: new Map([['ENVIRONMENT', 'production']]) });
      assert.deepEqual(declared(ev), [['prod', 'p']]);
      assert.equal(record(ev, 'prod').conditional, false);
      assert.deepEqual(codes(ev), []);
    });

    it('treats an undefined constant as unknown: the route is dynamic', () => {
      const ev = run(`<?php\nRoute::any(UNDEFINED_PREFIX . '/x', 'y');\nRoute::any('known', 'z');\n`);
      const dyn = dynamicRecords(ev);
      assert.equal(dyn.length, 1);
      assert.equal(dyn[0].to, 'y');
      assert.equal(record(ev, 'known').dynamic, false);
    });
  });

  describe('control flow on known values', () => {
    it('generates routes in a foreach over a known array', () => {
      const ev = run(`<?php
$modules = ['users' => 'Users', 'posts' => 'Posts'];
foreach ($modules as $slug => $ctl) {
    Route::any("admin/$slug", strtolower($ctl) . '/admin');
}
`);
      assert.deepEqual(declared(ev), [['admin/users', 'users/admin'], ['admin/posts', 'posts/admin']]);
      assert.ok(method(ev).library.created.every((r) => !r.conditional && !r.dynamic));
    });

    it('destructures foreach values with [] and list()', () => {
      const ev = run(`<?php
foreach ([['a', 'b'], ['c', 'd']] as [$from, $to]) Route::any($from, $to);
foreach ([['x', 'y']] as list($p, $q)) Route::any($p, $q);
`);
      assert.deepEqual(declared(ev), [['a', 'b'], ['c', 'd'], ['x', 'y']]);
    });

    it('takes only the matching branch of if/elseif/else, with and without braces', () => {
      const ev = run(`<?php
$mode = 'b';
if ($mode === 'a') { Route::any('a', 'x'); } elseif ($mode === 'b') { Route::any('b', 'x'); } else { Route::any('c', 'x'); }
if ($mode == 'a') Route::any('no', 'x'); else Route::any('brace-less', 'y');
`);
      assert.deepEqual(declared(ev), [['b', 'x'], ['brace-less', 'y']]);
      assert.deepEqual(codes(ev), []);
    });

    it('runs the alternative syntax if/else/endif and foreach/endforeach', () => {
      const ev = run(`<?php
$on = true;
if ($on): Route::any('alt', 'x'); elseif (false): Route::any('no', 'x'); else: Route::any('no2', 'x'); endif;
foreach (['a', 'b'] as $x): Route::any("alt/$x", $x); endforeach;
`);
      assert.deepEqual(declared(ev), [['alt', 'x'], ['alt/a', 'a'], ['alt/b', 'b']]);
    });

    it('evaluates ternaries, ?:, ??, isset() and empty() quietly', () => {
      const ev = run(`<?php
$x = null;
$y = '';
$route['t1'] = true ? 'yes' : 'no';
$route['t2'] = $y ?: 'fallback';
$route['t3'] = $x ?? 'default';
$route['t4'] = $undefinedVar ?? 'quiet';
$route['t5'] = isset($route['t1'], $route['nope']) ? 'set' : 'unset';
$route['t6'] = empty($y) ? 'empty' : 'full';
`);
      assert.deepEqual(table(ev), [['t1', 'yes'], ['t2', 'fallback'], ['t3', 'default'], ['t4', 'quiet'], ['t5', 'unset'], ['t6', 'empty']]);
      assert.deepEqual(method(ev).warnings, []);
    });

    it('runs for, while, switch (with fall-through) and match', () => {
      const ev = run(`<?php
for ($i = 0; $i < 3; $i++) { if ($i == 1) continue; Route::any("for/$i", 'f'); }
$n = 0;
while (true) { if (++$n > 2) break; Route::any("while/$n", 'w'); }
switch ('b') { case 'a': Route::any('sw-a', 'x'); break; case 'b': Route::any('sw-b', 'x'); default: Route::any('sw-d', 'x'); }
$m = match (2) { 1 => 'one', 2 => 'two', default => 'other' };
Route::any("m/$m", 'x');
`);
      assert.deepEqual(declared(ev).map(([k]) => k), ['for/0', 'for/2', 'while/1', 'while/2', 'sw-b', 'sw-d', 'm/two']);
    });

    it('calls user functions, also above their declaration (PHP hoists top-level functions)', () => {
      const ev = run(`<?php
Route::any(area('admin'), 'hoisted');
function area($name, $suffix = 'panel') { return "$name/$suffix"; }
Route::any(area('shop', 'cart'), 'after');
`);
      assert.deepEqual(declared(ev), [['admin/panel', 'hoisted'], ['shop/cart', 'after']]);
      assert.deepEqual(dynamicRecords(ev), []);
    });
  });

  describe('unknown values', () => {
    const envFile = `<?php
Route::any('always', 'a');
if (ENVIRONMENT === 'production') {
    Route::any('prod', 'p');
    $route['prod_only'] = 'x';
} else {
    Route::any('dev', 'd');
}
$route['plain'] = 'y';
$route = Route::map($route);
`;

    it('evaluates both branches of an unknown condition and reports it', () => {
      const ev = run(envFile);
      assert.deepEqual(table(ev), [['prod_only', 'x'], ['plain', 'y'], ['always', 'a'], ['prod', 'p'], ['dev', 'd']]);
      assert.deepEqual(codes(ev), ['unknown-value']);
      assert.match(ev.problems[0].message, /cannot be decided/);
      assert.equal(envFile.slice(ev.problems[0].span.start, ev.problems[0].span.end), `ENVIRONMENT === 'production'`);
    });

    it('marks the routes declared under an unknown condition as conditional', () => {
      const ev = run(envFile);
      assert.equal(record(ev, 'always').conditional, false);
      assert.equal(record(ev, 'prod').conditional, true);
      assert.equal(record(ev, 'dev').conditional, true);
      const routes = method(ev).routes;
      assert.ok(routes);
      assert.equal((routes.originOf('prod') as RouteRecord).conditional, true);
      assert.equal((routes.originOf('always') as RouteRecord).conditional, false);
    });

    it('marks `$route[...]` entries assigned under an unknown condition as conditional', () => {
      const ev = run(envFile);
      const routes = method(ev).routes;
      assert.ok(routes);
      const inside = routes.originOf('prod_only') as AssignmentOrigin;
      const outside = routes.originOf('plain') as AssignmentOrigin;
      assert.equal(inside.kind, 'assignment');
      assert.equal(inside.conditional, true);
      assert.equal(outside.conditional, false);
    });

    it('makes a variable set differently in the two branches unknown afterwards', () => {
      const ev = run(`<?php
if (ENVIRONMENT === 'production') { $api = 'api'; $same = 'v1'; } else { $api = 'dev-api'; $same = 'v1'; }
Route::any($api . '/users', 'users');
Route::any($same . '/users', 'users');
`);
      assert.equal(dynamicRecords(ev).length, 1);
      assert.equal(record(ev, 'v1/users').dynamic, false);
      assert.equal(record(ev, 'v1/users').conditional, false);
    });

    it('makes a ternary on an unknown condition unknown unless both sides agree', () => {
      const ev = run(`<?php\nRoute::any(ENVIRONMENT === 'production' ? 'p' : 'd', 'x');\nRoute::any(ENVIRONMENT === 'production' ? 'same' : 'same', 'y');\n`);
      assert.equal(dynamicRecords(ev).length, 1);
      assert.equal(record(ev, 'same').dynamic, false);
    });

    it('marks a route whose $from comes from an unknown function as dynamic', () => {
      const ev = run(`<?php\nRoute::any(unknown_helper('x'), 'x/y');\n$route = Route::map($route);\n`);
      const dyn = dynamicRecords(ev);
      assert.equal(dyn.length, 1);
      assert.equal(dyn[0].to, 'x/y');
      assert.equal(typeof dyn[0].key, 'string');
      assert.ok(String(dyn[0].key).startsWith('\u0000dynamic'), 'the key can never equal a real path');
      assert.equal(outcomeToJson(method(ev)).routes?.length, 1);
    });

    it('marks a route whose $to is unknown, or whose $from depends on the request ($_GET), as dynamic', () => {
      const ev = run(`<?php\nRoute::any('known', getenv('TARGET'));\nRoute::any($_GET['path'], 'x/y');\n`);
      assert.equal(record(ev, 'known').dynamic, true);
      assert.equal(dynamicRecords(ev).length, 2);
    });

    it('routes an undefined variable as \'\' with PHP’s warning (PHP 8.2 reads it as null)', () => {
      const ev = run(`<?php\nRoute::any($undefinedThing, 'x/y');\n`);
      assert.deepEqual(declared(ev), [['', 'x/y']]);
      assert.deepEqual(method(ev).warnings, ['Undefined variable $undefinedThing']);
    });

    it('analyses the body of a foreach over an unknown array once, as conditional', () => {
      const ev = run(`<?php\nforeach ($config['modules'] ?? unknown_list() as $m) { Route::any('mod', 'x'); }\n`);
      assert.equal(record(ev, 'mod').conditional, true);
      assert.ok(codes(ev).includes('unknown-value'));
    });
  });

  describe('builtins', () => {
    it('strtolower, strtoupper, ucfirst and lcfirst change only ASCII letters (PHP 8.2)', () => {
      const ev = run(`<?php
$route['c'] = implode('|', [strtolower('ABC'), strtolower('ÄBC'), strtoupper('straße'), ucfirst('admin'), ucfirst('élan'), lcfirst('ABC'), ucwords('hello big world')]);
`);
      assert.deepEqual(table(ev), [['c', 'abc|Äbc|STRAßE|Admin|élan|aBC|Hello Big World']]);
    });

    it('implode and explode, with limits and both argument forms', () => {
      const ev = run(`<?php
$route['e'] = implode(',', explode('/', 'a/b/c/d', 2)) . '|' . implode(',', explode('/', 'a/b/c/d', -2)) . '|' . implode(['x', 'y']) . '|' . implode(',', explode(',', ''));
list($first, $second) = explode('/', 'one/two');
Route::any($first, $second);
`);
      assert.equal(entry(ev, 'e'), 'a,b/c/d|a,b|xy|');
      assert.deepEqual(declared(ev), [['one', 'two']]);
    });

    it('sprintf with padding, precision, signs, positions and %%', () => {
      const ev = run(`<?php
$route['s1'] = sprintf('%s/%d/%05.1f/%\\'*8s/%-4s|/%%/%2$s', 'a', '12abc', 3.14159, 'pad', 'l');
$route['s2'] = sprintf('%03d|%+d|%x|%X|%o|%b|%c|%e|%.2s', 7, 5, 255, 255, 8, 5, 65, 1234.5, 'abcdef');
`);
      assert.deepEqual(table(ev), [['s1', 'a/12/003.1/*****pad/l   |/%/12abc'], ['s2', '007|+5|ff|FF|10|101|A|1.234500e+3|ab']]);
    });

    it('trim, ltrim and rtrim with default and given character lists (with ranges)', () => {
      const ev = run(`<?php\n$route['t'] = trim('xxhixx', 'x') . '|' . trim("\\t hi \\n") . '|' . rtrim('a/b//', '/') . '|' . ltrim('0012', '0') . '|' . trim('abcXcba', 'a..c');\n`);
      assert.deepEqual(table(ev), [['t', 'hi|hi|a/b|12|X']]);
    });

    it('str_replace with strings, arrays of searches and replacements, and an array subject', () => {
      const ev = run(`<?php
$route['r'] = str_replace('-', '_', 'a-b-c') . '|' . str_replace(['a', 'b'], ['b', 'c'], 'ab') . '|' . str_replace(['x', 'y'], '-', 'xyz') . '|' . implode(',', str_replace('a', 'A', ['ab', 'ca']));
`);
      assert.deepEqual(table(ev), [['r', 'a_b_c|cc|--z|Ab,cA']]);
    });

    it('dirname (with levels) and basename (with a suffix) as PHP 8.2 gives them', () => {
      // Each row: the path, dirname(), dirname(, 2), dirname(, 5), basename(), basename(, 'b'), as PHP printed them.
      const rows: string[][] = [
        ['', '', '', '', '', ''],
        ['/', '/', '/', '/', '', ''],
        ['//', '/', '/', '/', '', ''],
        ['a', '.', '.', '.', 'a', 'a'],
        ['/a/', '/', '/', '/', 'a', 'a'],
        ['/a//b', '/a', '/', '/', 'b', 'b'],
        ['a/b/c/', 'a/b', 'a', '.', 'c', 'c'],
        ['/a/b/c', '/a/b', '/a', '/', 'c', 'c'],
        ['..', '.', '.', '.', '..', '..'],
        ['a/bb', 'a', '.', '.', 'bb', 'b'],
      ];
      const src = rows.map(([p], i) => `$route['r${i}'] = implode('|', [dirname('${p}'), dirname('${p}', 2), dirname('${p}', 5), basename('${p}'), basename('${p}', 'b')]);`).join('\n');
      const ev = run(`<?php\n${src}\n`);
      assert.deepEqual(table(ev), rows.map(([, ...out], i) => [`r${i}`, out.join('|')]));
    });

    it('array_keys with a search value, array_filter by key or by both, intval in base 10', () => {
      const ev = run(`<?php
$route['k'] = implode(',', array_keys(['a' => 1, 'b' => '1', 'c' => 2], 1)) . '|' . implode(',', array_keys(['a' => 1, 'b' => '1'], 1, true));
$route['f'] = implode(',', array_keys(array_filter(['a' => 1, 'bb' => 2], function ($k) { return strlen($k) > 1; }, ARRAY_FILTER_USE_KEY)))
  . '|' . implode(',', array_keys(array_filter(['a' => 1, 'bb' => 2], function ($v, $k) { return $v === 1; }, ARRAY_FILTER_USE_BOTH)));
$route['i'] = intval('12', 10) + intval(42, 8);
`);
      assert.deepEqual(table(ev), [['k', 'a,b|a'], ['f', 'bb|a'], ['i', 54]]);
    });

    for (const [call, message] of [
      ['array_fill(0, 5)', 'array_fill() expects exactly 3 arguments, 2 given'],
      ["strlen('a', 'b')", 'strlen() expects exactly 1 argument, 2 given'],
      ["str_replace('a', 'b')", 'str_replace() expects at least 3 arguments, 2 given'],
      ["trim('a', 'b', 'c')", 'trim() expects at most 2 arguments, 3 given'],
    ]) {
      it(`throws PHP 8's ArgumentCountError for ${call}, as PHP words it`, () => {
        const ev = run(`<?php\nRoute::any('before', 'b');\n$x = ${call};\nRoute::any('after', 'a');\n`);
        assert.equal(method(ev).error?.class, 'ArgumentCountError');
        assert.equal(method(ev).error?.message, message);
        assert.deepEqual(declared(ev), [['before', 'b']]);
      });
    }

    it('knows the signature of every builtin it evaluates', () => {
      assert.deepEqual(builtinNames().filter((n) => !BUILTINS_WITH_SIGNATURE.has(n)), []);
      assert.deepEqual([...BUILTINS_WITH_SIGNATURE].filter((n) => !builtinNames().includes(n)), []);
    });

    it('gives an unknown result for a builtin of an unknown value', () => {
      const ev = run(`<?php\nRoute::any(strtolower(SOME_CONSTANT), 'x');\n`);
      assert.equal(dynamicRecords(ev).length, 1);
    });
  });

  describe('closures', () => {
    it('prefix() runs its closure with the prefix, then clears it', () => {
      const ev = run(`<?php
Route::prefix('api', function () {
    Route::get('users', 'users/index', ['as' => 'users']);
    Route::any('status', 'status');
});
Route::any('after', 'a');
`);
      assert.deepEqual(declared(ev, 'GET'), [['api/users', 'users/index'], ['api/status', 'status'], ['after', 'a']]);
      assert.deepEqual(declared(ev, 'CLI'), [['api/status', 'status'], ['after', 'a']]);
      assert.deepEqual(entries(method(ev, 'GET').library.named), [['users', 'api/users']]);
      assert.equal(record(ev, 'api/users').via.length, 1);
      assert.equal(record(ev, 'after').via.length, 0);
    });

    it('a closure captures `use ($v)` by value when it is created', () => {
      const ev = run(`<?php
$v = 'v1';
$fn = function () use ($v) { Route::any("$v/x", 'y'); };
$v = 'v2';
Route::prefix('api', $fn);
`);
      assert.deepEqual(declared(ev), [['api/v1/x', 'y']]);
    });

    it('a closure captures `use (&$v)` by reference: it sees later changes and its writes are visible', () => {
      const ev = run(`<?php
$p = 'a';
$fn = function () use (&$p) { Route::any($p . '/x', 'y'); $p = 'c'; };
$p = 'b';
Route::prefix('pre', $fn);
Route::any($p, 'after');
$list = [];
$add = function ($from, $to) use (&$list) { $list[$from] = $to; };
$add('k1', 'v1');
$add('k2', 'v2');
foreach ($list as $k => $v) Route::any($k, $v);
`);
      assert.deepEqual(declared(ev), [['pre/b/x', 'y'], ['c', 'after'], ['k1', 'v1'], ['k2', 'v2']]);
    });

    it('an arrow function reads the enclosing scope by value', () => {
      const ev = run(`<?php
$shop = 'shop';
$paths = array_map(fn($p) => "$shop/$p", ['cart', 'checkout']);
foreach ($paths as $p) Route::any($p, 'shop');
`);
      assert.deepEqual(declared(ev), [['shop/cart', 'shop'], ['shop/checkout', 'shop']]);
    });

    it('runs a `$nested` closure under the route’s path', () => {
      const ev = run(`<?php
Route::any('club', 'club/index', [], function () {
    Route::any('players', 'players/index');
});
`);
      assert.deepEqual(declared(ev), [['club', 'club/index'], ['club/players', 'players/index']]);
      assert.equal(record(ev, 'club/players').nestedPrefix, 'club/');
    });

    it('unsetting a reference (`global $g`, `use (&$x)`) only unbinds the local name', () => {
      const ev = run(`<?php
$g = 'global';
function f() { global $g; unset($g); $g = 'local'; return $g; }
$route['f'] = f();
$route['g'] = $g;
$x = 1;
$c = function () use (&$x) { unset($x); $x = 5; };
$c();
$route['x'] = $x;
`);
      assert.deepEqual(table(ev), [['f', 'local'], ['g', 'global'], ['x', 1]]);
    });

    it('a by-reference variable written by a `$nested` closure of one verb differs per method', () => {
      const ev = run(`<?php
$n = 0;
Route::get('g', 'g', [], function () use (&$n) { $n = 10; });
Route::any("n/$n", 'after');
`);
      assert.deepEqual(declared(ev, 'GET'), [['g', 'g'], ['n/10', 'after']]);
      assert.deepEqual(declared(ev, 'POST'), [['n/0', 'after']]);
      assert.equal(ev.mode, 'per-method');
    });
  });

  describe('$route values and Route::named()', () => {
    it('keeps strings, booleans, closures and verb arrays assigned to $route after map()', () => {
      const ev = run(`<?php
$route['default_controller'] = 'home';
Route::any('x', 'y');
$route = Route::map($route);
$route['flag'] = true;
$route['off'] = FALSE;
$route['cb'] = function ($id) { return 'x'; };
$route['verbs'] = array('GET' => 'a/get', 'post' => 'a/post');
`);
      assert.deepEqual(table(ev), [
        ['default_controller', 'home'],
        ['x', 'y'],
        ['flag', true],
        ['off', false],
        ['cb', '<callable>'],
        ['verbs', { '<array>': [['GET', 'a/get'], ['post', 'a/post']] }],
      ]);
      assert.ok(method(ev).routes?.get('cb') instanceof PhpClosure);
      assertNoError(ev);
    });

    it('looks up named routes, prefixed, per verb, and null for unknown names', () => {
      const ev = run(`<?php
Route::prefix('area', function () { Route::any('posts', 'posts/index', ['as' => 'blog']); });
Route::post('submit', 'forms/submit', ['as' => 'submit']);
$route['blog_url'] = Route::named('blog');
$route['submit_url'] = Route::named('submit');
$route['missing'] = Route::named('nope');
`);
      assert.deepEqual(table(ev, 'GET'), [['blog_url', 'area/posts'], ['submit_url', null], ['missing', null]]);
      assert.deepEqual(table(ev, 'POST'), [['blog_url', 'area/posts'], ['submit_url', 'submit'], ['missing', null]]);
    });
  });

  describe('the request method', () => {
    it('follows $_SERVER[\'REQUEST_METHOD\'] conditions separately for each method', () => {
      const ev = run(`<?php
if ($_SERVER['REQUEST_METHOD'] === 'POST') { Route::any('p', 'post'); } else { Route::any('o', 'other'); }
`);
      assert.equal(ev.mode, 'per-method');
      assert.deepEqual(declared(ev, 'GET'), [['o', 'other']]);
      assert.deepEqual(declared(ev, 'POST'), [['p', 'post']]);
      assert.deepEqual(declared(ev, 'CLI'), [['o', 'other']]);
      assert.deepEqual(method(ev, 'CLI').warnings, ['Undefined array key "REQUEST_METHOD"']);
      assert.deepEqual(method(ev, 'GET').warnings, []);
      assert.ok(method(ev).library.created.every((r) => !r.conditional), 'decided per method, not conditional');
    });

    it('computes values from the request method in one shared pass', () => {
      const ev = run(`<?php\nRoute::any(strtolower($_SERVER['REQUEST_METHOD'] ?? 'cli'), 'm');\n`);
      assert.equal(ev.mode, 'together');
      assert.deepEqual(declared(ev, 'GET'), [['get', 'm']]);
      assert.deepEqual(declared(ev, 'PATCH'), [['patch', 'm']]);
      assert.deepEqual(declared(ev, 'CLI'), [['cli', 'm']]);
    });
  });

  describe('fatal errors', () => {
    for (const call of [`Route::resource('x');`, `Route::all('a', 'b');`]) {
      const name = call.slice(7, call.indexOf('('));
      it(`${call} stops the script with "Call to undefined method Route::${name}()"`, () => {
        const ev = run(`<?php\nRoute::any('before', 'b');\n${call}\nRoute::any('after', 'a');\n$route = Route::map($route);\n`);
        for (const m of ev.methods) {
          assert.equal(m.error?.class, 'Error');
          assert.equal(m.error?.message, `Call to undefined method Route::${name}()`);
          assert.equal(outcomeToJson(m).routes, null);
          assert.deepEqual(entries(m.library.routes), [['before', 'b']]);
        }
        const span = method(ev).error?.span;
        assert.ok(span);
        assert.ok(`<?php\nRoute::any('before', 'b');\n${call}`.slice(span.start, span.end).startsWith(call.slice(0, -1)));
      });
    }

    it('reports too few arguments as PHP does, with the file and line', () => {
      const ev = run(`<?php\n\nRoute::any('x');\n`);
      assert.equal(method(ev).error?.class, 'ArgumentCountError');
      assert.equal(method(ev).error?.message, 'Too few arguments to function Route::any(), 1 passed in routes.php on line 3 and at least 2 expected');
    });

    it('$this is the router that includes the file: read, it is unknown; assigned, an Error', () => {
      const read = run(`<?php\nif ($this) { Route::any('a', 'b'); }\n`);
      assert.ok(read.problems.some((p) => p.message.includes("$this (CodeIgniter's router, which includes routes.php) is not evaluated")), JSON.stringify(read.problems));
      const assigned = run(`<?php\n$this = 1;\n`);
      assert.equal(method(assigned).error?.class, 'Error');
      assert.equal(method(assigned).error?.message, 'Cannot re-assign $this');
    });
  });

  describe('the step budget and deep nesting', () => {
    it('stops `while (true) {}` with an evaluation-limit problem', () => {
      const ev = run(`<?php\nRoute::any('before', 'b');\nwhile (true) {}\nRoute::any('after', 'a');\n`, { maxSteps: 10_000 });
      assert.ok(ev.steps <= 10_001, `${ev.steps} steps`);
      assert.deepEqual(codes(ev), ['evaluation-limit']);
      assert.deepEqual(declared(ev), [['before', 'b']]);
      assertNoError(ev);
    });

    it('stops for (;;) and do/while (true) loops as well', () => {
      for (const loop of ['for (;;) { $i = 1; }', 'do { $x = 1; } while (true);', 'while (1): endwhile;']) {
        const ev = run(`<?php\n${loop}\n`, { maxSteps: 10_000 });
        assert.deepEqual(codes(ev), ['evaluation-limit'], loop);
      }
    });

    it('stops a self-recursive closure (use by reference) without overflowing the JS stack', () => {
      const ev = run(`<?php\nRoute::any('before', 'b');\n$f = function ($n) use (&$f) { return $f($n + 1); };\n$f(0);\nRoute::any('after', 'a');\n`);
      assert.deepEqual(codes(ev), ['evaluation-limit']);
      assert.deepEqual(declared(ev), [['before', 'b']]);
    });

    it('stops a closure that calls itself through its argument, and a recursive function', () => {
      for (const src of [`$f = function ($g) { return $g($g); };\n$f($f);`, 'function r($n) { return r($n + 1); }\nr(0);']) {
        const ev = run(`<?php\n${src}\n`);
        assert.deepEqual(codes(ev), ['evaluation-limit'], src);
      }
    });

    it('reports 2,000 nested arrays without throwing and keeps the routes around them', () => {
      const ev = run(`<?php\nRoute::any('a', 'b');\n$x = ${'['.repeat(2000)}${']'.repeat(2000)};\nRoute::any('c', 'd');\n`);
      assert.ok(ev.parsed.problems.length + ev.problems.length > 0, 'some problem is reported');
      assert.deepEqual(declared(ev), [['a', 'b'], ['c', 'd']]);
    });

    it('evaluates 2,000 nested parentheses without throwing', () => {
      const ev = run(`<?php\nRoute::any('a', 'b');\nRoute::any('c', ${'('.repeat(2000)}'d'${')'.repeat(2000)});\n`);
      assert.deepEqual(declared(ev), [['a', 'b'], ['c', 'd']]);
    });

    it('does not throw on a 1,000-term concatenation', () => {
      const ev = run(`<?php\nRoute::any('a', 'b');\n$x = 'a'${" . 'a'".repeat(1000)};\nRoute::any($x === str_repeat('a', 1001) ? 'c' : 'no', 'd');\n`);
      const routes = declared(ev);
      assert.deepEqual(routes[0], ['a', 'b']);
      // Either the value is computed, or the evaluation reports why it stopped.
      assert.ok(routes.some(([k]) => k === 'c') || codes(ev).includes('evaluation-limit'), JSON.stringify({ routes, problems: ev.problems }));
      assert.ok(!routes.some(([k]) => k === 'no'));
    });
  });

  describe('half-typed code', () => {
    it('keeps the routes around a broken statement, with a ParseError on every method', () => {
      const src = `<?php\nRoute::any('a', 'b');\nRoute::any('x' 'y');\nRoute::any('c', 'd');\n$route = Route::map($route);\n`;
      const ev = run(src);
      for (const m of ev.methods) {
        assert.equal(m.error?.class, 'ParseError', m.method);
        assert.deepEqual(entries(m.library.routes), [['a', 'b'], ['c', 'd']]);
        assert.ok(m.routes);
        assert.deepEqual(entries(m.routes), [['a', 'b'], ['c', 'd']]);
      }
      const span = method(ev).error?.span;
      assert.ok(span && src.slice(span.start, span.end) === `'y'`);
    });

    it('keeps going past a call being typed (`Route::get(\'users\'` lacks an argument)', () => {
      const ev = run(`<?php\nRoute::any('a', 'b');\nRoute::get('users'\nRoute::any('c', 'd');\n`);
      assert.equal(method(ev).error?.class, 'ParseError');
      assert.deepEqual(declared(ev), [['a', 'b'], ['c', 'd']]);
    });

    it('keeps going past an assignment being typed (`$route[\'x\'] = ;`)', () => {
      const ev = run(`<?php\n$route['a'] = 'b';\n$route['x'] = ;\n$route['c'] = 'd';\n`);
      assert.equal(method(ev).error?.class, 'ParseError');
      assert.deepEqual(table(ev), [['a', 'b'], ['c', 'd']]);
    });

    it('keeps going past call arguments php-parser could not read (`Route::any(]`)', () => {
      const ev = run(`<?php\nRoute::any('a', 'b');\nRoute::any(];\nRoute::any('c', 'd');\n`);
      assert.equal(method(ev).error?.class, 'ParseError');
      assert.deepEqual(declared(ev), [['a', 'b'], ['c', 'd']]);
    });

    it('keeps the statements after an unterminated comment', () => {
      const ev = run(`<?php\nRoute::any('a', 'b'); /* being typed\nRoute::any('c', 'd');\n`);
      assert.equal(method(ev).error?.class, 'ParseError');
      assert.match(method(ev).error?.message ?? '', /unterminated comment/);
      assert.deepEqual(declared(ev), [['a', 'b'], ['c', 'd']]);
    });

    it('stops with a problem, not an exception, when prefix() gets a callback it cannot know', () => {
      const ev = run(`<?php\nRoute::any('a', 'b');\nRoute::prefix('api', unknown_callback());\nRoute::any('c', 'd');\n`);
      assert.deepEqual(declared(ev), [['a', 'b']]);
      assert.deepEqual(codes(ev), ['evaluation-limit']);
      assertNoError(ev);
      // Every method stops there alike: nothing to evaluate one method at a time.
      assert.equal(ev.mode, 'together');
    });

    it('evaluates methods alone when only some of them reach a prefix() with an unknown callback', () => {
      const ev = run(`<?php\nRoute::any('a', 'b');\nif ($_SERVER['REQUEST_METHOD'] === 'POST') Route::prefix('api', unknown_callback());\nRoute::any('c', 'd');\n`);
      assert.equal(ev.mode, 'per-method');
      assert.deepEqual(declared(ev, 'POST'), [['a', 'b']]);
      assert.deepEqual(declared(ev, 'GET'), [['a', 'b'], ['c', 'd']]);
    });

    it('never throws on edits of a real route file (deleted, inserted and cut text)', () => {
      const base = `<?php
defined('BASEPATH') OR exit('No direct script access allowed');
$route['default_controller'] = 'home';
Route::prefix('api', function () {
    Route::get('users', 'users/index', ['as' => 'users']);
    Route::resources('photos', ['constraint' => '(:num)']);
});
Route::any('club', 'club/index', [], function () { Route::any('players', 'players/index'); });
foreach (['a' => 'A', 'b' => 'B'] as $k => $v): Route::any("x/$k", strtolower($v)); endforeach;
Route::context('admin', ['home' => 'dashboard']);
Route::block('secret', 'hidden/(:num)');
$route = Route::map($route);
$route['cb'] = function ($id) { return "$id"; };
`;
      const inserts = ['(', ')', '{', '}', "'", '"', ';', '/*', '?>', '<?php ', '#[', '$', '=', ',', '[', ']', '\n', '=>', 'function () {', '<<<EOT\n', '&', '::'];
      let seed = 99;
      const rnd = (): number => {
        seed = (seed + 0x6d2b79f5) | 0;
        let t = seed;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
      for (let n = 0; n < 40; n++) {
        let src = base;
        for (let e = 1 + Math.floor(rnd() * 3); e > 0; e--) {
          const p = Math.floor(rnd() * src.length);
          const r = rnd();
          if (r < 0.3) src = src.slice(0, p) + src.slice(p + 1 + Math.floor(rnd() * 5));
          else if (r < 0.85) src = src.slice(0, p) + inserts[Math.floor(rnd() * inserts.length)] + src.slice(p);
          else src = src.slice(0, p);
        }
        try {
          run(src, { maxSteps: 50_000 });
        } catch (e) {
          assert.fail(`threw on ${JSON.stringify(src)}: ${e instanceof Error ? e.stack : String(e)}`);
        }
      }
    });
  });
});

describe("a Route:: call's recorded arguments", () => {
  it('stay as they were passed when the variable they came from is written afterwards', () => {
    // map() not assigned back, and a target it converts (it then copies its input rather than viewing it).
    const text = "<?php\n$route['a'] = 'x/y';\nRoute::any('b', '{default_controller}');\nRoute::map($route);\n$route['late'] = 'z';\n";
    const e = evaluateRouteFile(text, { dialect: 'bonfire' });
    const map = e.calls.find((c) => c.site.method === 'map');
    assert.ok(map);
    assert.deepEqual([...(map.args[0] as PhpArray).keys()], ['a']);
    assert.deepEqual([...e.methods[0].routes!.keys()], ['a', 'late']);
  });
});

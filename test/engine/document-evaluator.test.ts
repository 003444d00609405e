import type { AssignmentOrigin } from '../../shared/library/records';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_CHECKPOINTS, DocumentEvaluator } from '../../shared/evaluate/document-evaluator';
import { CHECKPOINTS_EVERYWHERE } from '../helpers/checkpoints';
import { evaluateRouteFile, type EvaluateOptions } from '../../shared/evaluate/evaluate-file';
import { FILE_CHECKS, fileChecks, sortFindings } from '../../shared/analysis/diagnostics/analyze';
import type { CheckContext } from '../../shared/analysis/diagnostics/core/context';
import { Describer } from '../../shared/analysis/model/origins';
import type { FileEvaluation } from '../../shared/evaluate/evaluate-file';
import { PhpClosure } from '../../shared/runtime/values';
import { evaluationTrace } from '../helpers/evaluation-trace';
import { CONFORMANCE, EXAMPLE_APP } from '../helpers/paths';
import { seededRandom } from '../helpers/random';

type Edit = (text: string, rnd: () => number) => string;

/** Statement-sized pieces of a route file, to duplicate, move and insert. */
function lines(text: string): string[] {
  return text.split('\n');
}

const EDITS: Record<string, Edit> = {
  'type a character': (t, r) => {
    const at = Math.floor(r() * t.length);
    return t.slice(0, at) + 'azy/_(\'";{'.charAt(Math.floor(r() * 10)) + t.slice(at);
  },
  'delete a range': (t, r) => {
    const at = Math.floor(r() * t.length);
    return t.slice(0, at) + t.slice(at + 1 + Math.floor(r() * 12));
  },
  'duplicate a line': (t, r) => {
    const ls = lines(t);
    const i = Math.floor(r() * ls.length);
    ls.splice(i, 0, ls[i]);
    return ls.join('\n');
  },
  'swap two lines': (t, r) => {
    const ls = lines(t);
    const i = Math.floor(r() * ls.length);
    const j = Math.floor(r() * ls.length);
    [ls[i], ls[j]] = [ls[j], ls[i]];
    return ls.join('\n');
  },
  'insert a declaration at the top': (t) => t.replace('<?php', "<?php\nRoute::get('top', 'home/top', ['as' => 'top']);"),
  'remove the first declaration': (t) => t.replace(/Route::\w+\([^;]*\);/, ''),
  'reset before map': (t) => t.replace('$route = Route::map', 'Route::reset();\n$route = Route::map'),
  // One place edited again and again, as a user retypes: the statements below it are stored as last time.
  'retype one place': (t) => {
    const at = Math.floor(t.length * 0.6);
    return t.slice(0, at) + (t.charAt(at) === 'q' ? 'z' : 'q') + t.slice(at + 1);
  },
};

/** The file checks' findings, as JSON. */
function findings(text: string, evaluation: FileEvaluation, checks: readonly ((ctx: CheckContext) => unknown[])[]): string {
  const ctx: CheckContext = { text, evaluation, describe: new Describer(text) };
  return JSON.stringify(sortFindings(checks.flatMap((c) => c(ctx)) as Parameters<typeof sortFindings>[0]));
}

function check(source: string, options: EvaluateOptions, seed: number, steps: number, checkpoints = DEFAULT_CHECKPOINTS): { replayed: number; resumed: number } {
  const rnd = seededRandom(seed);
  const doc = new DocumentEvaluator(options, checkpoints);
  let text = source;
  let replayed = 0;
  let resumed = 0;
  const names = Object.keys(EDITS);
  for (let step = 0; step <= steps; step++) {
    const name = step === 0 ? 'open' : names[Math.floor(rnd() * names.length)];
    if (step > 0) text = EDITS[name](text, rnd);
    const incremental = doc.update(text);
    replayed += incremental.statements.replayed;
    resumed += incremental.statements.resumed;
    const fresh = evaluateRouteFile(text, options);
    assert.deepEqual(evaluationTrace(incremental), evaluationTrace(fresh), `after edit ${step} (${name}) of seed ${seed}:\n${text}`);
    // The shared checks (memos warm from earlier versions) find what new ones find on a fresh evaluation.
    assert.equal(findings(text, incremental, FILE_CHECKS), findings(text, fresh, fileChecks()), `findings after edit ${step} (${name}) of seed ${seed}:\n${text}`);
  }
  return { replayed, resumed };
}

/** How many statements each version replayed, one document evaluating them in turn, each equal to a fresh evaluation. */
function replayedAcross(versions: readonly string[]): number[] {
  const doc = new DocumentEvaluator();
  return versions.map((text) => {
    const e = doc.update(text);
    assert.deepEqual(evaluationTrace(e), evaluationTrace(evaluateRouteFile(text)), text);
    return e.statements.replayed;
  });
}

describe('DocumentEvaluator: an edited document evaluates as a fresh one', () => {
  const cases = fs.readdirSync(path.join(CONFORMANCE, 'cases')).filter((f) => f.endsWith('.php'));
  let resumed = 0;
  for (const file of cases) {
    it(`${file}: 25 random edits, each equal to a fresh evaluation (with checkpoints everywhere, and as an editor takes them)`, () => {
      const source = fs.readFileSync(path.join(CONFORMANCE, 'cases', file), 'utf8');
      for (const dialect of ['spec', 'bonfire'] as const) {
        check(source, { dialect }, 7 + file.length, 25);
        resumed += check(source, { dialect }, 7 + file.length, 25, CHECKPOINTS_EVERYWHERE).resumed;
      }
    });
  }
  it('the random edits above resumed from checkpoints (else they held nothing about resuming)', () => {
    assert.ok(resumed > 100, `only ${resumed} statements were resumed past`);
  });

  it('a line duplicated below the checkpoint: the copy replaces the original, as in a fresh evaluation', () => {
    // Lines of one length, so that the copy lands where the original's kept origin was first anchored.
    const versions = [
      "<?php\n$route['a'] = '1';\n$route['h'] = 'x';\n$route['z'] = '9';\n",
      "<?php\n$route['h'] = 'x';\n$route['z'] = '9';\n",
      "<?php\n$route['h'] = 'x';\n$route['z'] = '8';\n",
      "<?php\n$route['h'] = 'x';\n$route['h'] = 'x';\n$route['z'] = '8';\n",
    ];
    const doc = new DocumentEvaluator({}, CHECKPOINTS_EVERYWHERE);
    for (const text of versions) assert.deepEqual(evaluationTrace(doc.update(text)), evaluationTrace(evaluateRouteFile(text)), text);
    assert.ok(doc.update(versions[3]).statements.resumed > 0, 'the last version resumed past the original');
  });

  it('the example app: replays unchanged declarations and still equals a fresh evaluation', () => {
    const source = fs.readFileSync(path.join(EXAMPLE_APP, 'application', 'config', 'routes.php'), 'utf8');
    const { replayed } = check(source, { constants: new Map([['SITE_AREA', 'admin']]) }, 42, 40);
    check(source.replace('<?php', "<?php\nconst SITE_AREA = 'x';"), { constants: new Map([['SITE_AREA', 'admin']]) }, 43, 20);
    assert.ok(replayed > 100, `only ${replayed} statements were replayed: the incremental path is not taken`);
  });

  it('a table of literal, versioned and catch-all keys: replayed evaluations and memoised checks equal fresh ones', () => {
    const lines = ['<?php'];
    for (let i = 0; i < 60; i++) {
      const seg = ['photos', 'admin', 'v1', 'api', `items${i % 7}`][i % 5];
      lines.push(`Route::get('${seg}/x${i}/(:num)', 'c${i}/m/$1');`);
      if (i % 6 === 0) lines.push(`Route::get('(v[0-9]+)/${seg}/y${i}', 'c${i}/v/$1');`);
      if (i % 13 === 0) lines.push(`Route::get('${seg}/(:any)/(:num)', 'c${i}/any/$1');`);
      if (i === 30) lines.push(`Route::get('(:any)/x${i + 3}/(:num)', 'c/catch/$1');`);
    }
    lines.push('$route = Route::map($route);', '');
    const text = lines.join('\n');
    const unreachable = JSON.parse(findings(text, evaluateRouteFile(text), fileChecks())).filter((f: { code: string }) => f.code === 'unreachable-route');
    assert.ok(unreachable.length >= 5, 'the table has routes made unreachable by earlier ones');
    const { replayed } = check(text, {}, 99, 40);
    assert.ok(replayed > 500);
  });

  it('memoised coverage follows its candidates: moving the covering route, or one of its bucket, changes the answer', () => {
    const covering = "Route::get('photos/(:any)/(:num)', 'p/any/$1');";
    const covered = "Route::get('photos/x/(:num)', 'p/x/$1');";
    const other = "Route::get('photos/y', 'p/y');";
    const versions = [
      [covering, other, covered],
      [other, covered, covering],
      [covering, covered, other],
      [covered, other, covering],
      [covering, other, covered],
    ].map((lines) => ['<?php', "Route::get('v/(:num)', 'v/$1');", ...lines, '$route = Route::map($route);', ''].join('\n'));
    const doc = new DocumentEvaluator();
    const unreachable: number[] = [];
    for (const text of versions) {
      const e = doc.update(text);
      const incremental = findings(text, e, FILE_CHECKS);
      assert.equal(incremental, findings(text, evaluateRouteFile(text), fileChecks()), text);
      unreachable.push(JSON.parse(incremental).filter((f: { code: string }) => f.code === 'unreachable-route').length);
    }
    assert.deepEqual(unreachable, [1, 0, 1, 0, 1]);
  });

  it('keeps the evaluation of a script that stopped above the edit, and evaluates again when the edit can change it', () => {
    const top = ["<?php", "Route::get('a', 'c/a');", "$i = 0;"];
    const loop = 'while (true) { $i++; }';
    const below = ["Route::get('b', 'c/b');", '$route = Route::map($route);', ''];
    const versions: { text: string; reused: boolean; why: string }[] = [
      { text: [...top, loop, ...below].join('\n'), reused: false, why: 'the first version' },
      { text: [...top, loop, "Route::get('x', 'c/x');", ...below].join('\n'), reused: true, why: 'a line added below the loop' },
      { text: [...top, loop, '// note', "Route::get('x', 'c/x');", ...below].join('\n'), reused: true, why: 'a comment below the loop' },
      { text: [...top, loop, 'function helper() { return 1; }', ...below].join('\n'), reused: false, why: 'a function declared below (PHP declares it before the file runs)' },
      { text: [...top, loop, 'function helper() { return 1; }', "Route::get('y', 'c/y');", ...below].join('\n'), reused: true, why: 'below again, same function' },
      { text: [...top, loop, 'function helper() { return 1; }', 'Route::get(', ...below].join('\n'), reused: true, why: 'a syntax error below: the new parse problem is reported' },
      { text: ['<?php', "Route::get('z', 'c/z');", ...top.slice(1), loop, ...below].join('\n'), reused: false, why: 'a line added above the loop' },
      { text: ['<?php', "Route::get('z', 'c/z');", ...top.slice(1), 'while (true) { $i += 2; }', ...below].join('\n'), reused: false, why: 'the loop itself edited' },
      { text: ['<?php', "Route::get('z', 'c/z');", ...top.slice(1), 'Route::nope();', ...below].join('\n'), reused: false, why: 'a fatal error instead of the loop' },
      { text: ['<?php', "Route::get('z', 'c/z');", ...top.slice(1), 'Route::nope();', "Route::get('w', 'c/w');", ...below].join('\n'), reused: true, why: 'a line added below the fatal error' },
    ];
    const options = { maxSteps: 2_000 };
    const doc = new DocumentEvaluator(options);
    for (const v of versions) {
      const e = doc.update(v.text);
      const reused = e.statements.replayed === 0 && e.statements.evaluated === 0;
      assert.equal(reused, v.reused, `${v.why}: ${reused ? 'reused' : 'evaluated'}`);
      assert.deepEqual(evaluationTrace(e), evaluationTrace(evaluateRouteFile(v.text, options)), v.why);
      assert.equal(findings(v.text, e, FILE_CHECKS), findings(v.text, evaluateRouteFile(v.text, options), fileChecks()), v.why);
    }
    // A closure called since (the URL tester runs closure routes) may have changed what the script left: evaluated again.
    const closure = ["<?php", "$route['x'] = function () { Route::get('late', 'c/late'); return 'c/x'; };", 'Route::nope();', ''].join('\n');
    const first = doc.update(closure);
    const route = first.methods[0].routes?.get('x');
    assert.ok(route instanceof PhpClosure);
    first.callClosure(0, route, []);
    const edited = `${closure}// below\n`;
    assert.deepEqual(evaluationTrace(doc.update(edited)), evaluationTrace(evaluateRouteFile(edited, options)));
  });

  it('replays prefix(CONSTANT, ...) while the constant is fixed, and not once the file declares it', () => {
    const options = { constants: new Map([['SITE_AREA', 'admin'], ['API', 'api']]) };
    const body = [
      "Route::prefix(SITE_AREA, function () { Route::context('users', ['home' => 'dash']); Route::get('x', 'a/x'); });",
      "Route::prefix(API . '/v1', function () { Route::resources('photos'); });",
      "Route::get(SITE_AREA . '/y', 'a/y');",
      "define('SITE_AREA', 'other');",
      "Route::get(UNDEFINED_ONE, 'a/z');",
    ];
    const versions = [
      ['<?php', ...body, '$route = Route::map($route);', ''],
      ['<?php', '// moved', ...body, '$route = Route::map($route);', ''],
      ['<?php', "const SITE_AREA = 'moved';", ...body, '$route = Route::map($route);', ''],
      ['<?php', ...body, '$route = Route::map($route);', ''],
    ].map((l) => l.join('\n'));
    const doc = new DocumentEvaluator(options);
    const replayed: number[] = [];
    for (const text of versions) {
      const e = doc.update(text);
      replayed.push(e.statements.replayed);
      assert.deepEqual(evaluationTrace(e), evaluationTrace(evaluateRouteFile(text, options)), text);
      assert.equal(findings(text, e, FILE_CHECKS), findings(text, evaluateRouteFile(text, options), fileChecks()), text);
    }
    // The constant's statements replay once recorded; a `const` in the file makes them evaluated.
    assert.deepEqual(replayed, [0, 3, 0, 0]);
  });

  it('moves replayed spans with their statement and keeps identical statements apart', () => {
    const decl = "Route::get('a', 'home/a', ['as' => 'a']);\n";
    const doc = new DocumentEvaluator();
    doc.update(`<?php\n${decl}${decl}$route = Route::map($route);\n`);
    const text = `<?php\n// moved\n${decl}${decl}$route = Route::map($route);\n`;
    const e = doc.update(text);
    assert.equal(e.statements.replayed, 2);
    const [first, second] = e.methods[0].library.created;
    assert.notEqual(first, second);
    const placed = e.places.site(first.site);
    assert.equal(text.slice(placed.span.start, placed.span.end), decl.trim());
    assert.equal(e.methods[0].library.marks.replacedBy(first), second);
    assert.equal(e.methods[0].library.marks.replacedBy(second), undefined);
    assert.deepEqual(evaluationTrace(e), evaluationTrace(evaluateRouteFile(text)));
  });

  it("replays `$route['…'] = …;` entries where they move, and evaluates one whose key holds another declaration's entry", () => {
    const entries = (top: string, a: string) =>
      ['<?php', top, "$route['default_controller'] = 'home';", `$route['a'] = '${a}';`, "$route['b'] = array('GET' => 'x/b', 'POST' => 'x/b2');", "$route[2] = 'x/two';", "$route['a'] = 'x/again';", "$route['a/b'] = 'x/ab';", '$route = Route::map($route);', "$route['c'] = 'x/c';", ''].join('\n');
    const versions = [entries('', 'x/a'), entries('// moved', 'x/a'), entries('// moved', 'x/a1'), entries("$route['b'] = 'first';", 'x/a1')];
    const replayed = replayedAcross(versions);
    // 2, 'a/b' and 'c' each time ('c' after map(), into each method's table), 'b' but below an entry of the same key,
    // the first 'a' where it was not edited, and 'default_controller' once $route is an array before it; never the
    // second 'a' (it replaces the first).
    assert.deepEqual(replayed, [0, 5, 4, 5]);
  });

  it("replays `$route['…'] = …;` entries after map() into each method's table, and evaluates those whose key a method already holds", () => {
    const file = (top: string, extra: string) =>
      ['<?php', top, "Route::get('photos', 'photos/index');", "Route::post('photos', 'photos/create');", '$route = Route::map($route);', "$route['translate_uri_dashes'] = FALSE;", "$route['dev/(:any)'] = 'dev/show/$1';", "$route['photos'] = 'photos/legacy';", extra, "$route['dev2'] = 'dev/two';", ''].join('\n');
    const versions = [file('', ''), file('// moved', ''), file('// moved', "$route['extra'] = 'x/extra';"), file('// moved', "$route['dev2'] = 'dev/first';")];
    const replayed = replayedAcross(versions);
    // 'translate_uri_dashes', 'dev/(:any)' and 'dev2' each time after the first; never 'photos' (GET and POST hold a
    // route there: it replaces it), nor an added line the first time it is read, nor 'dev2' below an entry of its key.
    assert.deepEqual(replayed, [0, 5, 5, 4]);
  });

  it('resumes from the statement above the edit, and runs everything again where the state above may differ', () => {
    const decls = Array.from({ length: 40 }, (_, i) => `Route::get('p${i}', 'c/p${i}', ['as' => 'p${i}']);`);
    const withLine = (i: number, line: string) => [...decls.slice(0, i), line, ...decls.slice(i)];
    const file = (lines: string[], tail: string[] = []) => ['<?php', "$route['default_controller'] = 'home';", ...lines, ...tail, '$route = Route::map($route);', ''].join('\n');
    const helper = 'function helper() { return \'c/h\'; }';
    const byReference = (lines: string[]) => ["$f = function () use (&$route) { $route['r'] = 'c/r'; };", ...lines];
    const versions: { text: string; resumed: boolean; why: string }[] = [
      { text: file(decls), resumed: false, why: 'the first version' },
      { text: file(withLine(35, "Route::get('p0', 'c/again');")), resumed: false, why: 'the first edit: a checkpoint is taken above it' },
      { text: file(withLine(35, "Route::get('p0', 'c/again2');")), resumed: true, why: 'the same statement edited again' },
      { text: file(withLine(38, "Route::get('p1', 'c/below');")), resumed: true, why: 'an edit a little further down' },
      { text: file(withLine(3, "Route::get('p2', 'c/above');")), resumed: false, why: 'an edit above the checkpoint' },
      { text: file(withLine(38, "Route::get('p1', 'c/below');")), resumed: false, why: 'the edit above undone: its run moved the spans the old checkpoint shared, so it was dropped' },
      { text: file(withLine(38, "Route::get('p1', 'c/below2');")), resumed: false, why: 'so a checkpoint is taken again' },
      { text: file(withLine(38, "Route::get('p1', 'c/below3');")), resumed: true, why: 'and resumed from' },
      { text: file(withLine(38, "Route::get('p1', helper());"), [helper]), resumed: false, why: 'a function declared below: statements above may call it' },
      { text: file(withLine(38, "Route::get('p1', helper() . 'x');"), [helper]), resumed: true, why: 'the same function where it was' },
      { text: file(withLine(38, "Route::get('p1', helper() . 'xy');"), ['// moved', helper]), resumed: true, why: 'the function moved, and nothing above called it' },
      { text: file(["$top = helper();", ...withLine(38, "Route::get('p1', helper() . 'xy');")], ['// moved', helper]), resumed: false, why: 'a call above it' },
      { text: file(["$top = helper();", ...withLine(38, "Route::get('p1', helper() . 'xyz');")], ['// moved', helper]), resumed: false, why: 'then an edit below the call (the checkpoint is taken there)' },
      { text: file(["$top = helper();", ...withLine(38, "Route::get('p1', helper() . 'xyzw');")], ['// moved', helper]), resumed: false, why: 'and another, which moves the function the checkpoint saw called' },
      { text: file(byReference(withLine(38, "Route::get('p1', 'c/r1');"))), resumed: false, why: 'a by-reference capture added at the top' },
      { text: file(byReference(withLine(38, "Route::get('p1', 'c/r2');"))), resumed: false, why: 'an edit below it: its scope cannot be copied into a checkpoint' },
      { text: file(byReference(withLine(38, "Route::get('p1', 'c/r3');"))), resumed: false, why: 'so none is kept' },
    ];
    const doc = new DocumentEvaluator();
    for (const v of versions) {
      const e = doc.update(v.text);
      assert.equal(e.statements.resumed > 0, v.resumed, `${v.why}: resumed past ${e.statements.resumed} statements`);
      assert.deepEqual(evaluationTrace(e), evaluationTrace(evaluateRouteFile(v.text)), v.why);
      assert.equal(findings(v.text, e, FILE_CHECKS), findings(v.text, evaluateRouteFile(v.text), fileChecks()), v.why);
    }
  });

  it('tells a statement copied below a checkpoint from its original above it (only repeated statements are counted)', () => {
    const decls = Array.from({ length: 40 }, (_, i) => `Route::get('r${i}', 'c/r${i}');`);
    const file = (lines: string[]) => ['<?php', ...lines, '$route = Route::map($route);', ''].join('\n');
    const withLines = (at: number, ...added: string[]) => file([...decls.slice(0, at), ...added, ...decls.slice(at)]);
    const doc = new DocumentEvaluator(undefined, CHECKPOINTS_EVERYWHERE);
    const versions = [
      file(decls),
      withLines(35, "Route::get('z', 'c/z1');"),
      // Resumed from the checkpoint above the edit, whose run met decls[3] once and did not count it.
      withLines(35, "Route::get('z', 'c/z2');", decls[3]),
      withLines(35, "Route::get('z', 'c/z3');", decls[3]),
      withLines(35, "Route::get('z', 'c/z3');"),
    ];
    let resumed = 0;
    for (const text of versions) {
      const e = doc.update(text);
      resumed += e.statements.resumed;
      assert.deepEqual(evaluationTrace(e), evaluationTrace(evaluateRouteFile(text)));
      const r3 = e.methods[0].library.created.filter((r) => r.key === 'r3');
      assert.equal(new Set(r3).size, r3.length, 'one record object stored twice');
      for (const r of r3) assert.equal(text.slice(e.places.site(r.site).span.start, e.places.site(r.site).span.end), decls[3]);
    }
    assert.ok(resumed > 0, 'no version resumed from a checkpoint');
  });

  it("keeps a `$route[...]` assignment's origin when a keystroke above only moves it, each version placing it in its own text", () => {
    const assigns = Array.from({ length: 60 }, (_, i) => `$route['legacy${i}'] = 'old/page${i}';`);
    const file = (typed: string) => ['<?php', `Route::get('${typed}top', 'home/top');`, ...assigns, "$route[] = 'pushed/page';", "$route['twin'] = 'a/b';", "$route['twin'] = 'a/b';", '$route = Route::map($route);', ''].join('\n');
    const doc = new DocumentEvaluator(undefined, CHECKPOINTS_EVERYWHERE);
    let before = doc.update(file(''));
    let beforeText = file('');
    for (const typed of ['n', 'ne', 'new', 'ne', 'n', '']) {
      const text = file(typed);
      const e = doc.update(text);
      assert.deepEqual(evaluationTrace(e), evaluationTrace(evaluateRouteFile(text)), typed);
      const origin = (ev: FileEvaluation, key: string | number) => ev.methods[0].routes?.originOf(key) as AssignmentOrigin;
      const placed = (ev: FileEvaluation, key: string | number) => ev.places.entry(origin(ev, key)).span;
      // The same object, placed at its new place in the new text and at its old one in the old.
      assert.equal(origin(e, 'legacy30'), origin(before, 'legacy30'), typed);
      const now = placed(e, 'legacy30');
      assert.equal(text.slice(now.start, now.end), "$route['legacy30'] = 'old/page30';");
      const then = placed(before, 'legacy30');
      assert.equal(beforeText.slice(then.start, then.end), "$route['legacy30'] = 'old/page30';");
      // An assignment without a key as well.
      assert.equal(origin(e, 0), origin(before, 0), typed);
      const pushed = placed(e, 0);
      assert.equal(text.slice(pushed.start, pushed.end), "$route[] = 'pushed/page';");
      beforeText = text;
      before = e;
    }
  });

  it('resumes below a map() that wrote over $route entries and below replaced routes, keeping both for the checks', () => {
    // Route::any() after map() changes every method's table: the views map() returned are settled, so a checkpoint may be taken below.
    const decls = Array.from({ length: 40 }, (_, i) => `Route::get('q${i}', 'c/q${i}');`);
    const file = (last: string) =>
      ['<?php', "$route['legacy'] = 'old/page';", "Route::get('twice', 'c/one');", "Route::get('twice', 'c/two');", "Route::any('legacy', 'new/page');", '$route = Route::map($route);', "Route::any('after', 'c/after');", ...decls, last, '$route = Route::map($route);', ''].join('\n');
    const doc = new DocumentEvaluator(undefined, CHECKPOINTS_EVERYWHERE);
    const versions = [file("Route::get('z', 'c/z');"), file("Route::get('z', 'c/z1');"), file("Route::get('z', 'c/z2');"), file("Route::get('z', 'c/z3');")];
    let resumed = 0;
    for (const text of versions) {
      const e = doc.update(text);
      resumed += e.statements.resumed;
      assert.deepEqual(evaluationTrace(e), evaluationTrace(evaluateRouteFile(text)));
      const found = findings(text, e, FILE_CHECKS);
      assert.equal(found, findings(text, evaluateRouteFile(text), fileChecks()));
      assert.equal((JSON.parse(found) as { code: string }[]).filter((f) => f.code === 'duplicate-route').length, 2, found);
    }
    assert.ok(resumed > 0, 'no version resumed from a checkpoint');
  });

  it('forgets recorded effects when the dialect changes', () => {
    const text = "<?php\nRoute::context('admin', ['home' => 'dash']);\n$route = Route::map($route);\n";
    const doc = new DocumentEvaluator({ dialect: 'spec' });
    doc.update(text);
    doc.configure({ dialect: 'bonfire' });
    assert.deepEqual(evaluationTrace(doc.update(text)), evaluationTrace(evaluateRouteFile(text, { dialect: 'bonfire' })));
  });
});

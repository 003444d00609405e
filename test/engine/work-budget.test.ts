import * as assert from 'node:assert/strict';
import { evaluateRouteFile, type FileEvaluation } from '../../shared/evaluate/evaluate-file';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';
import { MAX_WARNINGS } from '../../shared/evaluate/interpreter';
import { InclusionChecker } from '../../shared/analysis/regular/inclusion';
import { evaluationTrace } from '../helpers/evaluation-trace';

/**
 * The step budget bounds work, not only operations: size-proportional work is charged in steps
 * and results past the size caps stop the evaluation. Assertions are on steps and messages, never
 * on time; the wall-clock budget is tested with a clock the test drives.
 */

const BEFORE = "Route::get('before', 'c/before');\n";
const AFTER = "\nRoute::get('after', 'c/after');\n$route = Route::map($route);\n";

function run(code: string, options: Parameters<typeof evaluateRouteFile>[1] = {}): FileEvaluation {
  return evaluateRouteFile(`<?php\n${BEFORE}${code}${AFTER}`, { maxMilliseconds: Infinity, ...options });
}

function declared(e: FileEvaluation): string[] {
  return e.methods[0].library.created.map((r) => String(r.key));
}

/** The evaluation stopped at an analysis limit whose message matches, after declaring `before` and not `after`. */
function assertStopped(e: FileEvaluation, message: RegExp): void {
  const limit = e.problems.find((p) => p.code === 'evaluation-limit');
  assert.ok(limit, `expected an evaluation-limit problem; got ${JSON.stringify(e.problems.map((p) => p.message))}, error ${e.methods[0].error?.message}`);
  assert.match(limit.message, message);
  assert.equal(limit.stops, true);
  assert.equal(e.methods[0].error, null, 'no PHP error is made up');
  assert.deepEqual(declared(e), ['before']);
}

const CAP = /would build (a string of [\d,]+ characters|an array of [\d,]+ entries), more than the/;

describe('evaluation work budget', () => {
  describe('size-proportional work is charged to the step budget', () => {
    it('strtolower() of 1 MB, 300 times: 300 operations, but over the 100,000 steps of the budget', () => {
      assertStopped(run("$s = str_repeat('A', 1000000);\nfor ($i = 0; $i < 300; $i++) { $t = strtolower($s); }"), /100,000 steps/);
    });

    it('the same through each kind of builtin that walks its argument (str_replace, explode, implode, substr_count-like strpos, in_array, array_keys)', () => {
      const loops = [
        "$t = str_replace('x', 'y', $s);",
        "$t = explode('B', $s);",
        "$t = strrev($s);",
        "$t = trim($s);",
        "$t = strpos($s, 'B');",
        "$t = in_array('B', $a);",
        "$t = array_keys($a);",
        "$t = array_merge($a, $a);",
        "$t = count(array_unique($a));",
      ];
      for (const body of loops) {
        const e = run(`$s = str_repeat('A', 1000000);\n$a = range(1, 100000);\nfor ($i = 0; $i < 300; $i++) { ${body} }`);
        assertStopped(e, /100,000 steps/);
      }
    });

    it('concatenation and interpolation are paid for by the length they build', () => {
      assertStopped(run("$s = str_repeat('A', 500000);\nfor ($i = 0; $i < 300; $i++) { $t = $s . 'x'; }"), /100,000 steps/);
      assertStopped(run("$s = str_repeat('A', 500000);\nfor ($i = 0; $i < 300; $i++) { $t = \"{$s}x\"; }"), /100,000 steps/);
    });

    it('comparing large values and walking an array with foreach are paid for', () => {
      assertStopped(run("$a = range(1, 100000);\n$b = range(1, 100000);\nfor ($i = 0; $i < 300; $i++) { $t = $a == $b; }"), /100,000 steps/);
      assertStopped(run("$a = range(1, 100000);\n$b = array_fill(0, 1000, $a);\n$c = array_fill(0, 1000, $a);\n$t = $b == $c;"), /100,000 steps/);
      assertStopped(run("$a = range(1, 100000);\nfor ($i = 0; $i < 300; $i++) { foreach ($a as $x) { break; } }"), /100,000 steps/);
    });

    it('routes made in a loop past a call site’s first thousand per method are paid for: a Route::context() loop stops within the budget', () => {
      // 63 records an iteration (7 rows under 9 methods): unpaid, 100,000 steps made about 800,000 records.
      const e = run("for ($i = 0; $i < 1000000; $i++) { Route::context(\"area$i\"); }");
      const limit = e.problems.find((p) => p.code === 'evaluation-limit');
      assert.match(limit?.message ?? '', /100,000 steps/);
      const records = e.methods.reduce((n, m) => n + m.library.created.length, 0);
      assert.ok(records < 30_000, `${records} records were made`);
    });

    it('a loop over an application’s modules declares all of them for the steps of its statements', () => {
      const modules = Array.from({ length: 140 }, (_, i) => `'m${i}'`).join(', ');
      const e = run(`foreach (array(${modules}) as $m) { Route::context($m); Route::resources($m); }`);
      assert.equal(e.problems.length, 0, JSON.stringify(e.problems));
      assert.equal(declared(e).length, 2 + 140 * 6 + 140 * 4); // six context() rows and four resources() rows under GET
      assert.ok(e.steps < 5_000, `took ${e.steps} steps`);
    });

    it('ordinary code costs the steps it did (a few bytes per operation are free)', () => {
      const e = run("$p = 'admin';\nforeach (array('users', 'roles') as $r) { Route::get(\"$p/\" . strtolower($r), 'c/m'); }");
      assert.deepEqual(declared(e), ['before', 'admin/users', 'admin/roles', 'after']);
      assert.ok(e.steps < 200, `took ${e.steps} steps`);
    });
  });

  describe('results past the size caps stop the evaluation before they are built', () => {
    const cases: [string, string][] = [
      ['str_pad', "$x = strrev(str_pad('', 200000000));"],
      ['str_repeat', "$x = str_repeat('ab', 100000000);"],
      ['sprintf width', "$x = sprintf('%1000000000d', 1);"],
      ['sprintf repeated widths', "$x = vsprintf(str_repeat('%500000s', 100), array_fill(0, 100, 'a'));"],
      ['implode glue', "$x = implode(str_repeat('x', 100000), range(1, 100000));"],
      ['str_replace amplification', "$x = str_replace('a', str_repeat('b', 100000), str_repeat('a', 100000));"],
      ['explode into too many pieces', "$s = str_repeat(',', 1000000);\n$x = explode(',', $s);"],
      ['concatenation doubling', "$s = 'ab';\nfor ($i = 0; $i < 40; $i++) { $s = $s . $s; }"],
      ['.= doubling', "$s = 'ab';\nfor ($i = 0; $i < 40; $i++) { $s .= $s; }"],
      ['interpolation doubling', "$s = 'ab';\nfor ($i = 0; $i < 40; $i++) { $s = \"$s$s\"; }"],
      ['range', '$x = range(1, 100000000);'],
      ['array_fill', "$x = array_fill(0, 100000000, 'x');"],
      ['array_merge doubling', '$a = range(1, 100000);\nfor ($i = 0; $i < 40; $i++) { $a = array_merge($a, $a); }'],
      ['array union doubling', '$a = range(1, 60000);\n$b = array_combine(range(60001, 120000), range(1, 60000));\n$c = $a + $b;'],
      ['array spread doubling', '$a = range(1, 100000);\nfor ($i = 0; $i < 40; $i++) { $a = [...$a, ...$a]; }'],
    ];
    for (const [name, code] of cases) {
      it(name, () => assertStopped(run(code, { maxSteps: 100_000_000 }), CAP));
    }
  });

  describe('PHP semantics at ordinary sizes', () => {
    it('str_repeat() with a negative count is the ValueError PHP raises', () => {
      const e = run("$x = str_repeat('a', -1);");
      assert.equal(e.methods[0].error?.message, 'str_repeat(): Argument #2 ($times) must be greater than or equal to 0');
    });

    it('results up to the caps are built (1 MiB strings, 100,000-entry arrays)', () => {
      const e = run("$s = str_repeat('a', 1048576);\n$a = range(1, 100000);\nRoute::get(strlen($s) . '/' . count($a), 'c/m');", { maxSteps: 10_000_000 });
      assert.deepEqual(declared(e), ['before', '1048576/100000', 'after']);
    });
  });

  describe('the wall-clock budget', () => {
    /** A clock that moves 1 ms every time it is read. */
    function tickingClock(): () => number {
      let now = 0;
      return () => now++;
    }

    it('stops an evaluation that runs past it, wherever the step budget is', () => {
      const e = run('while (true) { $x = 1; }', { maxSteps: Number.MAX_SAFE_INTEGER, maxMilliseconds: 20, clock: tickingClock() });
      assertStopped(e, /took longer than 20 ms/);
    });

    it('a loop copying a large shared array on every write meets it (the copies are not charged in steps)', () => {
      const e = run('$a = range(1, 50000);\nwhile (true) { $b = $a; $b[] = 1; }', { maxSteps: Number.MAX_SAFE_INTEGER, maxMilliseconds: 20, clock: tickingClock() });
      assertStopped(e, /took longer than 20 ms/);
      // range() costs 50,000 steps; then 20 iterations of a few steps, not 20 × 1,024.
      assert.ok(e.steps < 51_000, `stopped after ${e.steps} steps: the clock was read at each copy`);
    });

    it('the methods evaluated one by one share it', () => {
      const clock = tickingClock();
      // A condition on the request method makes the methods run one by one.
      const e = run("if ($_SERVER['REQUEST_METHOD'] === 'GET') { Route::get('g', 'c/g'); }\nwhile (true) { $x = 1; }", { maxSteps: Number.MAX_SAFE_INTEGER, maxMilliseconds: 50, clock });
      assert.equal(e.mode, 'per-method');
      assert.ok(e.problems.some((p) => /took longer than 50 ms/.test(p.message)));
      // One reading per 1,024 steps and per run: far fewer than 9 budgets of 50 readings.
      assert.ok(clock() < 120, `the clock was read ${clock()} times`);
    });

    it('is not read when unbounded, and an ordinary file never meets the default', () => {
      let readings = 0;
      const clock = () => (readings++, 0);
      const e = run("for ($i = 0; $i < 5000; $i++) { $x = $i; }", { maxMilliseconds: Infinity, clock });
      assert.deepEqual(declared(e), ['before', 'after']);
      assert.ok(readings <= 1, `read ${readings} times`);
      assert.deepEqual(evaluateRouteFile(`<?php\n${BEFORE}${AFTER}`).problems, []);
    });

    it('a document evaluated again with another time budget is evaluated afresh', () => {
      const text = `<?php\n${BEFORE}while (true) { $x = 1; }${AFTER}`;
      const doc = new DocumentEvaluator({ maxSteps: Number.MAX_SAFE_INTEGER, maxMilliseconds: 20, clock: tickingClock() });
      const first = doc.update(text);
      assert.ok(first.problems.some((p) => /took longer than 20 ms/.test(p.message)));
      doc.configure({ maxSteps: 1000, maxMilliseconds: Infinity });
      assert.deepEqual(evaluationTrace(doc.update(text)), evaluationTrace(evaluateRouteFile(text, { maxSteps: 1000, maxMilliseconds: Infinity })));
    });
  });

  describe('constants files are evaluated under the same budgets', () => {
    it('a hostile loop in config/constants.php stops at the step budget the host gives it', () => {
      const text = "<?php\ndefine('A', 1);\n$s = str_repeat('A', 1000000);\nfor ($i = 0; $i < 300; $i++) { $t = strtolower($s); }\ndefine('B', 2);\n";
      const e = evaluateRouteFile(text, { file: 'constants.php', maxSteps: 200_000, maxMilliseconds: Infinity });
      assert.equal(e.constants.get('A'), 1);
      assert.equal(e.constants.has('B'), false);
      assert.ok(e.problems.some((p) => /200,000 steps/.test(p.message)));
    });
  });
});

describe('inclusion work budget', () => {
  it('nested counted repetitions are refused before any automaton is built', () => {
    const c = new InclusionChecker().coverage('aaaa', ['((a{1,20}){1,20}){1,20}']);
    assert.equal(c.kind, 'unknown');
    assert.match(c.kind === 'unknown' ? c.reason : '', /counted repetitions expand to more than 1,000 items/);
  });

  it('a subset construction that would visit millions of NFA states gives up', () => {
    const c = new InclusionChecker().coverage('(.{1,30}){1,30}', []);
    assert.equal(c.kind, 'unknown');
    assert.match(c.kind === 'unknown' ? c.reason : '', /takes more than [\d,]+ steps to build/);
  });

  it('the products of one decision share a budget: past it the key is left undecided, never reported', () => {
    // Covered by the two together, by neither alone: only products decide it.
    const candidates = ['a[ab]*', 'b[ab]*'];
    const bounded = new InclusionChecker({ maxProductWork: 100 }).coverage('[ab]{1,30}', candidates);
    assert.deepEqual(bounded, { kind: 'unknown', reason: 'the inclusion check takes too many steps' });
    // With the default budget the same question is decided.
    assert.deepEqual(new InclusionChecker().coverage('[ab]{1,30}', candidates), { kind: 'covered', by: [0, 1] });
  });

  it('keys longer than 4,096 characters are left undecided', () => {
    const long = 'a'.repeat(5000);
    const c = new InclusionChecker().coverage(long, ['(:any)']);
    assert.equal(c.kind, 'unknown');
  });
});

describe('work budget: warnings raised in a loop', () => {
  it('keeps the first ones per request method and says that more were raised', () => {
    const e = run('for ($i = 0; $i < 5000; $i++) { $t = $undefined; }');
    const warnings = e.methods[0].warnings;
    assert.equal(warnings.length, MAX_WARNINGS + 1);
    assert.match(warnings[0], /Undefined variable \$undefined/);
    assert.match(warnings[MAX_WARNINGS], /further warnings are not kept: more than 1,000 were raised/);
    assert.deepEqual(declared(e), ['before', 'after']);
  });

  it('gives a document the same warnings when its statements are replayed as when evaluated afresh', () => {
    const loop = 'for ($i = 0; $i < 600; $i++) { $t = $undefined; }\n';
    const text = (extra: string) => `<?php\n${BEFORE}${loop}Route::get('x', 'c/x');\n${extra}${loop}${AFTER}`;
    const evaluator = new DocumentEvaluator();
    evaluator.update(text(''));
    const edited = text("Route::get('y', 'c/y');\n");
    assert.deepEqual(evaluator.update(edited).methods.map((m) => m.warnings), evaluateRouteFile(edited).methods.map((m) => m.warnings));
  });
});

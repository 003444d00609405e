import * as assert from 'node:assert/strict';
import { analyzeRouteFile } from '../../../shared/analysis/diagnostics/analyze';
import type { Finding } from '../../../shared/analysis/diagnostics/core/types';
import { evaluateRouteFile, type FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { spanViolations } from '../../helpers/span-invariants';
import { exerciseFeatures, spreadOffsets } from './features';

/**
 * Hostile route files, each with what the analysis must say about it. The test file runs each
 * case in a worker under a deadline (a hang is synchronous: only a worker can be stopped), so a
 * case is looked up here by name and its assertions run inside the worker.
 */

export interface Analysed {
  text: string;
  evaluation: FileEvaluation;
  findings: Finding[];
}

export interface HostileCase {
  name: string;
  build(): string;
  /** Why the case is skipped (a known failure whose fix belongs to a larger change), if it is. */
  skip?: string;
  /** The step budget to evaluate with (the default budget when absent). */
  maxSteps?: number;
  /** Offsets where editor features are asked (default: a few spread over the file). */
  offsets?(text: string): number[];
  expect(a: Analysed): void;
}

const PHP = '<?php\n';
const AFTER = "\nRoute::get('after', 'pages/after');\n";

/** The assertion most cases make: a finding with this code whose message says what happened. */
export function assertFinding(a: Analysed, code: string, message: RegExp): Finding {
  const f = a.findings.find((x) => x.code === code && message.test(x.message));
  assert.ok(f, `expected a ${code} finding matching ${message}; got:\n${a.findings.slice(0, 8).map((x) => `${x.code}: ${x.message}`).join('\n')}`);
  return f;
}

/** The file's statements after the hostile one were still evaluated (the damage stayed local). */
export function assertDeclared(a: Analysed, key: string): void {
  const keys = new Set(a.evaluation.methods.flatMap((m) => m.library.created.map((r) => String(r.key))));
  assert.ok(keys.has(key), `expected a route '${key}' to be declared; declared: ${[...keys].slice(0, 10).join(', ')}`);
}

function nest(depth: number, open: string, close: string, inner: string): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** Deep nesting is either parsed and evaluated to the interpreter's limit, or refused by the parser: both say so. */
const NESTED_TOO_DEEPLY = /nested too deeply|nest too deeply/;

function unterminated(name: string, code: string, message: RegExp): HostileCase {
  return {
    name: `unterminated ${name}`,
    build: () => `${PHP}Route::get('before', 'pages/before');\n${code}${AFTER}`,
    expect: (a) => {
      assertFinding(a, 'syntax-error', message);
      assertDeclared(a, 'before');
    },
  };
}

function endless(name: string, code: string, message: RegExp): HostileCase {
  return {
    name,
    build: () => `${PHP}Route::get('before', 'pages/before');\n${code}${AFTER}`,
    expect: (a) => {
      assertFinding(a, 'evaluation-limit', message);
      assertDeclared(a, 'before');
    },
  };
}

export const ENGINE_CASES: HostileCase[] = [
  {
    name: 'a 10 MB route file through the engine: bounded by the step budget',
    build: () => {
      // A block of distinct declarations pasted over and over (parsing 10 MB of all-distinct
      // statements is bounded by the size only: the server refuses such files, see size-limit.ts).
      const block: string[] = [];
      for (let i = 0; i < 200; i++) {
        block.push(
          i % 50 === 0
            ? `// section ${i}\nRoute::prefix('s${i}', function () { Route::get('list/(:num)', 'section${i % 7}/list/$1'); });\n`
            : `Route::get('page${i}/(:any)', 'pages/show${i % 13}/$1', array('as' => 'page${i}'));\n`,
        );
      }
      const text = block.join('');
      return PHP + text.repeat(Math.ceil(10_000_000 / text.length)) + '$route = Route::map($route);\n';
    },
    maxSteps: 60_000,
    // Every cursor feature lexes the text before the cursor: the end of the file is the costly place.
    offsets: (t) => [t.length],
    expect: (a) => {
      assert.ok(a.text.length >= 10_000_000);
      assertFinding(a, 'evaluation-limit', /60,000 steps/);
    },
  },
  {
    name: 'binary bytes (every byte value, decoded as latin1)',
    build: () => {
      const bytes = Buffer.alloc(256 * 8);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 167) % 256;
      return `${PHP}Route::get('before', 'pages/before');\n${bytes.toString('latin1')}${AFTER}`;
    },
    expect: (a) => {
      assertFinding(a, 'syntax-error', /./);
      assertDeclared(a, 'before');
    },
  },
  {
    name: 'invalid UTF-8 (truncated and overlong sequences decoded as U+FFFD)',
    build: () => {
      const bad = Buffer.from([0xc3, 0x28, 0xe2, 0x82, 0xf0, 0x9f, 0x92, 0xc0, 0xaf, 0xff, 0xfe]);
      const file = Buffer.concat([Buffer.from(`${PHP}Route::get('caf`), bad, Buffer.from(`', 'pages/show');\n`), bad, Buffer.from(AFTER)]);
      return file.toString('utf8');
    },
    expect: (a) => {
      assert.ok(a.text.includes('\uFFFD'));
      assertFinding(a, 'syntax-error', /./);
      assertDeclared(a, 'after');
    },
  },
  {
    name: 'NUL bytes in strings and between statements',
    // NUL bytes between statements are garbage PHP refuses; they cost their own statement only.
    build: () => `${PHP}Route::get('a\0b', 'pages/\0');\n\0\0\0;\n${AFTER}`,
    expect: (a) => {
      assertDeclared(a, 'a\0b');
      assertFinding(a, 'syntax-error', /./);
      assertDeclared(a, 'after');
    },
  },
  {
    name: 'lone surrogates in strings and in code',
    build: () => `${PHP}Route::get('\uD800x', 'pages/\uDC00');\n$\uDBFF = 1;\n\uDC00\uD800;${AFTER}`,
    expect: (a) => {
      assertDeclared(a, '\uD800x');
      assertDeclared(a, 'after');
    },
  },
  {
    name: 'a run of 100,000 U+FFFD',
    build: () => `${PHP}Route::get('before', 'pages/before');\n${'\uFFFD'.repeat(100_000)}${AFTER}`,
    expect: (a) => {
      assertFinding(a, 'syntax-error', /./);
      assertDeclared(a, 'before');
    },
  },
  unterminated('single-quoted string', "Route::get('x', 'pages/x);", /unterminated string/),
  unterminated('double-quoted string', 'Route::get("x, \'pages/x\');', /unterminated string/),
  unterminated('interpolation in a string', 'Route::get("x{$a", \'pages/x\');', /unterminated/),
  unterminated('heredoc', "$x = <<<EOT\nRoute::get('x', 'pages/x');", /unterminated heredoc/),
  unterminated('nowdoc', "$x = <<<'EOT'\nRoute::get('x', 'pages/x');", /unterminated heredoc/),
  unterminated('block comment', "/* Route::get('x', 'pages/x');", /unterminated comment/),
  unterminated('short array', "$x = ['a', 'b',", /unclosed bracket|expecting/),
  unterminated('array()', "$x = array('a', 'b',", /unclosed bracket|expecting/),
  unterminated('call', "Route::get('x', 'pages/x'", /unclosed bracket|expecting/),
  unterminated('closure body', "Route::prefix('p', function () {\n  Route::get('x', 'pages/x');", /unclosed bracket|expecting/),
  unterminated('attribute', '#[Attr(', /unclosed bracket|expecting|syntax error/i),
  {
    name: '<?php with nothing else',
    build: () => '<?php',
    expect: (a) => {
      // Nothing is wrong with an empty script: no diagnostic, no route.
      assert.deepEqual(a.findings, []);
      assert.equal(a.evaluation.calls.length, 0);
    },
  },
  {
    name: '?> in the middle of the file (the rest is HTML until the next <?php)',
    build: () => `${PHP}Route::get('before', 'pages/before');\n?>\n<p>Route::get('html', 'not/php');</p>\n<?php${AFTER}$route = Route::map($route);\n`,
    expect: (a) => {
      assert.deepEqual(a.findings.filter((f) => f.code === 'syntax-error'), []);
      assertDeclared(a, 'before');
      assertDeclared(a, 'after');
      const keys = a.evaluation.methods[0].library.created.map((r) => String(r.key));
      assert.ok(!keys.includes('html'), 'a call in inline HTML is not PHP');
    },
  },
  {
    name: '10,000-deep nested arrays',
    build: () => `${PHP}$x = ${nest(10_000, '[', ']', '1')};${AFTER}`,
    expect: (a) => {
      assert.ok(a.findings.some((f) => NESTED_TOO_DEEPLY.test(f.message)), a.findings.map((f) => f.message).join('\n'));
      assertDeclared(a, 'after');
    },
  },
  {
    name: '10,000-deep nested array()',
    build: () => `${PHP}$x = ${nest(10_000, 'array(', ')', '1')};${AFTER}`,
    expect: (a) => {
      assert.ok(a.findings.some((f) => NESTED_TOO_DEEPLY.test(f.message)), a.findings.map((f) => f.message).join('\n'));
      assertDeclared(a, 'after');
    },
  },
  {
    name: '10,000-deep nested closures',
    build: () => `${PHP}$f = ${nest(10_000, 'function () { return ', '; }', '1')};${AFTER}`,
    expect: (a) => {
      assert.ok(a.findings.some((f) => NESTED_TOO_DEEPLY.test(f.message)), a.findings.map((f) => f.message).join('\n'));
      assertDeclared(a, 'after');
    },
  },
  {
    name: "10,000-deep nested Route::prefix('a', function () { ... })",
    build: () => `${PHP}${nest(10_000, "Route::prefix('a', function () { ", ' });', "Route::get('x', 'pages/x');")}${AFTER}`,
    expect: (a) => {
      assert.ok(a.findings.some((f) => NESTED_TOO_DEEPLY.test(f.message)), a.findings.map((f) => f.message).join('\n'));
      assertDeclared(a, 'after');
    },
  },
  {
    name: '10,000-deep nested parentheses',
    build: () => `${PHP}$x = ${nest(10_000, '(', ')', '1')};${AFTER}`,
    expect: (a) => {
      assert.ok(a.findings.some((f) => NESTED_TOO_DEEPLY.test(f.message)), a.findings.map((f) => f.message).join('\n'));
      assertDeclared(a, 'after');
    },
  },
  {
    name: '1,000-deep nested arrays (deeper than php-parser goes, well within PHP): an analysis limit, not a ParseError',
    build: () => `${PHP}$x = ${nest(1_000, '[', ']', '1')};${AFTER}$route = Route::map($route);\n`,
    expect: (a) => {
      assertFinding(a, 'evaluation-limit', NESTED_TOO_DEEPLY);
      assert.deepEqual(a.findings.filter((f) => f.code === 'syntax-error'), [], 'PHP accepts the file');
      assert.equal(a.evaluation.methods[0].error, null);
    },
  },
  {
    name: '300-deep nested prefix() calls (parsed, then stopped by the call-depth limit)',
    build: () => `${PHP}${nest(300, "Route::prefix('a', function () { ", ' });', "Route::get('x', 'pages/x');")}${AFTER}`,
    expect: (a) => assertFinding(a, 'evaluation-limit', NESTED_TOO_DEEPLY),
  },
  endless('while (true) {}', 'while (true) {}', /steps/),
  endless('for (;;) {}', 'for (;;) {}', /steps/),
  endless('do {} while (1);', 'do {} while (1);', /steps/),
  endless('a self-recursive closure', '$f = function () use (&$f) { $f(); };\n$f();', /nest too deeply|steps/),
  endless('a recursive named function', 'function f() { return f(); }\nf();', /nest too deeply|steps/),
  endless('a goto loop', 'a: goto a;', /goto/),
  // Size-proportional work is charged to the step budget; results past the size caps stop the evaluation.
  // 300 iterations are 1,800 steps, but a minute of work (hours for an endless loop at the default budget).
  endless('strtolower() of a 1 MB string, 300 times', "$s = str_repeat('A', 1000000);\nfor ($i = 0; $i < 300; $i++) { $t = strtolower($s); }", /steps|took longer/),
  endless('strrev(str_pad(\'\', 200000000)) (aborted V8: out of memory)', "$x = strrev(str_pad('', 200000000));", /str_pad\(\) would build a string/),
  endless('explode() of a 200 MB string built by doubling (aborted V8: out of memory)', "$s = str_repeat('a,', 500000);\nfor ($i = 0; $i < 8; $i++) { $s = $s . $s; }\n$x = explode(',', $s);", /would build a string/),
  endless('sprintf() with a width of 1,000,000,000', "$x = sprintf('%1000000000d', 1);", /sprintf\(\) would build a string/),
  endless('implode() with a 1 MB glue over 100,000 pieces', "$x = implode(str_repeat('x', 1000000), range(1, 100000));", /steps|implode\(\) would build a string/),
  endless('array_merge() doubling an array', '$a = range(1, 100000);\nfor ($i = 0; $i < 30; $i++) { $a = array_merge($a, $a); }', /steps|would build an array/),
  endless('nested loops comparing two 100,000-entry arrays', '$a = range(1, 100000);\n$b = range(1, 100000);\nfor ($i = 0; $i < 30; $i++) { for ($j = 0; $j < 10; $j++) { $t = $a == $b; } }', /steps|took longer/),
  {
    name: "100,000 Route::get('a','b'); calls on one line",
    build: () => `${PHP}${"Route::get('a','b');".repeat(100_000)}\n$route = Route::map($route);\n`,
    offsets: (t) => [t.length],
    expect: (a) => {
      assertFinding(a, 'duplicate-route', /'a' is declared again/);
    },
  },
];

/** Runs one case of ENGINE_CASES (in the deadline worker): evaluation, analysis, spans, expectations, editor features. */
export function runEngineCase(name: string): Record<string, number> {
  const c = ENGINE_CASES.find((x) => x.name === name);
  if (!c) throw new Error(`no hostile case named ${name}`);
  const text = c.build();
  const evaluation = evaluateRouteFile(text, c.maxSteps === undefined ? {} : { maxSteps: c.maxSteps });
  const findings = analyzeRouteFile(text, evaluation);
  assert.deepEqual(spanViolations(text, evaluation, findings), []);
  c.expect({ text, evaluation, findings });
  exerciseFeatures(text, evaluation, (c.offsets ?? spreadOffsets)(text));
  const counts: Record<string, number> = {};
  for (const f of findings) counts[f.code] = (counts[f.code] ?? 0) + 1;
  return counts;
}

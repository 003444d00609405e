import * as assert from 'node:assert/strict';
import type { PhpNode } from '../../shared/php/ast';
import { StatementParser, createPhpParser, nodeSpan, parsePhp, type ParsedFile } from '../../shared/php/parse';
import { guardParser, ParserRunaway } from '../../shared/php/parser-guards';
import { seededRandom } from '../helpers/random';

/** Every problem of a parse must point inside the document. */
function assertProblemsInside(parsed: ParsedFile): void {
  const len = parsed.text.length;
  for (const p of [...parsed.problems, ...parsed.statements.flatMap((s) => s.problems)]) {
    assert.ok(p.span.start >= 0 && p.span.start <= p.span.end && p.span.end <= len, `${JSON.stringify(p)} in a text of ${len}`);
    assert.equal(typeof p.message, 'string');
    assert.ok(p.message.length > 0);
  }
}

/** The source text of a node parsed from a statement with the given base. */
function sourceOf(text: string, node: PhpNode, base: number): string {
  const span = nodeSpan(node, base);
  return text.slice(span.start, span.end);
}

/** The top-level nodes of a parse, with the text each maps back to. */
function nodeTexts(parsed: ParsedFile): string[] {
  return parsed.statements.flatMap((s) => s.nodes.map((n) => sourceOf(parsed.text, n, s.base)));
}

const prng = seededRandom;

describe('parse: parsePhp / StatementParser', () => {
  describe('a well-formed file', () => {
    const text = `<?php\ndefined('BASEPATH') OR exit('No direct script access allowed');\n$route['default_controller'] = 'home';\nRoute::prefix('api', function () {\n    Route::get('users', 'users/index');\n});\n$route = Route::map($route);\n`;

    it('has one statement per top-level statement and no problems', () => {
      const parsed = parsePhp(text);
      assert.deepEqual(parsed.problems, []);
      assert.equal(parsed.statements.length, 4);
      assert.deepEqual(parsed.statements.map((s) => s.nodes.map((n) => n.kind)), [
        ['expressionstatement'],
        ['expressionstatement'],
        ['expressionstatement'],
        ['expressionstatement'],
      ]);
    });

    it('maps every statement node back to its source text', () => {
      assert.deepEqual(nodeTexts(parsePhp(text)), [
        `defined('BASEPATH') OR exit('No direct script access allowed');`,
        `$route['default_controller'] = 'home';`,
        `Route::prefix('api', function () {\n    Route::get('users', 'users/index');\n});`,
        '$route = Route::map($route);',
      ]);
    });

    it('maps nested nodes (arguments, closure bodies) back to their source text', () => {
      const parsed = parsePhp(text);
      const st = parsed.statements[2];
      const call = st.nodes[0].expression;
      assert.deepEqual(call.arguments.map((a: PhpNode) => sourceOf(text, a, st.base)), [
        `'api'`,
        `function () {\n    Route::get('users', 'users/index');\n}`,
      ]);
      const inner = call.arguments[1].body.children[0];
      assert.equal(sourceOf(text, inner, st.base), `Route::get('users', 'users/index');`);
      assert.equal(sourceOf(text, inner.expression.arguments[1], st.base), `'users/index'`);
    });
  });

  it('maps nodes of a statement over 64 KB back to their source (locations too large to pack)', () => {
    const routes = Array.from({ length: 2500 }, (_, i) => `    Route::get('path-${i}/(:num)', 'controller_${i}/show/$1');`).join('\n');
    const text = `<?php\nRoute::prefix('api', function () {\n${routes}\n});\n`;
    const parsed = parsePhp(text);
    const st = parsed.statements[0];
    assert.ok(st.chunk.end - st.chunk.start > 0x10000, `${st.chunk.end - st.chunk.start} characters`);
    const calls = st.nodes[0].expression.arguments[1].body.children;
    assert.equal(calls.length, 2500);
    for (const i of [0, 1200, 2499]) {
      assert.equal(sourceOf(text, calls[i], st.base), `Route::get('path-${i}/(:num)', 'controller_${i}/show/$1');`);
      assert.equal(sourceOf(text, calls[i].expression.arguments[0], st.base), `'path-${i}/(:num)'`);
      assert.equal(calls[i].expression.arguments[0].value, `path-${i}/(:num)`);
    }
  });

  it('maps offsets right after inline HTML and a reopened PHP block', () => {
    const text = `<h1>routes</h1>\n<?php $a = 'x'; ?>\n<p>é</p>\n<?php\n  Route::any($a, 'y');\n`;
    const parsed = parsePhp(text);
    assert.deepEqual(parsed.problems, []);
    const inline = parsed.statements.filter((s) => s.chunk.kind === 'inline');
    assert.equal(inline.length, 2);
    assert.ok(inline.every((s) => s.nodes.length === 0 && s.problems.length === 0));
    assert.deepEqual(nodeTexts(parsed), [`$a = 'x';`, `Route::any($a, 'y');`]);
  });

  it('maps offsets of a multi-line heredoc statement', () => {
    const text = `<?php\n$x = 1;\n$h = <<<EOT\n  a {$x}\n  EOT;\n$y = 2;\n`;
    assert.deepEqual(nodeTexts(parsePhp(text)), ['$x = 1;', `$h = <<<EOT\n  a {$x}\n  EOT;`, '$y = 2;']);
  });

  describe('syntax errors', () => {
    it('never throws on php-parser’s crash input `$x = ();`, and keeps the statements around it', () => {
      const text = `<?php\nRoute::get('a', 'b');\n$x = ();\n$route['c'] = 'd';\n`;
      const parsed = parsePhp(text);
      assertProblemsInside(parsed);
      const broken = parsed.statements[1];
      assert.equal(text.slice(broken.chunk.start, broken.chunk.end), '$x = ();');
      assert.equal(broken.problems.length, 1);
      assert.match(broken.problems[0].message, /^syntax error/);
      assert.deepEqual(parsed.problems, broken.problems);
      assert.deepEqual(nodeTexts(parsed), [`Route::get('a', 'b');`, `$route['c'] = 'd';`]);
    });

    it('reports a clean message without php-parser’s prefix and line suffix', () => {
      const parsed = parsePhp(`<?php\n$a = 1;\n$route['x'] = ;\n`);
      assert.equal(parsed.problems.length, 1);
      assert.doesNotMatch(parsed.problems[0].message, /Parse Error|on line/);
      assert.match(parsed.problems[0].message, /^syntax error/);
    });

    it('keeps problem ranges inside the document for typical half-typed code', () => {
      const inputs = [
        `<?php\nRoute::get('a', 'b'`,
        `<?php\nRoute::get('a', 'b'\nRoute::get('c', 'd');\n`,
        `<?php\n$route['x'] = ;\n`,
        `<?php\nRoute::any(]);\n`,
        `<?php\n$a = 'open\n$b = 1;\n`,
        `<?php\n$a = 1; /* open\n$b = 2;\n`,
        `<?php\nif ($a) {\n  Route::any('a', 'b');\n`,
        `<?php\n$h = <<<EOT\nnever closed\n`,
        `<?php\nfunction (`,
        `<?php\n#[`,
        `<?php\n}`,
        `<?php\n)))`,
      ];
      for (const text of inputs) {
        const parsed = parsePhp(text);
        assert.ok(parsed.problems.length > 0, `a problem for ${JSON.stringify(text)}`);
        assertProblemsInside(parsed);
      }
    });

    it('reports a statement problem inside that statement', () => {
      const text = `<?php\n$a = 1;\nRoute::any('x' 'y');\n$b = 2;\n`;
      const parsed = parsePhp(text);
      const st = parsed.statements[1];
      assert.ok(st.problems.length >= 1);
      assert.equal(text.slice(st.problems[0].span.start, st.problems[0].span.end), `'y'`);
      for (const p of st.problems) {
        assert.ok(p.span.start >= st.chunk.start && p.span.end <= st.chunk.end, JSON.stringify({ p, chunk: st.chunk }));
      }
      assert.deepEqual(nodeTexts(parsed).filter((t) => t.startsWith('$')), ['$a = 1;', '$b = 2;']);
    });

    it('reports an unterminated comment (PHP refuses it) and parses the statements after it', () => {
      const text = `<?php\nRoute::get('a', 'b'); /* open\nRoute::get('c', 'd');\n`;
      const parsed = parsePhp(text);
      assert.equal(parsed.problems.length, 1);
      assert.match(parsed.problems[0].message, /unterminated comment/);
      assert.equal(text.slice(parsed.problems[0].span.start, parsed.problems[0].span.end), '/* open');
      assert.deepEqual(nodeTexts(parsed), [`Route::get('a', 'b');`, `Route::get('c', 'd');`]);
    });

    it('gives a recovered statement a problem even when php-parser finds none', () => {
      const parsed = parsePhp(`<?php\n$a = 1;\n/* never closed`);
      assert.equal(parsed.problems.length, 1);
      assert.equal(parsed.problems[0].message, 'syntax error, unterminated comment');
    });

    it('does not report an error for a block that closes and reopens PHP', () => {
      const text = `<?php if ($a): ?>\n<b>x</b>\n<?php endif; ?>\n<?php if ($b) { ?>\n<i>y</i>\n<?php Route::any('a', 'b'); }\n`;
      const parsed = parsePhp(text);
      assert.deepEqual(parsed.problems, []);
      assert.deepEqual(parsed.statements.filter((s) => s.chunk.kind === 'php').map((s) => s.nodes[0].kind), ['if', 'if']);
    });

    it('does not hang on an unclosed attribute followed by whitespace (php-parser loops on it)', () => {
      for (const text of ['<?php #[\n', '<?php $a = 1; #[A\n  ', '<?php\n#[\n?>\nx', '<?php #[ \t\r\n']) {
        // A hang would fail on the test's timeout; nothing here is timed.
        const parsed = parsePhp(text);
        assert.ok(parsed.problems.length > 0, JSON.stringify(text));
        assertProblemsInside(parsed);
      }
    });

    it('finishes a name followed by a string that php-parser’s look-ahead re-read for ever, and parses the statements around it', () => {
      // The label look-ahead after `J` lexed the string: rewound without the lexer's conditions and
      // queued tokens, php-parser read the same tokens again and again.
      for (const middle of ['J#$s\n"in', "''J#$s\n\"in", 'J #$s\n"a{$b}', 'J/*$x*/ <<<EOT\n$a\n']) {
        const text = `<?php\n$a = 1;\n${middle}`;
        const parsed = parsePhp(text);
        assert.ok(parsed.problems.length > 0, JSON.stringify(text));
        assertProblemsInside(parsed);
        assert.equal(nodeTexts(parsed)[0], '$a = 1;');
        // Parsed to its end with the whole lexer state, not cut short by the step bound.
        assert.ok(!parsed.problems.some((p) => p.message.includes('could not be parsed to its end')), JSON.stringify(parsed.problems));
      }
    });

    it('stops php-parser with a syntax error instead of a hang, whatever loop it falls into', () => {
      // Without the lexer state fix the input above loops in the parser; the step bound alone must end it.
      const engine = guardParser(createPhpParser({ guarded: false }), { lexerStateFix: false });
      assert.throws(() => engine.parseCode('<?php J#$s\n"in', 'x.php'), ParserRunaway);
      // A loop inside the lexer, within one token (its trailing whitespace is not trimmed here).
      assert.throws(() => createPhpParser().parseCode('<?php #[\n', 'x.php'), ParserRunaway);
      // The bound does not touch what parses: the same instance goes on parsing.
      const again = engine.parseCode("<?php Route::get('a', 'b');", 'x.php') as unknown as { children: unknown[]; errors: unknown[] };
      assert.equal(again.children.length, 1);
      assert.equal(again.errors.length, 0);
    });

    it('marks a statement nested too deeply for php-parser (not a syntax error: PHP accepts it) and keeps its neighbours', () => {
      const text = `<?php\n$a = 1;\n$x = ${'['.repeat(2000)}${']'.repeat(2000)};\n$b = 2;\n`;
      const parsed = parsePhp(text);
      assert.deepEqual(parsed.problems, []);
      assert.deepEqual(parsed.statements.filter((s) => s.tooDeep).map((s) => text.slice(s.chunk.start, s.chunk.end).slice(0, 6)), ['$x = [']);
      assert.deepEqual(nodeTexts(parsed), ['$a = 1;', '$b = 2;']);
    });

    it('never throws on pseudo-random PHP-ish input, and keeps problems inside it', () => {
      const rnd = prng(424242);
      const parts = ['<?php ', '?>', "'", '"', '{$', '}', '{', '(', ')', '[', ']', ';', '/*', '*/', '//', '#[', '<<<EOT\n', '\nEOT;\n',
        'if ($a):', 'endif;', "Route::get('a', 'b');", 'function () {', '$x = ', '=>', ',', '\n', ' ', 'array(', '...', '&', '?', '??', '++', '::'];
      for (let n = 0; n < 150; n++) {
        let text = '<?php\n';
        const len = Math.floor(rnd() * 30);
        for (let i = 0; i < len; i++) text += rnd() < 0.15 ? String.fromCharCode(Math.floor(rnd() * 128)) : parts[Math.floor(rnd() * parts.length)];
        let parsed: ParsedFile;
        try {
          parsed = parsePhp(text);
        } catch (e) {
          assert.fail(`threw on ${JSON.stringify(text)}: ${String(e)}`);
        }
        assertProblemsInside(parsed);
      }
    });
  });

  describe('the per-statement cache', () => {
    const before = `<?php\n$a = 1;\nRoute::get('x', 'y');\n$c = 3;\n`;

    it('reuses the nodes of unchanged statements and re-parses the edited one', () => {
      const parser = new StatementParser();
      const first = parser.parse(before);
      const second = parser.parse(before.replace(`'y'`, `'z'`));
      const [a1, b1, c1] = first.statements.map((s) => s.nodes[0]);
      const [a2, b2, c2] = second.statements.map((s) => s.nodes[0]);
      assert.equal(a2, a1, 'unchanged statement: same node object');
      assert.equal(c2, c1, 'unchanged statement: same node object');
      assert.notEqual(b2, b1, 'edited statement: parsed again');
      assert.equal(b2.expression.arguments[1].value, 'z');
      assert.equal(b1.expression.arguments[1].value, 'y', 'the earlier tree is left alone');
    });

    it('reuses nodes when an edit above only shifts a statement, and its offsets follow', () => {
      const parser = new StatementParser();
      const first = parser.parse(before);
      const shifted = `<?php\n// a new comment line\n$a = 1;\nRoute::get('x', 'y');\n$c = 3;\n`;
      const second = parser.parse(shifted);
      first.statements.forEach((s, i) => assert.equal(second.statements[i].nodes[0], s.nodes[0]));
      assert.notEqual(second.statements[1].base, first.statements[1].base);
      assert.deepEqual(nodeTexts(second), ['$a = 1;', `Route::get('x', 'y');`, '$c = 3;']);
      const call = second.statements[1].nodes[0].expression;
      assert.equal(sourceOf(shifted, call.arguments[0], second.statements[1].base), `'x'`);
    });

    it('returns the same nodes when the same text is parsed again', () => {
      const parser = new StatementParser();
      const first = parser.parse(before);
      const again = parser.parse(before);
      again.statements.forEach((s, i) => assert.equal(s.nodes[0], first.statements[i].nodes[0]));
    });

    it('caches a syntax problem with its statement, at the statement’s new position', () => {
      const parser = new StatementParser();
      const first = parser.parse(`<?php\n$x = ();\n`);
      const second = parser.parse(`<?php\n\n\n$x = ();\n`);
      assert.equal(first.problems.length, 1);
      assert.equal(second.problems.length, 1);
      assert.equal(second.problems[0].span.start - first.problems[0].span.start, 2);
      assertProblemsInside(second);
    });

    it('does not share nodes between separate parsers', () => {
      const a = new StatementParser().parse(before);
      const b = new StatementParser().parse(before);
      assert.notEqual(a.statements[0].nodes[0], b.statements[0].nodes[0]);
      assert.deepEqual(nodeTexts(a), nodeTexts(b));
    });
  });
});

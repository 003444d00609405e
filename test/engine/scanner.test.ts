import * as assert from 'node:assert/strict';
import { splitStatements, type ScanResult } from '../../shared/php/scanner';
import { seededRandom } from '../helpers/random';

/** Checks the invariants every scan must keep, then returns the chunks as [kind, text]. */
function scan(text: string): [string, string][] {
  const result = splitStatements(text);
  assertRanges(text, result);
  return result.chunks.map((c) => [c.kind, text.slice(c.start, c.end)]);
}

/** The text of the `php` chunks only. */
function statements(text: string): string[] {
  return scan(text)
    .filter(([kind]) => kind === 'php')
    .map(([, s]) => s);
}

function assertRanges(text: string, result: ScanResult): void {
  let previous = 0;
  for (const c of result.chunks) {
    assert.ok(Number.isInteger(c.start) && Number.isInteger(c.end), `integer offsets ${JSON.stringify(c)}`);
    assert.ok(c.start >= previous, `chunks in order and not overlapping: ${JSON.stringify(result.chunks)}`);
    assert.ok(c.end >= c.start, `non-negative length: ${JSON.stringify(c)}`);
    assert.ok(c.end <= text.length, `inside the text: ${JSON.stringify(c)}`);
    previous = c.end;
  }
}

const prng = seededRandom;

const FRAGMENTS = [
  '<?php ', '<?php\n', '?>', '<?=', "'", '"', '`', '{$', '${', '}', '{', '(', ')', '[', ']', ';', '//', '#', '/*', '*/',
  '<<<EOT\n', "<<<'N'\n", '\nEOT;\n', '\n  N\n', 'if ($a):', 'endif;', 'else:', 'elseif ($b):', 'foreach ($a as $b):',
  'endforeach;', "Route::get('a', 'b');", "Route::prefix('p', function () {", '});', 'function () {', '\\', '\n', '  ',
  '#[', '$x = ', '\0', '\u00e9', '\ud800', ':', '::', '$', '->', 'else', 'while', 'for', 'fn() => ', 'array(', '=>', ',',
];

/** A PHP-ish string of random fragments and random bytes. */
function randomPhp(rnd: () => number): string {
  let s = rnd() < 0.7 ? '<?php\n' : '';
  const n = Math.floor(rnd() * 40);
  for (let i = 0; i < n; i++) {
    s += rnd() < 0.2 ? String.fromCharCode(Math.floor(rnd() * 256)) : FRAGMENTS[Math.floor(rnd() * FRAGMENTS.length)];
  }
  return s;
}

describe('scanner: splitStatements', () => {
  describe('comments', () => {
    it('ignores a `;` inside `//` and `#` comments', () => {
      assert.deepEqual(statements(`<?php\n$a = 1; // x; y\n$b = 2;\n`), ['$a = 1;', '$b = 2;']);
      assert.deepEqual(statements(`<?php\n$a = 1; # ; {\n$b = 2;\n`), ['$a = 1;', '$b = 2;']);
    });

    it('ignores `;` and `}` inside a `/* */` comment, before and inside a statement', () => {
      assert.deepEqual(statements(`<?php\n$a = /* ; } */ 1;\n/* ; ) */ $b = 2;\n`), ['$a = /* ; } */ 1;', '$b = 2;']);
    });

    it('keeps a call with a line comment between its arguments as one statement', () => {
      assert.deepEqual(statements(`<?php\nRoute::get('a', // the target;\n    'b');\nRoute::get('c', 'd');\n`), [
        `Route::get('a', // the target;\n    'b');`,
        `Route::get('c', 'd');`,
      ]);
    });

    it('ends PHP mode at a `?>` inside a `//` comment, as PHP does', () => {
      assert.deepEqual(scan(`<?php $a = 1; // x ?> html\n<?php $b = 2;`), [
        ['php', '$a = 1;'],
        ['inline', ' html\n'],
        ['php', '$b = 2;'],
      ]);
    });

    it('does not end PHP mode at a `?>` inside a `/* */` comment', () => {
      assert.deepEqual(scan(`<?php /* ?> */ $a = 1;`), [['php', '$a = 1;']]);
    });
  });

  describe('strings', () => {
    it('skips an escaped quote and a `;` in a single-quoted string', () => {
      assert.deepEqual(statements(`<?php $a = 'it\\'s; {x}'; $b = 1;`), [`$a = 'it\\'s; {x}';`, '$b = 1;']);
    });

    it('ends a single-quoted string after an escaped backslash', () => {
      assert.deepEqual(statements(`<?php $a = 'c:\\\\'; $b = 1;`), [`$a = 'c:\\\\';`, '$b = 1;']);
    });

    it('skips an escaped quote and a `;` in a double-quoted string', () => {
      assert.deepEqual(statements(`<?php $a = "q\\"; x"; $b = 1;`), [`$a = "q\\"; x";`, '$b = 1;']);
    });

    it('reads `{$a[...]}` interpolation holding quotes, `;` and `}`', () => {
      assert.deepEqual(statements(`<?php $r = "x{$a['"; }']}y"; $b = 1;`), [`$r = "x{$a['"; }']}y";`, '$b = 1;']);
    });

    it('reads `{$a["x"]}` interpolation holding the same quote as the string', () => {
      assert.deepEqual(statements(`<?php $r = "{$a["k;"]}/x"; $b = 1;`), [`$r = "{$a["k;"]}/x";`, '$b = 1;']);
    });

    it('does not end PHP mode at a `?>` inside strings', () => {
      assert.deepEqual(scan(`<?php $a = '?>'; $b = "?>"; $c = \`?>\`;`), [
        ['php', `$a = '?>';`],
        ['php', '$b = "?>";'],
        ['php', '$c = `?>`;'],
      ]);
    });
  });

  describe('heredoc and nowdoc', () => {
    it('reads a heredoc whose body holds `;`, quotes and braces', () => {
      const src = `<?php\n$h = <<<EOT\n; } ) " ' {$a['x']}\nEOT;\n$b = 1;\n`;
      assert.deepEqual(statements(src), [`$h = <<<EOT\n; } ) " ' {$a['x']}\nEOT;`, '$b = 1;']);
    });

    it('reads a nowdoc', () => {
      const src = `<?php\n$n = <<<'NOW'\n ; " {$ '\nNOW;\n$b = 1;\n`;
      assert.deepEqual(statements(src), [`$n = <<<'NOW'\n ; " {$ '\nNOW;`, '$b = 1;']);
    });

    it('reads a quoted heredoc label `<<<"EOT"`', () => {
      assert.deepEqual(statements(`<?php\n$y = <<<"Q"\na {$x} ;\nQ;\n$z = 1;\n`), [`$y = <<<"Q"\na {$x} ;\nQ;`, '$z = 1;']);
    });

    it('accepts an indented closing label (PHP 7.3)', () => {
      const src = `<?php\n$h = <<<EOT\n    a;\n    b)\n    EOT;\n$b = 1;\n`;
      assert.deepEqual(statements(src), [`$h = <<<EOT\n    a;\n    b)\n    EOT;`, '$b = 1;']);
    });

    it('accepts a closing label followed by more of the expression (PHP 7.3)', () => {
      const src = `<?php\nRoute::any(<<<EOT\n  a/b\n  EOT, 'x');\nRoute::any('c', 'd');\n`;
      assert.deepEqual(statements(src), [`Route::any(<<<EOT\n  a/b\n  EOT, 'x');`, `Route::any('c', 'd');`]);
    });

    it('does not close at a body line that only starts with the label', () => {
      const src = `<?php\n$h = <<<EOT\nEOTX;\n  EOT_2;\nEOT;\n$b = 1;\n`;
      assert.deepEqual(statements(src), [`$h = <<<EOT\nEOTX;\n  EOT_2;\nEOT;`, '$b = 1;']);
    });
  });

  describe('if / elseif / else', () => {
    it('keeps a braced if/elseif/else as one statement', () => {
      const src = `<?php\nif ($a) { x(); } elseif ($b) { y(); } else { z(); }\n$c = 1;\n`;
      assert.deepEqual(statements(src), ['if ($a) { x(); } elseif ($b) { y(); } else { z(); }', '$c = 1;']);
    });

    it('finds the `else` after a comment on its own line', () => {
      const src = `<?php\nif ($a) {\n  x();\n}\n// otherwise\nelse {\n  y();\n}\n$c = 1;\n`;
      assert.deepEqual(statements(src), ['if ($a) {\n  x();\n}\n// otherwise\nelse {\n  y();\n}', '$c = 1;']);
    });

    it('ends a braced if at its closing brace', () => {
      assert.deepEqual(statements(`<?php if ($a) { x(); } $b = 1;`), ['if ($a) { x(); }', '$b = 1;']);
    });

    it('keeps an if/elseif/else without braces as one statement', () => {
      const src = `<?php\nif ($a) x();\nelseif ($b) y();\nelse z();\n$c = 1;\n`;
      assert.deepEqual(statements(src), ['if ($a) x();\nelseif ($b) y();\nelse z();', '$c = 1;']);
    });

    it('keeps the alternative syntax `if (...): ... elseif: ... else: ... endif;` as one statement', () => {
      const src = `<?php\nif ($a): x(); elseif ($b): y(); else: z(); endif;\n$c = 1;\n`;
      assert.deepEqual(statements(src), ['if ($a): x(); elseif ($b): y(); else: z(); endif;', '$c = 1;']);
    });

    it('keeps `foreach (...): ... endforeach;` with a nested alternative if as one statement', () => {
      const src = `<?php\nforeach ($r as $v):\n  if ($v): x(); endif;\n  y();\nendforeach;\n$c = 1;\n`;
      assert.deepEqual(statements(src), ['foreach ($r as $v):\n  if ($v): x(); endif;\n  y();\nendforeach;', '$c = 1;']);
    });

    it('keeps the other alternative-syntax loops whole', () => {
      const src = `<?php\nwhile ($x): x(); endwhile;\nfor ($i = 0; $i < 3; $i++): x(); endfor;\nswitch ($a): case 1: x(); endswitch;\n`;
      assert.deepEqual(statements(src), ['while ($x): x(); endwhile;', 'for ($i = 0; $i < 3; $i++): x(); endfor;', 'switch ($a): case 1: x(); endswitch;']);
    });

    it('does not mistake a ternary after a call for the alternative syntax', () => {
      assert.deepEqual(statements(`<?php\n$x = f($a) ? 1 : 2;\n    $y = 3;\n`), ['$x = f($a) ? 1 : 2;', '$y = 3;']);
    });

    it('does not take variables and properties named like keywords for the alternative syntax', () => {
      const src = `<?php\n$r = $for ? f($a) : 2;\n    Route::any('e', 'f');\n$s = $o->if ? g($b) : 3;\n    $t = 1;\n`;
      const result = splitStatements(src);
      assert.deepEqual(statements(src), ['$r = $for ? f($a) : 2;', `Route::any('e', 'f');`, '$s = $o->if ? g($b) : 3;', '$t = 1;']);
      assert.ok(result.chunks.every((c) => !c.recovered), 'no statement needed recovery');
    });

    it('does not close an alternative-syntax block at a variable named `$endif`', () => {
      assert.deepEqual(statements(`<?php\nif ($a): $endif = 1; x(); endif;\n$b = 2;\n`), ['if ($a): $endif = 1; x(); endif;', '$b = 2;']);
    });
  });

  describe('closures, functions and other blocks', () => {
    it('keeps a closure passed to prefix() in the same statement as the call', () => {
      const src = `<?php\nRoute::prefix('a', function () {\n    Route::get('x', 'y');\n    Route::get('z', 'w');\n});\nRoute::get('c', 'd');\n`;
      assert.deepEqual(statements(src), [
        `Route::prefix('a', function () {\n    Route::get('x', 'y');\n    Route::get('z', 'w');\n});`,
        `Route::get('c', 'd');`,
      ]);
    });

    it('keeps nested closures with `use` and arrow functions in one statement', () => {
      const src = `<?php\nRoute::prefix('a', function () use ($v) {\n  Route::any('x', 'y', [], function () { Route::any('n', 'm'); });\n  $f = fn($x) => $x;\n});\n$b = 1;\n`;
      const out = statements(src);
      assert.equal(out.length, 2);
      assert.ok(out[0].endsWith('});'));
      assert.equal(out[1], '$b = 1;');
    });

    it('does not end a closure assignment at the closure brace', () => {
      assert.deepEqual(statements(`<?php $f = function () { return 1; };\n$route['x'] = function ($id) { return $id; };`), [
        '$f = function () { return 1; };',
        `$route['x'] = function ($id) { return $id; };`,
      ]);
    });

    it('ends a function declaration at its closing brace', () => {
      assert.deepEqual(statements(`<?php\nfunction foo($a) { if ($a) { return 1; } return 2; }\n$b = foo(1);\n`), [
        'function foo($a) { if ($a) { return 1; } return 2; }',
        '$b = foo(1);',
      ]);
    });

    it('keeps do/while, try/catch/finally, switch and match whole', () => {
      const src = `<?php\ndo { x(); } while ($a);\ntry { x(); } catch (E $e) { y(); } finally { z(); }\nswitch ($a) { case 1: x(); break; }\n$m = match ($a) { 1 => 'x', default => 'y' };\n`;
      assert.deepEqual(statements(src), [
        'do { x(); } while ($a);',
        'try { x(); } catch (E $e) { y(); } finally { z(); }',
        'switch ($a) { case 1: x(); break; }',
        `$m = match ($a) { 1 => 'x', default => 'y' };`,
      ]);
    });
  });

  describe('inline HTML and open/close tags', () => {
    it('splits leading HTML, PHP and trailing HTML; `?>` eats one newline', () => {
      assert.deepEqual(scan(`<p>\n<?php $a = 1; ?>\n<b>\n<?PHP $b = 2;`), [
        ['inline', '<p>\n'],
        ['php', '$a = 1;'],
        ['inline', '<b>\n'],
        ['php', '$b = 2;'],
      ]);
    });

    it('ends a statement without `;` at `?>`', () => {
      const out = scan(`<?php $a = 1 ?>x`);
      assert.equal(out.length, 2);
      assert.equal(out[0][1].trim(), '$a = 1');
      assert.deepEqual(out[1], ['inline', 'x']);
    });

    it('returns nothing for an empty file and one inline chunk for a file without PHP', () => {
      assert.deepEqual(scan(''), []);
      assert.deepEqual(scan('<html></html>\n'), [['inline', '<html></html>\n']]);
      assert.deepEqual(scan('<?php'), []);
    });

    it('keeps an alternative-syntax block that closes and reopens PHP as one statement', () => {
      const src = `<?php if ($a): ?>\n<b>x</b>\n<?php endif; ?>\n<?php Route::any('c', 'd');`;
      assert.deepEqual(scan(src), [
        ['php', `if ($a): ?>\n<b>x</b>\n<?php endif;`],
        ['php', `Route::any('c', 'd');`],
      ]);
    });

    it('keeps a braced block that closes and reopens PHP as one statement', () => {
      const src = `<?php if ($a) { ?>\n<b>x</b>\n<?php Route::any('a', 'b'); } ?>\n<?php Route::any('c', 'd');`;
      assert.deepEqual(statements(src), [`if ($a) { ?>\n<b>x</b>\n<?php Route::any('a', 'b'); }`, `Route::any('c', 'd');`]);
    });

    it('still switches to HTML at `?>` after an unclosed call', () => {
      const src = `<?php\nRoute::get('a', 'b'\n?>\n<b>x</b>\n<?php Route::any('c', 'd');`;
      const out = scan(src);
      assert.deepEqual(out[out.length - 1], ['php', `Route::any('c', 'd');`]);
      assert.ok(out.some(([kind, s]) => kind === 'inline' && s.includes('<b>x</b>')));
    });
  });

  describe('recovery from unterminated constructs', () => {
    it('an unclosed parenthesis does not swallow the next line', () => {
      const src = `<?php\nRoute::get('a', 'b'\nRoute::get('c', 'd');\nRoute::get('e', 'f');\n`;
      const result = splitStatements(src);
      assert.deepEqual(statements(src), [`Route::get('a', 'b'`, `Route::get('c', 'd');`, `Route::get('e', 'f');`]);
      assert.equal(result.chunks[0].recovered, 'unclosed bracket');
      assert.equal(result.chunks[1].recovered, undefined);
    });

    it('an unterminated single-quoted string does not swallow the next line', () => {
      const src = `<?php\nRoute::get('a, 'b');\nRoute::get('c', 'd');\n`;
      assert.deepEqual(statements(src), [`Route::get('a, 'b');`, `Route::get('c', 'd');`]);
      assert.equal(splitStatements(src).chunks[0].recovered, 'unterminated string');
    });

    it('an unterminated double-quoted string does not swallow the next line', () => {
      const src = `<?php\n$x = "abc;\nRoute::get('c', 'd');\n`;
      assert.deepEqual(statements(src), ['$x = "abc;', `Route::get('c', 'd');`]);
    });

    it('an unterminated comment between statements does not swallow the next ones', () => {
      const src = `<?php\nRoute::get('a', 'b'); /* open\nRoute::get('c', 'd');\nRoute::get('e', 'f');\n`;
      const result = splitStatements(src);
      assert.deepEqual(statements(src), [`Route::get('a', 'b');`, '/* open', `Route::get('c', 'd');`, `Route::get('e', 'f');`]);
      assert.equal(result.chunks[1].recovered, 'unterminated comment');
    });

    it('an unterminated comment at the end of the file becomes a recovered statement', () => {
      const result = splitStatements(`<?php\n$a = 1;\n/* never closed`);
      assert.equal(result.chunks.length, 2);
      assert.equal(result.chunks[1].recovered, 'unterminated comment');
    });

    it('an unterminated comment inside a call does not swallow the next line', () => {
      assert.deepEqual(statements(`<?php\nRoute::get('a', /* x\nRoute::get('c', 'd');\n`), [`Route::get('a', /* x`, `Route::get('c', 'd');`]);
    });

    it('an unterminated heredoc does not swallow the next lines', () => {
      const src = `<?php\n$x = <<<EOT\nRoute::get('c', 'd');\nRoute::get('e', 'f');\n`;
      assert.deepEqual(statements(src), ['$x = <<<EOT', `Route::get('c', 'd');`, `Route::get('e', 'f');`]);
      assert.equal(splitStatements(src).chunks[0].recovered, 'unterminated heredoc');
    });

    it('an unclosed brace keeps its indented body and gives back the next unindented statement', () => {
      const src = `<?php\nif ($a) {\n    Route::get('a', 'b');\nRoute::get('c', 'd');\n`;
      assert.deepEqual(statements(src), [`if ($a) {\n    Route::get('a', 'b');`, `Route::get('c', 'd');`]);
    });

    it('an unclosed call inside a prefix() closure costs only that closure', () => {
      const src = `<?php\nRoute::get('z', 'y');\nRoute::prefix('a', function () {\n    Route::get('a', 'b'\n    Route::get('e', 'f');\n});\nRoute::get('c', 'd');\n`;
      const out = statements(src);
      assert.equal(out[0], `Route::get('z', 'y');`);
      assert.ok(out[1].startsWith('Route::prefix('));
      assert.equal(out[out.length - 1], `Route::get('c', 'd');`);
    });

    it('trims trailing whitespace from a recovered statement', () => {
      const src = `<?php\nf(1,   \n\n$b = 1;\n`;
      const result = splitStatements(src);
      assert.equal(result.chunks[0].recovered, 'unclosed bracket');
      assert.deepEqual(statements(src), ['f(1,', '$b = 1;']);
    });
  });

  describe('robustness', () => {
    it('never throws on 400 pseudo-random PHP-ish strings, and keeps ranges valid', () => {
      const rnd = prng(20240611);
      for (let n = 0; n < 400; n++) {
        const text = randomPhp(rnd);
        let result: ScanResult;
        try {
          result = splitStatements(text);
        } catch (e) {
          assert.fail(`threw on ${JSON.stringify(text)}: ${String(e)}`);
        }
        assertRanges(text, result);
      }
    });

    it('never throws on random binary input', () => {
      const rnd = prng(7);
      for (let n = 0; n < 200; n++) {
        const len = Math.floor(rnd() * 200);
        let text = n % 2 ? '<?php ' : '';
        for (let i = 0; i < len; i++) text += String.fromCharCode(Math.floor(rnd() * 0x10000));
        assertRanges(text, splitStatements(text));
      }
    });

    it('survives strings nested in interpolation deeper than the JS stack', () => {
      const text = '<?php\n' + '"{$'.repeat(20000);
      const result = splitStatements(text);
      assertRanges(text, result);
      assert.ok(result.chunks.length >= 1);
    });

    it('stays within its work budget on thousands of unterminated constructs', () => {
      for (const unit of ['f(\n', '/* x\n', "'\n", '{\n', '<<<A\n', 'if ($a):\n', 'if ($a) { ?>\n<?php ']) {
        const text = '<?php\n' + unit.repeat(5000);
        const budget = text.length * 2;
        const result = splitStatements(text, budget);
        assertRanges(text, result);
        // Work is counted in characters scanned, not timed: the last statement may overrun the budget by one scan of the text.
        const spent = Math.max(0, ...result.spent);
        assert.ok(spent <= budget + text.length, `${JSON.stringify(unit)}: ${spent} characters scanned for a budget of ${budget}`);
        if (result.truncated) assert.equal(result.chunks[result.chunks.length - 1].recovered, 'scan budget exhausted');
      }
    });

    it('covers every significant character of a realistic file in order', () => {
      const src = `<?php\ndefined('BASEPATH') OR exit('No direct script access allowed');\n\n$route['default_controller'] = 'home';\nRoute::prefix('api', function () {\n    Route::get('users', 'users/index');\n});\nforeach (['a', 'b'] as $x):\n    Route::any($x, "$x/index");\nendforeach;\n$route = Route::map($route);\n`;
      const out = statements(src);
      assert.equal(out.length, 5);
      const joined = out.join('');
      assert.equal(joined.replace(/\s/g, ''), src.slice(6).replace(/\s/g, ''));
    });
  });
});

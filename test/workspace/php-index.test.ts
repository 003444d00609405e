import * as assert from 'node:assert/strict';
import { indexPhpFile, mayNeedIndexing, type NamedUsage, type PhpFileIndex } from '../../shared/workspace/php-index';
import { indexLexically } from '../../shared/workspace/php-index-lexical';
import { seededRandom } from '../helpers/random';

/** Method names with their argument counts, `name:params/required`. */
function methods(index: PhpFileIndex, cls = 0): string[] {
  return index.controllers[cls].methods.map((m) => `${m.name}:${m.params}/${m.requiredParams}`);
}

/** The text at each span of a usage. */
function texts(text: string, u: NamedUsage): { name?: string; call: string; arg?: string; content?: string } {
  const out: { name?: string; call: string; arg?: string; content?: string } = { call: text.slice(u.callSpan.start, u.callSpan.end) };
  if (u.name !== undefined) out.name = u.name;
  if (u.argSpan) out.arg = text.slice(u.argSpan.start, u.argSpan.end);
  if (u.nameSpan) out.content = text.slice(u.nameSpan.start, u.nameSpan.end);
  return out;
}

/** Indexes with the parser and with the lexical scan alone, and checks both agree. */
function both(text: string): PhpFileIndex {
  const parsed = indexPhpFile(text);
  assert.equal(parsed.recovered, false, `expected a clean parse: ${parsed.recoveryReason}`);
  const lexical = indexLexically(text);
  assert.deepStrictEqual(lexical.controllers, parsed.controllers, 'the lexical scan finds the same classes');
  assert.deepStrictEqual(lexical.namedUsages, parsed.namedUsages, 'the lexical scan finds the same usages');
  return parsed;
}

const random = seededRandom;

function checkSpans(text: string, index: PhpFileIndex): void {
  const inText = (s: { start: number; end: number }): void => {
    assert.ok(Number.isInteger(s.start) && Number.isInteger(s.end) && s.start >= 0 && s.start <= s.end && s.end <= text.length, JSON.stringify(s));
  };
  for (const c of index.controllers) {
    inText(c.classSpan);
    assert.equal(text.slice(c.classSpan.start, c.classSpan.end), c.className);
    for (const m of c.methods) {
      inText(m.span);
      assert.equal(text.slice(m.span.start, m.span.end), m.name);
      assert.ok(m.requiredParams <= m.params);
    }
  }
  for (const u of index.namedUsages) {
    inText(u.callSpan);
    assert.match(text.slice(u.callSpan.start, u.callSpan.end), /^\\?route/i);
    if (u.argSpan) {
      inText(u.argSpan);
      assert.ok(u.argSpan.start >= u.callSpan.start && u.argSpan.end <= u.callSpan.end);
    }
    if (u.nameSpan) {
      assert.ok(u.argSpan && u.nameSpan.start > u.argSpan.start && u.nameSpan.end < u.argSpan.end);
      assert.equal(typeof u.name, 'string');
    }
  }
}

const CONTROLLER = `<?php
defined('BASEPATH') OR exit('No direct script access allowed');

class Photos extends CI_Controller
{
    private $cache = [];

    public function __construct()
    {
        parent::__construct();
    }

    public function index()
    {
        redirect(Route::named('photos.list'));
    }

    function view($id, $slug = '')
    {
    }

    public static function feed($format = 'rss', ...$rest)
    {
    }

    public function edit($a = 1, $b)
    {
    }

    private function secret() {}
    protected function internal($x) {}
    public function _helper() {}
    public function __toString() { return ''; }
    public function get_instance() {}
}
`;

describe('PHP file index (shared/workspace/php-index)', () => {
  describe('controllers', () => {
    it('lists the public methods CodeIgniter routes to, with their parameter counts', () => {
      const index = indexPhpFile(CONTROLLER);
      assert.equal(index.recovered, false);
      assert.equal(index.controllers.length, 1);
      const c = index.controllers[0];
      assert.equal(c.className, 'Photos');
      assert.equal(c.extends, 'CI_Controller');
      assert.equal(c.hasRemap, false);
      // private, protected, _underscore, __magic, the constructor and CI_Controller's own methods are not routable;
      // an optional parameter before a required one is required (PHP 8).
      assert.deepStrictEqual(methods(index), ['index:0/0', 'view:2/1', 'feed:2/0', 'edit:2/2']);
    });

    it('gives the offsets of the class name and of each method name', () => {
      const text = CONTROLLER;
      const index = both(text);
      const c = index.controllers[0];
      assert.equal(text.slice(c.classSpan.start, c.classSpan.end), 'Photos');
      assert.equal(c.classSpan.start, text.indexOf('Photos'));
      for (const m of c.methods) {
        assert.equal(text.slice(m.span.start, m.span.end), m.name);
        assert.equal(m.span.start, text.indexOf(`function ${m.name}(`) + 'function '.length);
      }
    });

    it('notes _remap() whatever its visibility', () => {
      const text = `<?php class Api extends MX_Controller { public function _remap($method, $params = array()) {} public function ping() {} }`;
      const index = both(text);
      assert.equal(index.controllers[0].hasRemap, true);
      assert.equal(index.controllers[0].extends, 'MX_Controller');
      assert.deepStrictEqual(methods(index), ['ping:0/0']);
      const priv = both(`<?php class Api { private function _REMAP($m) {} }`);
      assert.equal(priv.controllers[0].hasRemap, true);
      assert.deepStrictEqual(methods(priv), []);
    });

    it('notes a method named like the class as the constructor before PHP 8 only without __construct', () => {
      const legacy = both(`<?php class Blog extends CI_Controller { function blog() {} function index() {} }`);
      assert.deepStrictEqual(methods(legacy), ['blog:0/0', 'index:0/0']);
      assert.equal(legacy.controllers[0].legacyConstructor, 'blog');
      const constructed = both(`<?php class Blog { function __construct() {} function Blog() {} }`);
      assert.deepStrictEqual(methods(constructed), ['Blog:0/0']);
      assert.equal(constructed.controllers[0].legacyConstructor, undefined);
    });

    it('indexes every class of a file, in source order, wherever it is declared', () => {
      const text = `<?php
namespace App;
abstract class Admin_Controller extends \\MY_Controller { public function dashboard() {} }
if (!class_exists('Users')) {
  final class Users extends Admin_Controller implements \\Countable { public function count(): int { return 0; } }
}
interface Shape { public function area(); }
trait Helpers { public function help() {} }
$o = new class extends Base { public function anon() {} };
function helper() {}
`;
      const index = both(text);
      assert.deepStrictEqual(index.controllers.map((c) => [c.className, c.extends]), [
        ['Admin_Controller', 'MY_Controller'],
        ['Users', 'Admin_Controller'],
      ]);
      assert.deepStrictEqual(methods(index, 0), ['dashboard:0/0']);
      assert.deepStrictEqual(methods(index, 1), ['count:0/0']);
    });

    it('ignores closures and functions inside methods', () => {
      const text = `<?php class A { public function run() { $f = function ($x) { return $x; }; $g = fn($y) => $y; } public function two($p) {} }`;
      assert.deepStrictEqual(methods(both(text)), ['run:0/0', 'two:1/1']);
    });
  });

  describe('Route::named() usages', () => {
    it('finds literal names in single and double quotes, with exact spans', () => {
      const text = `<?php\necho Route::named('blog.show');\necho Route::named( "blog.edit" );\n`;
      const index = both(text);
      assert.deepStrictEqual(index.namedUsages.map((u) => texts(text, u)), [
        { name: 'blog.show', call: "Route::named('blog.show')", arg: "'blog.show'", content: 'blog.show' },
        { name: 'blog.edit', call: 'Route::named( "blog.edit" )', arg: '"blog.edit"', content: 'blog.edit' },
      ]);
      const first = index.namedUsages[0];
      assert.equal(first.callSpan.start, text.indexOf('Route'));
      assert.equal(first.nameSpan?.start, text.indexOf('blog.show'));
    });

    it('decodes escapes in the name, while nameSpan covers the source text', () => {
      const text = `<?php echo Route::named('it\\'s'), Route::named("tab\\there\\x41\\u{e9}\\$");`;
      const index = both(text);
      assert.deepStrictEqual(index.namedUsages.map((u) => texts(text, u)), [
        { name: "it's", call: "Route::named('it\\'s')", arg: "'it\\'s'", content: "it\\'s" },
        { name: 'tab\there' + 'A\u00e9$', call: 'Route::named("tab\\there\\x41\\u{e9}\\$")', arg: '"tab\\there\\x41\\u{e9}\\$"', content: 'tab\\there\\x41\\u{e9}\\$' },
      ]);
    });

    it('gives dynamic arguments an argSpan but no name', () => {
      const text = `<?php\n$a = Route::named($x);\n$b = Route::named('a' . $b);\n$c = Route::named("user-$id");\n$d = Route::named();\n`;
      const index = both(text);
      assert.deepStrictEqual(index.namedUsages.map((u) => texts(text, u)), [
        { call: 'Route::named($x)', arg: '$x' },
        { call: "Route::named('a' . $b)", arg: "'a' . $b" },
        { call: 'Route::named("user-$id")', arg: '"user-$id"' },
        { call: 'Route::named()' },
      ]);
    });

    it('matches the class and method names case-insensitively, fully qualified or not, with comments between tokens', () => {
      const text = `<?php echo route::Named('a'), \\Route::named('b'), ROUTE :: /* x */ NAMED # y\n ('c'), Route::name('no'), Other::named('no'), $r->named('no');`;
      const index = both(text);
      assert.deepStrictEqual(index.namedUsages.map((u) => u.name), ['a', 'b', 'c']);
      assert.deepStrictEqual(index.namedUsages.map((u) => texts(text, u).call), [
        "route::Named('a')",
        "\\Route::named('b')",
        "ROUTE :: /* x */ NAMED # y\n ('c')",
      ]);
    });

    it('finds usages in closures, methods, functions, redirect() and a view\'s <?= ?> / <?php ?> tags', () => {
      const text = `<!DOCTYPE html>
<ul class="nav">
  <li><a href="<?= Route::named('home') ?>">Home</a></li>
  <?php foreach ($posts as $p): ?>
    <li><a href="<?php echo site_url(Route::named('posts.show')) ?>"><?= html_escape($p->title) ?></a></li>
  <?php endforeach; ?>
</ul>
<script>var url = "<?= Route::named('api') ?>";</script>
<?php
$f = function () { return redirect(Route::named('login')); };
class Nav { public function render() { return Route::named('nav'); } }
function helper_url() { return Route::named('helper'); }
`;
      const index = both(text);
      assert.deepStrictEqual(index.namedUsages.map((u) => u.name), ['home', 'posts.show', 'api', 'login', 'nav', 'helper']);
      for (const u of index.namedUsages) assert.equal(texts(text, u).content, u.name);
    });

    it('skips comments, plain strings, string interpolation, heredocs and inline HTML', () => {
      const text = `Route::named('html')
<?php
// Route::named('line')
# Route::named('hash') ?> Route::named('after-close') <?php
/* Route::named('block') */
echo 'Route::named("single")', "Route::named('double')";
echo "{\${Route::named('interp')}}", "{$a[Route::named('interp2')]}";
echo <<<EOT
  {$x(Route::named('heredoc'))}
  EOT;
echo <<<'EOT'
  Route::named('nowdoc')
  EOT;
echo Route::named('real');
`;
      const index = both(text);
      assert.deepStrictEqual(index.namedUsages.map((u) => u.name), ['real']);
    });

    it('keeps UTF-16 offsets right after non-ASCII text', () => {
      const text = `<?php // héllo wörld 😀 日本語\n$t = "ÄÖÜ 🎉"; echo Route::named('ünï😀code');`;
      for (const index of [indexPhpFile(text), indexPhpFile(text, { parser: false })]) {
        const [u] = index.namedUsages;
        assert.deepStrictEqual(texts(text, u), { name: 'ünï😀code', call: "Route::named('ünï😀code')", arg: "'ünï😀code'", content: 'ünï😀code' });
        assert.equal(u.callSpan.start, text.indexOf('Route::'));
      }
      assert.equal(indexPhpFile(text).recovered, false);
    });
  });

  describe('files php-parser rejects', () => {
    it('still finds the class and its other methods when one method has a syntax error', () => {
      const text = `<?php
class Photos extends CI_Controller {
    public function index() { $x = ; }
    public function show($id) { echo Route::named('photos.show'); }
    public function broken( { if ( { }
    public function edit($id, $mode = 'full') {}
    private function hidden() {}
}
`;
      const index = indexPhpFile(text);
      assert.equal(index.recovered, true);
      assert.match(index.recoveryReason ?? '', /syntax error/);
      assert.equal(index.controllers.length, 1);
      assert.equal(index.controllers[0].className, 'Photos');
      assert.equal(index.controllers[0].extends, 'CI_Controller');
      assert.deepStrictEqual(methods(index), ['index:0/0', 'show:1/1', 'broken:0/0', 'edit:2/1']);
      checkSpans(text, index);
      assert.deepStrictEqual(index.namedUsages.map((u) => texts(text, u)), [
        { name: 'photos.show', call: "Route::named('photos.show')", arg: "'photos.show'", content: 'photos.show' },
      ]);
    });

    it('recovers a file that makes php-parser throw', () => {
      const text = `<?php $x = (); Route::named('a');`;
      const index = indexPhpFile(text);
      assert.equal(index.recovered, true);
      assert.equal(index.recoveryReason, 'php-parser failed on the file');
      assert.deepStrictEqual(index.namedUsages.map((u) => texts(text, u)), [{ name: 'a', call: "Route::named('a')", arg: "'a'", content: 'a' }]);
    });

    it('recovers from nesting too deep for php-parser (RangeError)', () => {
      const text = `<?php $x = ${'['.repeat(10000)}Route::named('deep')${']'.repeat(10000)}; class Deep { public function ok() {} }`;
      const index = indexPhpFile(text);
      assert.equal(index.recovered, true);
      assert.deepStrictEqual(index.namedUsages.map((u) => u.name), ['deep']);
      assert.deepStrictEqual(methods(index), ['ok:0/0']);
      // (php-parser is slow on thousands of nested unterminated heredocs: 1,000 of those only.)
      for (const [deep, times] of [['(', 10000], ['{', 10000], ['"{$a[', 10000], ['"${', 10000], ['function(){', 10000], ['<<<A\n{$', 1000]] as const) {
        const t = `<?php ${deep.repeat(times)} Route::named('x')`;
        checkSpans(t, indexPhpFile(t));
        checkSpans(t, indexPhpFile(t, { parser: false }));
      }
    });

    it('keeps methods of a class whose braces are broken when they have a visibility keyword', () => {
      const text = `<?php class A extends B {\n public function one() { if ($x) { \n public function two($a) {}\n function three() {}\n}`;
      const index = indexPhpFile(text);
      assert.equal(index.recovered, true);
      assert.deepStrictEqual(methods(index), ['one:0/0', 'two:1/1']);
    });

    it('reads an unfinished call the way an editor has it while typing', () => {
      const text = `<?php echo Route::named('blog.`;
      const index = indexPhpFile(text);
      assert.equal(index.recovered, true);
      assert.deepStrictEqual(index.namedUsages.map((u) => texts(text, u)), [{ call: "Route::named('blog.", arg: "'blog." }]);
      const closed = `<?php echo Route::named('blog.show'`;
      assert.deepStrictEqual(indexPhpFile(closed).namedUsages.map((u) => texts(closed, u)), [
        { name: 'blog.show', call: "Route::named('blog.show'", arg: "'blog.show'", content: 'blog.show' },
      ]);
    });

    it('never throws on 300 random strings (fixed seed)', () => {
      const next = random(20240611);
      const pieces = [
        '<?php ', '<?= ', '?>', "'", '"', '`', '\\', '{', '}', '(', ')', '[', ']', '$', '{$', '${', '/*', '*/', '//', '#', '#[',
        '\n', ' ', ';', ',', '=', '...', '::', 'Route::named(', "Route::named('x')", 'route::NAMED("y")', 'class ', 'Foo ', 'extends ',
        'public ', 'private ', 'static ', 'function ', 'f(', '$a', '<<<EOT\n', 'EOT', "<<<'N'\n", 'N;', 'é', '😀', '\ud800', '\u0000',
        'b"', '0x1F', '1.5e3', '<', '>', '?',
      ];
      for (let i = 0; i < 300; i++) {
        let text = '';
        const n = Math.floor(next() * 120);
        for (let j = 0; j < n; j++) {
          text += next() < 0.75 ? pieces[Math.floor(next() * pieces.length)] : String.fromCharCode(Math.floor(next() * 0x10000));
        }
        let index: PhpFileIndex | undefined;
        assert.doesNotThrow(() => {
          index = indexPhpFile(text);
        }, `input #${i}: ${JSON.stringify(text)}`);
        checkSpans(text, index as PhpFileIndex);
        checkSpans(text, indexPhpFile(text, { parser: false }));
      }
    });

    it('indexes thousands of unclosed calls and declarations (a quadratic scan fails on the timeout)', () => {
      for (const piece of ['Route::named(', "Route::named('a'", 'class A extends B { public function f(', '#[A(']) {
        const t = `<?php ${piece.repeat(20000)}`;
        const index = indexPhpFile(t, { parser: false });
        checkSpans(t, index);
        assert.equal(index.recovered, true);
      }
    });

    it('never throws on truncations of a real controller', () => {
      for (let cut = 0; cut <= CONTROLLER.length; cut += 7) {
        const text = CONTROLLER.slice(0, cut);
        checkSpans(text, indexPhpFile(text));
      }
    });
  });

  describe('mayNeedIndexing', () => {
    it('is true when a class or a named() call may be present', () => {
      assert.equal(mayNeedIndexing(CONTROLLER), true);
      assert.equal(mayNeedIndexing(`<?php abstract CLASS/**/Foo {}`), true);
      assert.equal(mayNeedIndexing(`<a href="<?= Route :: named ('x') ?>">`), true);
      assert.equal(mayNeedIndexing(`<?php echo route::NAMED/* c */('x');`), true);
    });

    it('is false for files that cannot hold either', () => {
      assert.equal(mayNeedIndexing(''), false);
      assert.equal(mayNeedIndexing(`<div class="row">Route::named('x') in plain HTML</div>`), false, 'no PHP tag');
      assert.equal(mayNeedIndexing(`<div class="row"><?= html_escape($title) ?></div>`), false);
      assert.equal(mayNeedIndexing(`<?php $config['base_url'] = '';`), false);
    });

    it('agrees with the index on random inputs', () => {
      const next = random(7);
      const words = ['<?php ', 'class ', 'Route::named(', "'x')", ' ', '{', '}', 'A ', 'function f() {}', '\n', '?>', 'named', 'CLASS\t'];
      for (let i = 0; i < 300; i++) {
        let text = '';
        for (let j = Math.floor(next() * 12); j > 0; j--) text += words[Math.floor(next() * words.length)];
        const index = indexPhpFile(text);
        if (index.controllers.length > 0 || index.namedUsages.length > 0) assert.equal(mayNeedIndexing(text), true, JSON.stringify(text));
      }
    });
  });
});

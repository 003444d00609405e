import * as assert from 'node:assert/strict';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { nameReferences, prepareRename, renameName, type RenameEdit, type RouteFileInput, type UsageInput } from '../../shared/analysis/features/rename';
import { indexPhpFile } from '../../shared/workspace/php-index';
import { withCursor } from './cursor-marker';

function routeFile(file: string, text: string): RouteFileInput {
  return { file, text, evaluation: evaluateRouteFile(text) };
}

function usagesOf(file: string, text: string): UsageInput {
  return { file, usages: indexPhpFile(text).namedUsages };
}

function applyAll(texts: Record<string, string>, edits: RenameEdit[]): Record<string, string> {
  const out = { ...texts };
  for (const e of [...edits].sort((a, b) => b.span.start - a.span.start)) {
    out[e.file] = out[e.file].slice(0, e.span.start) + e.newText + out[e.file].slice(e.span.end);
  }
  return out;
}

const ROUTES = "<?php\nRoute::get('profile', 'users/show', array('as' => 'profile'));\nRoute::get('home', 'home/index', ['as' => \"home\"]);\n$x = Route::named('profile');\n";
const MODULE_ROUTES = "<?php\nRoute::post('profile', 'users/save', array('as' => 'profile'));\n";
const VIEW = "<?php echo site_url(Route::named('profile')); echo Route::named('home');";

describe('route name rename', () => {
  const texts = { 'config/routes.php': ROUTES, 'modules/u/config/routes.php': MODULE_ROUTES, 'views/nav.php': VIEW };
  const files = [routeFile('config/routes.php', ROUTES), routeFile('modules/u/config/routes.php', MODULE_ROUTES)];
  const usages = [usagesOf('views/nav.php', VIEW)];

  it('finds the declarations and the literal uses, route files included', () => {
    const refs = nameReferences('profile', files, usages);
    assert.deepEqual(refs.declarations.map((d) => [d.file, texts[d.file as keyof typeof texts].slice(d.span.start, d.span.end), d.literal]), [
      ['config/routes.php', 'profile', true],
      ['modules/u/config/routes.php', 'profile', true],
    ]);
    assert.deepEqual(refs.uses.map((u) => u.file).sort(), ['config/routes.php', 'views/nav.php']);
    assert.deepEqual(refs.dynamicUses, []);
  });

  it('renames every declaration and use', () => {
    const result = renameName('profile', 'account', files, usages);
    assert.ok('edits' in result);
    assert.equal(result.edits.length, 4);
    const after = applyAll(texts, result.edits);
    assert.equal(after['config/routes.php'], ROUTES.replace("'as' => 'profile'", "'as' => 'account'").replace("named('profile')", "named('account')"));
    assert.equal(after['modules/u/config/routes.php'], MODULE_ROUTES.replace("'as' => 'profile'", "'as' => 'account'"));
    assert.equal(after['views/nav.php'], VIEW.replace("named('profile')", "named('account')"));
  });

  it('a double-quoted declaration is renamed inside its quotes', () => {
    const result = renameName('home', 'start', files, usages);
    assert.ok('edits' in result);
    const after = applyAll(texts, result.edits);
    assert.match(after['config/routes.php'], /\['as' => "start"\]/);
    assert.match(after['views/nav.php'], /Route::named\('start'\)/);
  });

  it('refuses when a Route::named() use anywhere is dynamic, saying where', () => {
    const dynamic = "<?php echo Route::named($name);";
    const result = renameName('profile', 'account', files, [...usages, usagesOf('views/dyn.php', dynamic)]);
    assert.ok('error' in result);
    assert.match(result.error, /views\/dyn\.php at offset 24/);
    assert.deepEqual(result.at, { file: 'views/dyn.php', span: { start: 24, end: 29 } });
  });

  it('refuses an empty name, a name that needs escaping, and a name another route has', () => {
    for (const bad of ['', '  ', "it's", 'a$b']) {
      const r = renameName('profile', bad, files, usages);
      assert.ok('error' in r, bad);
    }
    const clash = renameName('profile', 'home', files, usages);
    assert.ok('error' in clash);
    assert.match(clash.error, /'home' already names the route declared at config\/routes\.php:3/);
  });

  it('refuses when the name is not declared, or declared by an expression', () => {
    const missing = renameName('nope', 'x', files, usages);
    assert.ok('error' in missing && /No route file declares/.test(missing.error));
    const computed = routeFile('config/routes.php', "<?php\n$n = 'pro' . 'file';\nRoute::get('p', 'u/s', ['as' => $n]);\n");
    const r = renameName('profile', 'account', [computed], []);
    assert.ok('error' in r);
    assert.match(r.error, /config\/routes\.php:3 by an expression/);
  });

  it('the same name renames to itself with no edits', () => {
    assert.deepEqual(renameName('profile', 'profile', files, usages), { edits: [] });
  });

  describe('prepareRename', () => {
    const prep = (src: string): string | undefined => {
      const { text, offset } = withCursor(src);
      const r = prepareRename(text, offset);
      if (!r) return undefined;
      assert.equal(text.slice(r.span.start, r.span.end), r.name);
      return r.name;
    };

    it("inside an 'as' value or a Route::named() argument", () => {
      assert.equal(prep("<?php Route::get('a', 'b', array('as' => 'pro|file'));"), 'profile');
      assert.equal(prep("<?php Route::get('a', 'b', array('as' => |'profile'));"), 'profile');
      assert.equal(prep("<?php echo Route::named(\"ho|me\");"), 'home');
    });

    it('nowhere else', () => {
      assert.equal(prep("<?php Route::get('pro|file', 'b', array('as' => 'profile'));"), undefined);
      assert.equal(prep("<?php Route::resources('photos', array('module' => 'bl|og'));"), undefined);
      assert.equal(prep("<?php Route::resources('photos', array('as' => 'ph|otos'));"), undefined);
      assert.equal(prep("<?php Route::named('a' . 'b|');"), undefined);
      assert.equal(prep("<?php Route::named(\"a{$b|}\");"), undefined);
      assert.equal(prep("<?php Route::named('unterminated|"), undefined);
    });
  });
});

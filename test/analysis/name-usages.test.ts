import * as assert from 'node:assert/strict';
import { unknownNameUsages } from '../../shared/analysis/diagnostics/name-usages';
import { indexPhpFile } from '../../shared/workspace/php-index';

describe('unknown route names used outside route files', () => {
  const known = new Set(['login', 'logout', 'home']);
  const findingsOf = (text: string) => unknownNameUsages(indexPhpFile(text, { parser: false }).namedUsages, known);

  it('marks the argument of a name no route has, and offers the closest names as fixes of its content', () => {
    const text = "<a href=\"<?= Route::named('logn') ?>\">Sign in</a>\n";
    const [f, ...rest] = findingsOf(text);
    assert.equal(rest.length, 0);
    assert.equal(f.code, 'unknown-route-name');
    assert.equal(f.severity, 'error');
    assert.equal(text.slice(f.span.start, f.span.end), "'logn'");
    assert.match(f.message, /No route is named 'logn'.*Did you mean 'login'/);
    assert.deepEqual(f.fixes[0], { title: "Change to 'login'", preferred: true, edits: [{ span: { start: text.indexOf('logn'), end: text.indexOf('logn') + 4 }, newText: 'login' }] });
    assert.ok(f.fixes.slice(1).every((fix) => fix.preferred === false));
  });

  it('leaves known and dynamic names alone', () => {
    assert.deepEqual(findingsOf("<?php\necho Route::named('home');\necho Route::named($name);\necho Route::named('ho' . 'me');\n"), []);
  });
});

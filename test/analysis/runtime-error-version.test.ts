import * as assert from 'node:assert/strict';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { parsePhpVersion } from '../../shared/runtime/php-version';

describe('runtime errors name the PHP version they are under', () => {
  // implode()'s old argument order: a TypeError from PHP 8 on, a deprecation before.
  const text = "<?php\n$route['a'] = 'b/' . implode(range(1, 2), '/');\n";

  it('says in the details which PHP the file was evaluated as, and how that was chosen', () => {
    const [error] = analyzeRouteFile(text, evaluateRouteFile(text, { phpVersion: parsePhpVersion('8.2') }), { php: 'php 8.2 (default)' }).filter((f) => f.code === 'runtime-error');
    assert.match(error!.message, /^PHP stops here: TypeError: implode\(\)/);
    assert.match(error!.related[0]!.message, /evaluated as php 8\.2 \(default\): ciRoutes\.phpVersion \(--php-version\) sets another$/);
  });

  it('is no error under the version the project asks for', () => {
    assert.deepEqual(analyzeRouteFile(text, evaluateRouteFile(text, { phpVersion: parsePhpVersion('7.4') }), { php: 'php 7.4 (given)' }).filter((f) => f.code === 'runtime-error'), []);
  });
});

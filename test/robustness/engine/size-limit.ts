import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { RouteService } from '../../../server/src/lsp/route-service';
import { DEFAULT_SETTINGS } from '../../../shared/workspace/settings';

/**
 * The file-size limit lives where documents come in (the server's RouteService): with the
 * default settings a 10 MB route file is not evaluated at all, and one diagnostic says why and
 * which setting to raise. Runs in the deadline worker.
 */
export function serverRefusesLargeFile(): { message: string } {
  const line = "Route::get('users/(:num)', 'users/show/$1');\n";
  const text = '<?php\n' + line.repeat(Math.ceil(10_000_000 / line.length));
  // A path in no application: nothing is read from disk for it.
  const file = path.join(os.tmpdir(), 'ci-routes-no-such-app', 'config', 'routes.php');
  const result = new RouteService().analyse('file:///hostile/routes.php', file, text, 1, DEFAULT_SETTINGS, 'pending');
  assert.ok(text.length > DEFAULT_SETTINGS.maxFileSize);
  assert.ok(result.skipped, 'the file is skipped');
  assert.equal(result.findings.length, 1);
  const { finding } = result.findings[0];
  assert.equal(finding.code, 'evaluation-limit');
  assert.match(finding.message, /maxFileSize/);
  assert.ok(finding.span.end <= text.length);
  assert.equal(result.evaluation.calls.length, 0, 'nothing of the file was evaluated');
  return { message: finding.message };
}

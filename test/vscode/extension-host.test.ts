import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { breakRoutes } from '../helpers/broken-example';
import { EXAMPLE_APP, ROOT } from '../helpers/paths';

/**
 * Runs the extension suite (test/vscode/suite) inside a real VS Code with @vscode/test-electron.
 * VS Code comes from VSCODE_EXECUTABLE, or is downloaded when CI_ROUTES_DOWNLOAD_VSCODE=1 and the
 * network allows it; otherwise the test is skipped with a message. The code-server end-to-end test
 * exercises the packaged extension in a real VS Code on every CI run.
 */
describe('extension tests in VS Code (@vscode/test-electron)', function () {
  this.timeout(300_000);
  const executable = process.env.VSCODE_EXECUTABLE;
  const download = process.env.CI_ROUTES_DOWNLOAD_VSCODE === '1';

  before(function () {
    if (!executable && !download) {
      console.log('      (skipped: no VS Code here; set VSCODE_EXECUTABLE=/path/to/code, or CI_ROUTES_DOWNLOAD_VSCODE=1 where the network allows the download)');
      this.skip();
    }
    if (executable && !fs.existsSync(executable)) throw new Error(`VSCODE_EXECUTABLE=${executable} does not exist`);
  });

  it('passes the suite against the example app with a broken routes file', async () => {
    // A copy of the example app whose routes file has two mistakes.
    const app = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-vscode-'));
    fs.cpSync(EXAMPLE_APP, app, { recursive: true });
    breakRoutes(path.join(app, 'application', 'config', 'routes.php'));
    try {
      // Loaded lazily: only needed when a VS Code is available.
      const { runTests } = await import('@vscode/test-electron');
      await runTests({
        ...(executable ? { vscodeExecutablePath: executable } : {}),
        extensionDevelopmentPath: ROOT,
        extensionTestsPath: path.join(ROOT, 'out', 'test', 'vscode', 'suite', 'index.js'),
        launchArgs: [app, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
      });
      assert.ok(true);
    } finally {
      fs.rmSync(app, { recursive: true, force: true });
    }
  });
});

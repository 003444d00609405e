import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { breakRoutes } from '../helpers/broken-example';
import { EXAMPLE_APP } from '../helpers/paths';
import { CodeServerSession, requireEndToEndSetUp } from './code-server-session';

/**
 * End to end in a real VS Code: code-server serves the workbench to headless Chromium (driven by
 * playwright-core), with the packaged .vsix installed, on a copy of the example app whose routes
 * file has two mistakes. Needs scripts/e2e/setup.sh (CI runs it); skipped with a message otherwise.
 */
describe('end to end: the packaged extension in code-server (a real VS Code)', function () {
  // Generous: on a loaded two-core machine VS Code alone can take minutes to start an extension.
  this.timeout(480_000);
  let session: CodeServerSession | undefined;
  let work: string;

  before(function () {
    requireEndToEndSetUp(this);
  });

  after(async () => {
    await session?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('shows diagnostics, hover, completion and the route table', async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-e2e-'));
    const app = path.join(work, 'app');
    fs.cpSync(EXAMPLE_APP, app, { recursive: true });
    breakRoutes(path.join(app, 'application', 'config', 'routes.php'));
    session = await CodeServerSession.open({ folder: app, state: work, logName: 'code-server.log', shotPrefix: 'e2e' });
    const { page } = session;
    try {
      await session.quickOpen('config/routes.php', 'routes.php');

      // Diagnostics in the Problems panel.
      await page.keyboard.press('Control+Shift+M');
      await page.locator('.markers-panel .monaco-list-row', { hasText: 'is declared again' }).first().waitFor({ timeout: 180_000 });
      await page.locator('.markers-panel .monaco-list-row', { hasText: 'does not exist' }).first().waitFor({ timeout: 30_000 });
      await session.shot('problems');

      // Hover on resources(): the routes it produces.
      const hover = await session.hoverLine("Route::resources('articles'", 75, (text) => /7 routes/.test(text));
      await session.shot('hover');
      assert.match(hover.text, /7 routes/);

      // Completion of route names in Route::named('.
      await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type("\n$x = Route::named('");
      await page.keyboard.press('Control+Space');
      await page.keyboard.type('log');
      const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: 'login' }).first();
      await suggestion.waitFor({ timeout: 30_000 });
      await session.shot('completion');
      await page.keyboard.press('Escape');

      // Show Route Table from the command palette.
      await session.runCommand('CI Routes: Show Route Table');
      await page.waitForSelector('.tab:has-text("Route table")', { timeout: 30_000 });
      await page.locator('.view-line', { hasText: '## GET' }).first().waitFor({ timeout: 30_000 });
      await session.shot('route-table');
    } catch (e) {
      await session.shot('failure');
      throw e;
    }
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EXAMPLE_APP } from '../helpers/paths';
import { CodeServerSession, requireEndToEndSetUp } from './code-server-session';

/**
 * Activation that cannot miss: the folder opened is the application's `config/` folder, where
 * the workspace pattern `**\/config/routes.php` finds nothing. Opening routes.php (a PHP document)
 * activates the extension, which knows the file for a route file by its own path and starts the
 * server: diagnostics, the status bar item and the commands follow.
 */
describe('end to end: activation on a route file whatever folder is open (code-server)', function () {
  this.timeout(480_000);
  let session: CodeServerSession | undefined;
  let work: string | undefined;

  before(function () {
    requireEndToEndSetUp(this);
  });

  after(async () => {
    await session?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('starts on routes.php opened from its own config/ folder', async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-e2e-activation-'));
    const app = path.join(work, 'app');
    fs.cpSync(EXAMPLE_APP, app, { recursive: true });
    const config = path.join(app, 'application', 'config');
    session = await CodeServerSession.open({ folder: config, state: work, logName: 'code-server-activation.log', shotPrefix: 'activation' });
    const { page } = session;
    try {
      await session.quickOpen('routes.php', 'routes.php');
      // The server runs: a status bar item for the file, and its diagnostics (the file alone: no
      // application folder within the workspace folder, so names of other files are unknown).
      await page.locator('.statusbar-item', { hasText: /\d+ routes · / }).first().waitFor({ timeout: 180_000 });
      await session.shot('status');
      // The commands are offered: an application was found.
      await page.keyboard.press('F1');
      await page.waitForSelector('.quick-input-widget:visible input', { timeout: 15_000 });
      await page.keyboard.type('CI Routes: ');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Show Routes' }).first().waitFor({ timeout: 15_000 });
      const commands = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
      assert.ok(commands.some((c: string) => c.includes('Test URL')), commands.join(' | '));
      await session.shot('commands');
      await page.keyboard.press('Escape');
      await session.runCommand('CI Routes: Show Routes');
      await session.explorerRows('config/routes.php').first().waitFor({ timeout: 60_000 });
      await session.explorerRows(/^ANY login/).first().waitFor({ timeout: 30_000 });
      await session.shot('explorer');
    } catch (e) {
      await session.shot('failure');
      throw e;
    }
  });
});

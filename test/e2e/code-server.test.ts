import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { breakRoutes } from '../helpers/broken-example';
import { EXAMPLE_APP } from '../helpers/paths';
import { ARTIFACTS, CodeServerSession, requireEndToEndSetUp } from './code-server-session';

/** The pids of the language servers the session's extension runs (found by the extension's folder in their command line, in /proc). */
function serverPids(extensionsDir: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    if (args.some((a) => a.startsWith(extensionsDir) && /dist[\\/]server\.js$/.test(a))) pids.push(Number(entry));
  }
  return pids;
}

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

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

      // Hover on resources(): the routes it produces, counted as its lens counts them (the broken file replaces one).
      const counted = /6 routes · GET POST PUT DELETE · 1 replaced/;
      const hover = await session.hoverLine("Route::resources('articles'", 75, (text) => counted.test(text));
      await session.shot('hover');
      assert.match(hover.text, counted);

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

  it('restarts a language server that stops answering (the heartbeat)', async function () {
    if (!session) this.skip();
    const { page } = session!;
    const extensionsDir = path.join(work, 'extensions');
    const [stuck] = await waitFor(() => (serverPids(extensionsDir).length === 1 ? serverPids(extensionsDir) : undefined), 'one language server process', 30_000);
    // SIGSTOP: the process lives on and answers nothing, as one stuck in an endless loop does.
    process.kill(stuck!, 'SIGSTOP');
    try {
      // The heartbeat calls it hung after 3 pings unanswered for 10 s each (about 30-40 s).
      await page.locator('.notifications-toasts .notification-list-item', { hasText: 'stopped answering' }).first().waitFor({ timeout: 180_000 });
      await session!.shot('server-stopped-answering');
      const restarted = await waitFor(() => serverPids(extensionsDir).find((pid) => pid !== stuck), 'a new language server process', 60_000);
      assert.ok(!serverPids(extensionsDir).includes(stuck!), 'the silent process was killed');
      assert.notEqual(restarted, stuck);
      // The new server answers a request: Test URL goes to it.
      await session!.runCommand('CI Routes: Test URL');
      await page.waitForSelector('.quick-input-widget:visible input[placeholder="GET /photos/12"]', { timeout: 15_000 });
      await page.keyboard.type('GET /articles/12');
      await page.keyboard.press('Enter');
      // Its result is shown once the server answered (as a toast, or in the notification center once the toast is gone).
      const answered = { hasText: 'GET /articles/12' };
      const toast = await page.locator('.notifications-toasts .notification-list-item', answered).first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
      if (!toast) {
        await session!.runCommand('Notifications: Show Notifications');
        await page.locator('.notifications-center .notification-list-item', answered).first().waitFor({ timeout: 15_000 });
      }
      await session!.shot('answering-after-restart');
    } catch (e) {
      await session!.shot('failure-heartbeat');
      // VS Code's logs (the extension's output channel among them) for the post-mortem.
      fs.cpSync(path.join(work, 'user-data', 'logs'), path.join(ARTIFACTS, 'e2e-vscode-logs'), { recursive: true });
      throw e;
    } finally {
      try {
        process.kill(stuck!, 'SIGCONT'); // if the heartbeat did not kill it, let the group's SIGTERM end it
      } catch {
        // gone, as it should be
      }
    }
  });
});

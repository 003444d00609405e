import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { breakRoutes } from '../helpers/broken-example';
import { cli } from '../helpers/cli';
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

  it('shows diagnostics, hover, completion and the status bar', async () => {
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

      // The status bar: the distinct routes `ci-routes list` counts in the example (the broken
      // copy declares the same: its duplicate replaces a route, its failing call declares none),
      // and the error icon (Route::resource() is an error).
      const listed = Number(/^(\d+) routes$/m.exec(cli(['list', path.join(EXAMPLE_APP, 'application', 'config', 'routes.php')]).stdout)?.[1]);
      const status = page.locator('.statusbar-item', { hasText: /\d+ routes · / }).first();
      await status.waitFor({ timeout: 60_000 });
      assert.match((await status.innerText()).trim(), new RegExp(`^${listed} routes · spec · mx$`));
      assert.equal(await status.locator('.codicon-error').count(), 1, 'the worst severity is an error');
      await session.shotOf('.statusbar', 'status-bar');

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
    } catch (e) {
      await session.shot('failure');
      throw e;
    }
  });

  it('shows every route in the routes explorer: filtered, opening a declaration, following an edit', async function () {
    if (!session) this.skip();
    const s = session!;
    const { page } = s;
    try {
      // "Show Routes" (the route table's command) reveals the explorer in its own container.
      await s.runCommand('CI Routes: Show Routes');
      await s.explorerRows('application/config/routes.php').first().waitFor({ timeout: 60_000 });
      await s.explorerRows('application/modules/blog/config/routes.php').first().waitFor({ timeout: 30_000 });
      // One declaration, its routes beneath it; methods merged on one row.
      await s.explorerRows("Route::resources('articles'").first().waitFor({ timeout: 30_000 });
      await s.explorerRows(/^ANY login/).first().waitFor({ timeout: 30_000 });
      await s.shot('routes-explorer');

      // Filter from the view's title: only the articles routes remain, the declaration expanded.
      await page.locator('.sidebar .action-label[aria-label="Filter Routes…"]').first().click();
      await page.waitForSelector('.quick-input-widget:visible input[placeholder="e.g. post photos"]', { timeout: 15_000 });
      await page.keyboard.type('articles');
      await page.keyboard.press('Enter');
      await page.locator('.sidebar', { hasText: /Filter “articles”: \d+ of \d+ routes/ }).first().waitFor({ timeout: 15_000 });
      await s.explorerRows('GET articles/new').first().waitFor({ timeout: 15_000 });
      await s.explorerRows(/^ANY login/).first().waitFor({ state: 'detached', timeout: 15_000 });
      await s.shot('routes-filtered');

      // A row opens its declaration: Route::get('articles/(:num)/(:any)', …) on line 34.
      await s.explorerRows('GET articles/(:num)/(:any)').first().click();
      // The declaration selected: the cursor at its end, on the same line.
      await page.locator('.statusbar-item', { hasText: /^Ln 34, Col \d+ \(\d+ selected\)/ }).first().waitFor({ timeout: 15_000 });
      await page.locator('.editor-instance .view-line', { hasText: "Route::get('articles/(:num)/(:any)'" }).first().waitFor({ timeout: 15_000 });
      await s.shot('route-opened');

      // Edits show in the explorer as the server analyses them: the failing Route::resource()
      // call removed (line 81; the file's error icon goes, and so does the status bar's), a route added.
      await page.keyboard.press('Control+G');
      await page.keyboard.type('81');
      await page.keyboard.press('Enter');
      await page.locator('.editor-instance .view-line', { hasText: "Route::resource('photos');" }).first().waitFor({ timeout: 15_000 });
      await page.keyboard.press('Control+Shift+K');
      // The last line is the completion's unfinished Route::named('log…: it goes too.
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Control+Shift+K');
      await page.keyboard.press('Control+End');
      await page.keyboard.type("\n$route['articles-archive'] = 'blog/posts/archive';");
      await s.explorerRows('ANY articles-archive').first().waitFor({ timeout: 30_000 });
      await page.locator('.statusbar-item', { hasText: /routes · / }).locator('.codicon-warning').first().waitFor({ timeout: 30_000 });
      await s.shot('routes-after-edit');
    } catch (e) {
      await s.shot('failure-explorer');
      throw e;
    }
  });

  it('tests a URL: the method picked, the URI typed, the panel showing the matched route', async function () {
    if (!session) this.skip();
    const s = session!;
    try {
      const panel = await s.testUrl('GET', '/articles/12');
      await panel.locator('.verdict', { hasText: 'Served by' }).waitFor({ timeout: 30_000 });
      const text = String(await panel.locator('body').innerText());
      assert.match(text, /Served by Posts::show\(12\)/);
      assert.match(text, /Main route\s+articles\/\(:num\) → blog\/posts\/show\/12/);
      assert.match(text, /Why the other routes did not match/);
      await s.shot('test-url-panel');
      // Its links open the controller.
      await panel.locator('a', { hasText: 'Posts.php' }).first().click();
      await s.page.waitForSelector('.tab:has-text("Posts.php")', { timeout: 30_000 });
      await s.shot('test-url-controller-opened');
      // Another method: the same panel, now saying why the GET routes do not take a POST.
      const post = await s.testUrl('POST', '/articles/12');
      await post.locator('li.miss.method', { hasText: 'articles/(:num)' }).first().waitFor({ timeout: 30_000 });
      assert.equal(await s.page.locator('.tab', { hasText: 'Test URL:' }).count(), 1, 'one panel, reused');
      await post.locator('ul.misses').scrollIntoViewIfNeeded();
      await s.shot('test-url-post');
    } catch (e) {
      await s.shot('failure-test-url');
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
      // The new server answers a request: Test URL goes to it, and its panel shows the answer.
      const panel = await session!.testUrl('GET', '/articles/13');
      await panel.locator('.verdict', { hasText: 'Served by' }).waitFor({ timeout: 30_000 });
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

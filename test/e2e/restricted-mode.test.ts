import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CodeServerSession, requireEndToEndSetUp } from './code-server-session';
import { HOSTILE_COMMAND, HOSTILE_IMAGE_HOST, HOSTILE_MARKER, writeHostileWorkspace } from './hostile-workspace';

/** An anchor as the DOM holds it. */
interface Anchor {
  href: string;
  dataHref: string;
  text: string;
}

/** What the notifications under `scope` (the toasts or the notification center) say and link to. */
interface Notifications {
  messages: string[];
  anchors: Anchor[];
}

// Runs in the page: the DOM types are not in the project's lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
function readNotifications(scope: string): Notifications {
  const doc = (globalThis as any).document;
  const items: any[] = [...doc.querySelectorAll(`${scope} .notification-list-item`)];
  return {
    messages: items.map((item) => item.querySelector('.notification-list-item-message')?.textContent ?? ''),
    anchors: items.flatMap((item) => [...item.querySelectorAll('a')].map((a: any) => ({ href: a.getAttribute('href') ?? '', dataHref: a.getAttribute('data-href') ?? '', text: a.textContent ?? '' }))),
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Anchors that run a command, or that workspace text made (its marker in their text or target). */
function hostileAnchors(anchors: Anchor[]): Anchor[] {
  return anchors.filter(
    (a) =>
      a.href.startsWith('command:') ||
      a.dataHref.startsWith('command:') ||
      [a.href, a.dataHref, a.text].some((s) => s.includes(HOSTILE_MARKER) || s.includes(HOSTILE_IMAGE_HOST) || s.includes(HOSTILE_COMMAND)),
  );
}

/** Command links in hover HTML, in either form VS Code may write them. */
function commandLinks(html: string): string[] {
  return html.match(/<a\b[^>]*\b(?:data-)?href="command:[^"]*"[^>]*>/g) ?? [];
}

/**
 * The end-to-end test: a hostile workspace opened in Restricted Mode in a real VS Code
 * (code-server + Chromium). Workspace text (setting keys, route targets, route names) must reach
 * notifications and hovers as text: no command link in any notification, no image and no command
 * link in a hover. Screenshots in test-artifacts/restricted-*.png.
 */
describe('end to end: a hostile workspace in Restricted Mode (code-server)', function () {
  this.timeout(480_000);
  let session: CodeServerSession;
  let work: string | undefined;

  before(async function () {
    requireEndToEndSetUp(this);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-e2e-restricted-'));
    const app = path.join(work, 'app');
    writeHostileWorkspace(app);
    session = await CodeServerSession.open({ folder: app, state: work, restricted: true, logName: 'code-server-restricted.log', shotPrefix: 'restricted' });
    try {
      await session.quickOpen('config/routes.php', 'routes.php');
    } catch (e) {
      await session.shot('failure');
      throw e;
    }
  });

  after(async () => {
    await session?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await session?.shot(`failed-${(this.currentTest.title.match(/\w+/g) ?? []).slice(0, 4).join('-')}`);
  });

  it('opens the folder in Restricted Mode', async () => {
    const { page } = session;
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 60_000 });
    await session.shot('opened');
  });

  it('warns about the unknown ciRoutes.diagnostics key without a command link', async () => {
    const { page } = session;
    await page.locator('.notifications-toasts .notification-list-item', { hasText: 'unknown diagnostic code' }).first().waitFor({ timeout: 180_000 });
    await session.shot('settings-warning');
    await session.shotOf('.notifications-toasts', 'settings-warning-toast');
    const toasts: Notifications = await page.evaluate(readNotifications, '.notifications-toasts');
    assert.ok(toasts.messages.some((m) => m.includes('pwn-setting')), `the warning quotes the key: ${JSON.stringify(toasts.messages)}`);
    assert.deepEqual(hostileAnchors(toasts.anchors), [], 'no link made from the setting key');
  });

  it('runs "CI Routes: Test URL…" on the hostile route: its panel shows the target as text, links only to places', async () => {
    const panel = await session.testUrl('GET', '/hostile');
    await panel.locator('.verdict').waitFor({ timeout: 60_000 });
    await session.shot('test-url');
    const text = String(await panel.locator('body').innerText());
    assert.ok(text.includes('pwn-target'), `the page names the target: ${text}`);
    // Runs in the webview's page.
    /* eslint-disable @typescript-eslint/no-explicit-any */
    const page: { hrefs: string[]; elements: number } = await panel.evaluate(() => {
      const doc = (globalThis as any).document;
      return { hrefs: [...doc.querySelectorAll('a')].map((a: any) => a.getAttribute('href') ?? ''), elements: doc.querySelectorAll('img, script, iframe, object, embed, form, link').length };
    });
    /* eslint-enable @typescript-eslint/no-explicit-any */
    assert.equal(page.elements, 0, 'no element from the workspace');
    // Links open places of the workspace (the route file, the declarations): none is made from the target.
    for (const href of page.hrefs) assert.ok(href.startsWith('command:ciRoutes.openLocation?'), `a link to ${href}`);
    // The panel closes (its tab's close button): the hovers below need the editor's width.
    const tab = session.page.locator('.tab', { hasText: 'Test URL:' }).first();
    await tab.hover();
    await tab.locator('.tab-actions .action-label').first().click();
    await tab.waitFor({ state: 'detached', timeout: 15_000 });
    await session.page.locator('.tab.active', { hasText: 'routes.php' }).first().waitFor({ timeout: 15_000 });
  });

  it('lists no command link in any notification (the notification center)', async () => {
    const { page } = session;
    await session.runCommand('Notifications: Show Notifications');
    await page.locator('.notifications-center .notification-list-item').first().waitFor({ timeout: 15_000 });
    await session.shot('notification-center');
    const center: Notifications = await page.evaluate(readNotifications, '.notifications-center');
    assert.ok(center.messages.some((m) => m.includes('unknown diagnostic code')), `the settings warning is listed: ${JSON.stringify(center.messages)}`);
    assert.deepEqual(hostileAnchors(center.anchors), []);
    await page.keyboard.press('Escape');
  });

  it('hovers Route::named() of the hostile name without an image or a command link', async () => {
    const { page } = session;
    await page.keyboard.press('Escape');
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    // The hover names the route the name stands for ('hostile'), however it words the rest.
    const hover = await session.hoverLine('Route::named(', 75, (text) => text.includes('hostile'));
    await session.shot('hover-named');
    assert.ok(hover.text.includes('hostile'), `the hover shows the name's route: ${hover.text}`);
    assert.ok(!/<img\b/.test(hover.html), `no image in the hover: ${hover.html}`);
    assert.deepEqual(commandLinks(hover.html), []);
  });

  it('hovers the route declaring a hostile name (its table) without an image or a command link', async () => {
    const hover = await session.hoverLine("Route::get('image'", 68, (text) => /\bimage\b/.test(text) && /\bGET\b/.test(text));
    await session.shot('hover-declaration');
    assert.match(hover.text, /\bGET\b/, `the hover lists the route: ${hover.text}`);
    assert.ok(!/<img\b/.test(hover.html), `no image in the hover: ${hover.html}`);
    assert.deepEqual(commandLinks(hover.html), []);
  });
});

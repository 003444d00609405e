import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths';

/**
 * One code-server (a real VS Code) serving the workbench to headless Chromium (driven by
 * playwright-core), with the packaged .vsix installed, on a folder. Needs scripts/e2e/setup.sh
 * (CI runs it); the tests are skipped with a message otherwise.
 */
export const E2E_HOME = process.env.CI_ROUTES_E2E_HOME ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'ci-routes-e2e');
const CODE_SERVER = path.join(E2E_HOME, 'cs', 'node_modules', '.bin', 'code-server');
const PLAYWRIGHT = path.join(E2E_HOME, 'pw', 'node_modules', 'playwright-core');
const NODE24_BIN = path.join(E2E_HOME, 'node24', 'bin');
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');
const VSIX = path.join(ROOT, 'ci-routes.vsix');

/** The before() of an end-to-end suite: skips it (or fails under REQUIRE_E2E=1) without the set-up; packages the extension if needed. */
export function requireEndToEndSetUp(context: Mocha.Context): void {
  const ready = fs.existsSync(CODE_SERVER) && fs.existsSync(PLAYWRIGHT) && fs.existsSync('/usr/bin/chromium');
  if (!ready) {
    if (process.env.REQUIRE_E2E === '1') throw new Error(`the end-to-end set-up is missing in ${E2E_HOME}: run scripts/e2e/setup.sh`);
    console.log(`      (skipped: no code-server set-up in ${E2E_HOME}; run scripts/e2e/setup.sh to enable the end-to-end test)`);
    context.skip();
  }
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  if (!fs.existsSync(VSIX)) {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'package-vsix.js'), '--out', VSIX], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, `scripts/package-vsix.js failed: ${r.stderr}${r.stdout}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function waitHealthy(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`code-server did not answer on port ${port} within ${ms} ms`);
}

/** User settings that keep the workbench quiet and offline. */
const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'workbench.tips.enabled': false,
  'chat.disableAIFeatures': true,
};

/**
 * Restricted Mode: workspace trust on, and the folder (trusted nowhere: the user data and the
 * browser profile are new) opened without the "Do you trust the authors?" dialog, which leaves
 * it untrusted. The banner is kept so that screenshots say so.
 */
const RESTRICTED_MODE_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'always',
  'security.workspace.trust.untrustedFiles': 'open',
  'security.workspace.trust.emptyWindow': false,
};

export interface SessionOptions {
  /** The folder VS Code opens. */
  folder: string;
  /** A fresh folder for code-server's state (user data, extensions, XDG folders). */
  state: string;
  /** Open the folder in Restricted Mode (workspace trust on, folder untrusted) rather than with trust off. */
  restricted?: boolean;
  /** The code-server log's name in test-artifacts/. */
  logName: string;
  /** Screenshots are saved as test-artifacts/<prefix>-<name>.png. */
  shotPrefix: string;
}

// playwright-core's types are not in the project's dependencies.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Page = any;

export class CodeServerSession {
  private constructor(
    private readonly server: ChildProcess,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly browser: any,
    readonly page: Page,
    private readonly shotPrefix: string,
  ) {}

  /** Starts code-server on the folder and opens it in Chromium, once the workbench shows the explorer. */
  static async open(options: SessionOptions): Promise<CodeServerSession> {
    const env = {
      ...process.env,
      PATH: `${NODE24_BIN}:${process.env.PATH}`,
      XDG_CONFIG_HOME: path.join(options.state, 'xdg', 'config'),
      XDG_DATA_HOME: path.join(options.state, 'xdg', 'data'),
      XDG_CACHE_HOME: path.join(options.state, 'xdg', 'cache'),
    };
    const userData = path.join(options.state, 'user-data');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    const trust = options.restricted ? RESTRICTED_MODE_SETTINGS : { 'security.workspace.trust.enabled': false };
    fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...trust }, null, 2));
    const common = ['--user-data-dir', userData, '--extensions-dir', path.join(options.state, 'extensions')];
    const install = spawnSync(CODE_SERVER, [...common, '--install-extension', VSIX], { env, encoding: 'utf8' });
    assert.equal(install.status, 0, `installing the .vsix failed: ${install.stderr}${install.stdout}`);

    const port = await freePort();
    const log = fs.openSync(path.join(ARTIFACTS, options.logName), 'w');
    const trustFlags = options.restricted ? [] : ['--disable-workspace-trust'];
    const server = spawn(
      CODE_SERVER,
      [...common, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', ...trustFlags, '--disable-getting-started-override', '--ignore-last-opened', options.folder],
      { env, detached: true, stdio: ['ignore', log, log] },
    );
    let browser: unknown;
    try {
      await waitHealthy(port, 60_000);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports
      const { chromium } = require(PLAYWRIGHT) as { chromium: any };
      browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const page = await (browser as any).newPage({ viewport: { width: 1500, height: 950 } });
      const session = new CodeServerSession(server, browser, page, options.shotPrefix);
      try {
        await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(options.folder)}`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
        await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
        await page.waitForSelector('.explorer-folders-view', { timeout: 60_000 });
        await page.waitForTimeout(1500);
      } catch (e) {
        await session.shot('failure');
        await session.close();
        throw e;
      }
      return session;
    } catch (e) {
      if (!browser) CodeServerSession.killGroup(server);
      throw e;
    }
  }

  /** Saves test-artifacts/<prefix>-<name>.png; never fails the test. */
  async shot(name: string): Promise<void> {
    await this.page.screenshot({ path: path.join(ARTIFACTS, `${this.shotPrefix}-${name}.png`) }).catch(() => undefined);
  }

  /** Saves a screenshot of the first element matching `selector` alone (e.g. a notification, legible); never fails the test. */
  async shotOf(selector: string, name: string): Promise<void> {
    await this.page.locator(selector).first().screenshot({ path: path.join(ARTIFACTS, `${this.shotPrefix}-${name}.png`), timeout: 5000 }).catch(() => undefined);
  }

  /**
   * Opens a file through Quick Open. VS Code's file search can miss its first answer on a loaded
   * machine (it did in CI): Quick Open is asked again, up to five times.
   */
  async quickOpen(query: string, tabTitle: string): Promise<void> {
    const page = this.page;
    let listed = false;
    for (let attempt = 0; attempt < 5 && !listed; attempt++) {
      await page.keyboard.press('Escape');
      await page.locator('.monaco-workbench').click({ position: { x: 750, y: 450 } }).catch(() => undefined);
      await page.keyboard.press('Control+P');
      await page.waitForSelector('.quick-input-widget:visible input', { timeout: 15_000 });
      await page.keyboard.type(query);
      listed = await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 40_000 }).then(
        () => true,
        () => false,
      );
    }
    if (!listed) throw new Error(`Quick Open listed no file for ${query} in five attempts`);
    await page.waitForTimeout(500);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.tab.active:has-text("${tabTitle}")`, { timeout: 15_000 });
  }

  /** Runs a command from the command palette by its title. */
  async runCommand(title: string): Promise<void> {
    const page = this.page;
    await page.keyboard.press('F1');
    await page.waitForSelector('.quick-input-widget:visible input', { timeout: 15_000 });
    await page.keyboard.type(title);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: title.replace(/^.*: /, '') }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
  }

  /**
   * Runs "CI Routes: Test URL…": picks the method (typed into the method list, GET first), types
   * the URI, and waits for the panel's page to show it. Resolves with the page's frame.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async testUrl(method: string, uri: string): Promise<any> {
    const page = this.page;
    await this.runCommand('CI Routes: Test URL');
    // The command's own method list (its placeholder), not the palette closing: keys typed before it shows go elsewhere.
    const methodBox = page.locator('.quick-input-widget:visible input[placeholder="The request method (Enter for GET)"]');
    await methodBox.waitFor({ timeout: 30_000 });
    // Typed into the box itself, not wherever the focus is: right after a server restart a
    // notification may hold it, and the box (ignoreFocusOut) stays open without the keys.
    await methodBox.fill(method);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: method }).first().waitFor({ timeout: 15_000 });
    await methodBox.press('Enter');
    const uriBox = page.locator('.quick-input-widget:visible input[placeholder="/photos/12"]');
    await uriBox.waitFor({ timeout: 15_000 });
    await uriBox.fill(uri);
    await uriBox.press('Enter');
    const title = `Test URL: ${method} /${uri.replace(/^\/+/, '')}`;
    await page.waitForSelector(`.tab:has-text("${title}")`, { timeout: 60_000 });
    return this.webview(title);
  }

  /** The page of the webview whose tab has this title (VS Code nests it in two frames). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async webview(title: string): Promise<any> {
    const page = this.page;
    const until = Date.now() + 30_000;
    for (;;) {
      for (const frame of page.frames()) {
        const t = await frame.title().catch(() => '');
        if (t === title && (await frame.locator('body').count().catch(() => 0)) > 0) return frame;
      }
      if (Date.now() > until) throw new Error(`no webview page titled ${title}`);
      await page.waitForTimeout(250);
    }
  }

  /** The rows of the CI Routes explorer (its view container, wherever it is shown). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  explorerRows(hasText?: string | RegExp): any {
    return this.page.locator('[id="workbench.view.extension.ciRoutes"] .monaco-list-row', hasText === undefined ? {} : { hasText });
  }

  /**
   * Hovers the first editor line holding `lineText`, `offsetX` pixels into it, until the hover's
   * text satisfies `ready` (the editor redraws its lines when a panel opens: a few attempts).
   * Resolves with the last hover's text and HTML (empty when none showed).
   */
  async hoverLine(lineText: string, offsetX: number, ready: (text: string) => boolean, attempts = 8): Promise<{ text: string; html: string }> {
    const page = this.page;
    let text = '';
    let html = '';
    for (let attempt = 0; attempt < attempts && !ready(text); attempt++) {
      const line = page.locator('.editor-instance .monaco-editor .view-line', { hasText: lineText }).first();
      await line.scrollIntoViewIfNeeded().catch(() => undefined);
      const box = await line.boundingBox().catch(() => null);
      if (box) {
        await page.mouse.move(box.x + offsetX - 15, box.y + box.height / 2);
        await page.mouse.move(box.x + offsetX, box.y + box.height / 2, { steps: 5 });
        const hover = page.locator('.monaco-hover:visible').first();
        text = await hover.innerText({ timeout: 5000 }).catch(() => '');
        html = await hover.innerHTML({ timeout: 1000 }).catch(() => '');
      } else {
        // Bring the line into view: search for it.
        await page.keyboard.press('Control+F');
        await page.keyboard.type(lineText);
        await page.keyboard.press('Escape');
      }
      if (!ready(text)) {
        await page.mouse.move(5, 5);
        await page.waitForTimeout(700);
      }
    }
    return { text, html };
  }

  async close(): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await (this.browser as any).close().catch(() => undefined);
    CodeServerSession.killGroup(this.server);
  }

  /** The whole group: workbench, extension host, language server. */
  private static killGroup(server: ChildProcess): void {
    if (!server.pid) return;
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

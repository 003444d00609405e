import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { visibleControls } from '../../shared/util/escape';
import { OPEN_LOCATION_COMMAND, testUrlHtml, type PageInput } from './test-url-html';

/**
 * The Test URL panel: one webview, shown beside the editor and reused for every test. It runs no
 * script and loads nothing (test-url-html.ts's CSP); its only live links are command URIs of
 * `ciRoutes.openLocation`, the one command it allows.
 */
export class TestUrlPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  show(input: Omit<PageInput, 'nonce'>): void {
    const title = visibleControls(`Test URL: ${input.method} /${input.url.replace(/^\/+/, '')}`);
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('ciRoutes.testUrl', title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, {
        enableScripts: false,
        enableForms: false,
        enableCommandUris: [OPEN_LOCATION_COMMAND],
        localResourceRoots: [],
      });
      this.panel.onDidDispose(() => (this.panel = undefined));
    } else {
      this.panel.reveal(undefined, false);
    }
    this.panel.title = title;
    this.panel.webview.html = testUrlHtml({ ...input, nonce: randomBytes(16).toString('hex') });
  }

  /** The page shown now (tests read it), if the panel is open. */
  get html(): string | undefined {
    return this.panel?.webview.html;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

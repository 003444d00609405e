import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { RouteTableResult } from '../../shared/protocol/route-table';
import { isRouteFilePath } from './route-file-path';
import { distinctRoutes } from './routes-model';
import { statusText } from './status-text';

/** Diagnostics come in bursts (early findings, then all): the item is updated once they settle. */
const REFRESH_DEBOUNCE_MS = 150;

/**
 * The status bar item for the active route file: its distinct routes (as `ci-routes list` counts
 * them), dialect and router, with the icon of its worst ci-routes diagnostic; a click shows the
 * routes explorer.
 */
export class StatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('ciRoutes.status', vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly client: LanguageClient) {
    this.item.name = 'CI Routes';
    this.item.command = 'ciRoutes.showRouteTable';
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.refreshSoon()),
      vscode.languages.onDidChangeDiagnostics((e) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && e.uris.some((u) => u.toString() === active)) this.refreshSoon();
      }),
    );
  }

  refreshSoon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), REFRESH_DEBOUNCE_MS);
  }

  async refresh(): Promise<void> {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || doc.uri.scheme !== 'file' || !isRouteFilePath(doc.uri.fsPath)) {
      this.item.hide();
      return;
    }
    try {
      const table = (await this.client.sendRequest('ciRoutes/routeTable', { uri: doc.uri.toString() })) as RouteTableResult | null;
      if (!table) return this.item.hide();
      const problems = { errors: 0, warnings: 0, infos: 0 };
      for (const d of vscode.languages.getDiagnostics(doc.uri)) {
        if (d.source !== 'ci-routes') continue;
        if (d.severity === vscode.DiagnosticSeverity.Error) problems.errors++;
        else if (d.severity === vscode.DiagnosticSeverity.Warning) problems.warnings++;
        else problems.infos++;
      }
      const stopped = table.methods.find((m) => m.error);
      const { text, tooltip } = statusText({
        routes: distinctRoutes(table),
        dialect: table.dialect,
        router: table.router,
        routerSource: table.routerSource,
        php: table.php,
        environment: table.environmentLine,
        ...(table.limits ? { limits: table.limits } : {}),
        ...(stopped ? { stops: `${stopped.method}: ${stopped.error}` } : {}),
        problems,
      });
      this.item.text = text;
      this.item.tooltip = tooltip;
      this.item.command = 'ciRoutes.showRouteTable'; // stopped() pointed it at the restart
      this.item.show();
    } catch {
      this.item.hide();
    }
  }

  stopped(): void {
    this.item.text = '$(error) CI Routes stopped';
    this.item.tooltip = 'The CI Routes server stopped: click to restart it';
    this.item.command = 'ciRoutes.restartServer';
    this.item.show();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

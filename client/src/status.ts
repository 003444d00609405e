import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { visibleControls } from '../../shared/util/escape';
import type { RouteTableResult } from '../../shared/protocol/route-table';

type TableResult = RouteTableResult;

/** The status bar item: routes counted for the active route file, dialect, router, problems; click shows the table. */
export class StatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly client: LanguageClient) {
    this.item.command = 'ciRoutes.showRouteTable';
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.languages.onDidChangeDiagnostics(() => this.refresh()),
    );
  }

  async refresh(): Promise<void> {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || !/[\\/]config[\\/]routes\.php$/.test(doc.uri.fsPath)) {
      this.item.hide();
      return;
    }
    try {
      const table = (await this.client.sendRequest('ciRoutes/routeTable', { uri: doc.uri.toString() })) as TableResult | null;
      if (!table) return this.item.hide();
      const count = table.methods.reduce((n, m) => n + m.rows.filter((r) => !r.reserved).length, 0);
      const problems = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'ci-routes').length;
      // The router's name is one of a few fixed words, not workspace text; the tooltip says why it is in force.
      const router = table.router ? ` · ${table.router}` : '';
      this.item.text = `$(list-tree) ${count} routes (all methods) · ${table.dialect}${router}${problems ? ` · $(warning) ${problems}` : ''}`;
      this.item.tooltip = `CI Routes: show the route table${table.router ? `\nrouter ${table.router}: ${visibleControls(table.routerSource ?? '')}` : ''}${table.php ? `\n${visibleControls(table.php.replace(/^php/, 'PHP'))}` : ''}`;
      this.item.command = 'ciRoutes.showRouteTable'; // stopped() pointed it at the restart
      this.item.show();
    } catch {
      this.item.hide();
    }
  }

  stopped(): void {
    this.item.text = '$(error) CI Routes stopped';
    this.item.command = 'ciRoutes.restartServer';
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

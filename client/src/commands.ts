import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { renderRouteTable, type RouteTable } from './route-table-view';
import { testUrlLines, type TestUrlAnswer } from './test-url-message';
import { messageText } from '../../shared/util/escape';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS', 'CLI'];

function activeRouteFile(): vscode.TextDocument | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  if (doc && /[\\/]config[\\/]routes\.php$/.test(doc.uri.fsPath)) return doc;
  return vscode.workspace.textDocuments.find((d) => /[\\/]config[\\/]routes\.php$/.test(d.uri.fsPath));
}

async function routeFile(): Promise<vscode.TextDocument | undefined> {
  const open = activeRouteFile();
  if (open) return open;
  const found = await vscode.workspace.findFiles('**/config/routes.php', '**/{node_modules,vendor}/**', 20);
  if (found.length === 0) {
    void vscode.window.showInformationMessage('CI Routes: no config/routes.php in this workspace.');
    return undefined;
  }
  const pick = found.length === 1 ? found[0] : (await vscode.window.showQuickPick(found.map((u) => ({ label: vscode.workspace.asRelativePath(u), uri: u }))))?.uri;
  return pick ? vscode.workspace.openTextDocument(pick) : undefined;
}

/** The extension's commands; each talks to the server through its custom requests. */
export function registerCommands(context: vscode.ExtensionContext, client: () => LanguageClient | undefined, output: vscode.LogOutputChannel): void {
  const provider = new (class implements vscode.TextDocumentContentProvider {
    readonly changed = new vscode.EventEmitter<vscode.Uri>();
    readonly onDidChange = this.changed.event;
    content = new Map<string, string>();
    provideTextDocumentContent(uri: vscode.Uri): string {
      return this.content.get(uri.toString()) ?? '';
    }
  })();
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider('ci-routes', provider));

  let lastFilter = '';
  context.subscriptions.push(
    vscode.commands.registerCommand('ciRoutes.filterRouteTable', async () => {
      const filter = await vscode.window.showInputBox({ prompt: 'Show only routes whose URI, target or name contains…', value: lastFilter, placeHolder: 'e.g. photos' });
      if (filter === undefined) return;
      return vscode.commands.executeCommand('ciRoutes.showRouteTable', filter);
    }),
    vscode.commands.registerCommand('ciRoutes.showRouteTable', async (filter?: string) => {
      if (typeof filter === 'string') lastFilter = filter;
      const doc = await routeFile();
      const c = client();
      if (!doc || !c) return;
      const table = (await c.sendRequest('ciRoutes/routeTable', { uri: doc.uri.toString() })) as RouteTable | null;
      if (!table) return;
      // One read-only document per route file; its tab reads "Route table.md".
      const uri = vscode.Uri.from({ scheme: 'ci-routes', path: '/Route table.md', query: doc.uri.toString() });
      provider.content.set(uri.toString(), renderRouteTable(table, doc.uri, lastFilter || undefined));
      provider.changed.fire(uri);
      const shown = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(shown, { preview: true, viewColumn: vscode.ViewColumn.Beside });
      return table;
    }),
    vscode.commands.registerCommand('ciRoutes.testUrl', async (input?: string) => {
      const doc = await routeFile();
      const c = client();
      if (!doc || !c) return;
      const text = typeof input === 'string' ? input : await vscode.window.showInputBox({ prompt: 'Request to test, e.g. GET /photos/12', placeHolder: 'GET /photos/12' });
      if (!text) return;
      const m = /^\s*(?:([A-Za-z]+)\s+)?(\S*)\s*$/.exec(text);
      const method = (m?.[1] ?? 'GET').toUpperCase();
      if (!m || !METHODS.includes(method)) {
        void vscode.window.showErrorMessage(`CI Routes: "${messageText(text)}" is not a request like "GET /photos/12" (methods: ${METHODS.join(', ')}).`);
        return;
      }
      const result = (await c.sendRequest('ciRoutes/testUrl', { uri: doc.uri.toString(), method, url: m[2] || '/' })) as TestUrlAnswer | null;
      if (!result) return;
      const lines = testUrlLines(method, m[2] || '', result);
      output.info(lines.join(' | '));
      const choice = await vscode.window.showInformationMessage(
        lines.join('\n'),
        ...(result.controllerUri ? ['Open controller'] : []),
        ...(result.location ? ['Go to route'] : []),
        ...(result.moduleLocation ? ['Go to module route'] : []),
      );
      if (choice === 'Open controller' && result.controllerUri) await vscode.window.showTextDocument(vscode.Uri.parse(result.controllerUri));
      const place = choice === 'Go to route' ? result.location : choice === 'Go to module route' ? result.moduleLocation : undefined;
      if (place) {
        const pos = new vscode.Position(place.range.start.line, place.range.start.character);
        await vscode.window.showTextDocument(vscode.Uri.parse(place.uri), { selection: new vscode.Range(pos, pos) });
      }
      return result;
    }),
    vscode.commands.registerCommand('ciRoutes.restartServer', async () => {
      const c = client();
      if (!c) return;
      output.info('restarting the server');
      await c.restart();
    }),
    vscode.commands.registerCommand('ciRoutes.chooseDialect', async () => {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'auto', description: "detected from the application's Route.php" },
          { label: 'spec', description: "context home: admin => admin/dashboard" },
          { label: 'bonfire', description: 'context home: admin => dashboard (released Bonfire)' },
        ],
        { placeHolder: 'Route library version' },
      );
      if (!pick) return;
      await vscode.workspace.getConfiguration('ciRoutes').update('dialect', pick.label, vscode.ConfigurationTarget.Workspace);
    }),
  );
}

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { WorkspaceApplication } from '../../shared/protocol/workspace-routes';
import { messageText } from '../../shared/util/escape';
import { isRouteFilePath, ROUTE_FILE_GLOBS } from './route-file-path';
import { openLocation, RoutesExplorer, SORT_LABELS } from './routes-explorer';
import type { RouteNode, SortOrder } from './routes-model';
import { locationArgument, OPEN_LOCATION_COMMAND } from './test-url-html';
import { testUrlLines, type TestUrlAnswer } from './test-url-message';
import { TestUrlPanel } from './test-url-panel';

/** Test URL's methods, GET first (the default). */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'CLI'];
const EXCLUDED = '**/{node_modules,vendor}/**';

/** What the commands need from the extension: the client once started, and the views. */
export interface CommandContext {
  /** The started client (starting it if the workspace has not been found to hold an application yet). */
  client(): Promise<LanguageClient | undefined>;
  explorer: RoutesExplorer;
  output: vscode.LogOutputChannel;
}

/** An application's main route file (the one its router reads first): Test URL routes with it. */
function mainFileOf(app: WorkspaceApplication): string | undefined {
  return (app.files.find((f) => f.module === undefined && /\/config\/routes\.php$/.test(f.uri)) ?? app.files[0])?.uri;
}

/** How long Test URL waits for the server's answer before asking once more. */
const TEST_URL_WAIT_MS = 15_000;

/** `ciRoutes/testUrl`'s answer, or undefined when none came within `ms` (the request is then cancelled). */
async function answerWithin(client: LanguageClient, params: { uri: string; method: string; url: string }, ms: number): Promise<TestUrlAnswer | null | undefined> {
  const cancel = new vscode.CancellationTokenSource();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timedOut = new Promise<undefined>((resolve) =>
      (timer = setTimeout(() => {
        cancel.cancel();
        resolve(undefined);
      }, ms)),
    );
    const answer = client.sendRequest('ciRoutes/testUrl', params, cancel.token) as Promise<TestUrlAnswer | null>;
    // A cancelled request rejects: its answer is the timeout's.
    return await Promise.race([answer.catch((e: unknown) => (cancel.token.isCancellationRequested ? undefined : Promise.reject(e))), timedOut]);
  } finally {
    clearTimeout(timer);
    cancel.dispose();
  }
}

/** How long Test URL waits for a server that is still indexing (just started or restarted) to know its applications. */
const INDEX_WAIT_MS = 15_000;

/**
 * The workspace's applications as the server knows them. Right after the server starts (or is
 * restarted) its index may not be done, and it knows none yet: asked again until it is, for a
 * while, rather than guessing a route file from the folders.
 */
async function applicationsOf(explorer: RoutesExplorer): Promise<readonly WorkspaceApplication[]> {
  let data = explorer.current ?? (await explorer.refresh());
  const until = Date.now() + INDEX_WAIT_MS;
  while (data?.indexing && data.applications.length === 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 250));
    data = (await explorer.refresh()) ?? data;
  }
  return data?.applications ?? [];
}

/**
 * The main route file to test a URL with: the active editor's application's, else the only
 * application's, else the one picked; without the explorer's answer, a config/routes.php found.
 */
async function routeFileForTest(explorer: RoutesExplorer): Promise<vscode.Uri | undefined> {
  const apps = await applicationsOf(explorer);
  const active = vscode.window.activeTextEditor?.document.uri.toString();
  const own = active ? apps.find((a) => a.files.some((f) => f.uri === active) || active.startsWith(`${a.uri}/`)) : undefined;
  const app = own ?? (apps.length === 1 ? apps[0] : undefined);
  if (app) {
    const main = mainFileOf(app);
    return main ? vscode.Uri.parse(main) : undefined;
  }
  if (apps.length > 1) {
    const pick = await vscode.window.showQuickPick(
      apps.map((a) => ({ label: a.name, description: `${a.files.length} route file${a.files.length === 1 ? '' : 's'}`, app: a })),
      { title: 'Test URL', placeHolder: 'Which application routes the request?' },
    );
    const main = pick && mainFileOf(pick.app);
    return main ? vscode.Uri.parse(main) : undefined;
  }
  const doc = vscode.window.activeTextEditor?.document;
  if (doc && isRouteFilePath(doc.uri.fsPath)) return doc.uri;
  const found = await vscode.workspace.findFiles(ROUTE_FILE_GLOBS[0]!, EXCLUDED, 20);
  if (found.length === 0) {
    void vscode.window.showInformationMessage('CI Routes: no config/routes.php in this workspace.');
    return undefined;
  }
  return found.length === 1 ? found[0] : (await vscode.window.showQuickPick(found.map((u) => ({ label: vscode.workspace.asRelativePath(u), uri: u }))))?.uri;
}

/** The request to test: the method picked (GET first), then the URI typed; or `METHOD /path` given to the command. */
async function askRequest(input: unknown, lastUri: string): Promise<{ method: string; path: string } | undefined> {
  if (typeof input === 'string') {
    const m = /^\s*(?:([A-Za-z]+)\s+)?(\S*)\s*$/.exec(input);
    const method = (m?.[1] ?? 'GET').toUpperCase();
    if (!m || !METHODS.includes(method)) {
      void vscode.window.showErrorMessage(`CI Routes: "${messageText(input)}" is not a request like "GET /photos/12" (methods: ${METHODS.join(', ')}).`);
      return undefined;
    }
    return { method, path: m[2] || '/' };
  }
  const picked = await vscode.window.showQuickPick(
    METHODS.map((label) => ({ label, description: label === 'GET' ? 'default' : label === 'CLI' ? 'php index.php …: no request method' : '' })),
    // Two steps kept open when focus moves meanwhile (the output channel revealed as a restarted server logs, a notification): closing them dropped the user's request.
    { title: 'Test URL (1/2): request method', placeHolder: 'The request method (Enter for GET)', ignoreFocusOut: true },
  );
  if (!picked) return undefined;
  const path = await vscode.window.showInputBox({
    title: `Test URL (2/2): ${picked.label} request`,
    prompt: `The URI to route as a ${picked.label} request, e.g. /photos/12`,
    placeHolder: '/photos/12',
    value: lastUri,
    ignoreFocusOut: true,
  });
  if (path === undefined) return undefined;
  return { method: picked.label, path: path.trim() || '/' };
}

/** The extension's commands; each talks to the server through its custom requests. */
export function registerCommands(context: vscode.ExtensionContext, deps: CommandContext): void {
  const { explorer, output } = deps;
  const panel = new TestUrlPanel();
  let lastUri = '';

  const showExplorer = async () => {
    await deps.client();
    await explorer.reveal();
    return (await explorer.refresh()) ?? explorer.current;
  };

  context.subscriptions.push(
    panel,
    // The route table is the routes explorer now: the command shows it (and answers what it shows).
    vscode.commands.registerCommand('ciRoutes.showRouteTable', showExplorer),
    vscode.commands.registerCommand('ciRoutes.filterRouteTable', async (filter?: unknown) => {
      const text =
        typeof filter === 'string'
          ? filter
          : await vscode.window.showInputBox({ title: 'Filter Routes', prompt: 'Show the routes whose methods, URI, target or name contain each of these words', value: explorer.viewOptions.filter, placeHolder: 'e.g. post photos' });
      if (text === undefined) return;
      await explorer.setFilter(text);
      await showExplorer();
    }),
    vscode.commands.registerCommand('ciRoutes.explorer.clearFilter', () => explorer.setFilter('')),
    vscode.commands.registerCommand('ciRoutes.explorer.groupByPrefix', () => explorer.setGrouping('prefix')),
    vscode.commands.registerCommand('ciRoutes.explorer.groupByFile', () => explorer.setGrouping('file')),
    vscode.commands.registerCommand('ciRoutes.explorer.sort', async (order?: unknown) => {
      const orders = Object.keys(SORT_LABELS) as SortOrder[];
      const given = orders.find((o) => o === order);
      const pick =
        given ??
        (
          await vscode.window.showQuickPick(
            orders.map((o) => ({ label: `Sort by ${SORT_LABELS[o]}`, description: o === explorer.viewOptions.sort ? 'current' : '', order: o })),
            { title: 'Sort Routes', placeHolder: 'Order of the routes within each group' },
          )
        )?.order;
      if (pick) await explorer.setSort(pick);
    }),
    vscode.commands.registerCommand('ciRoutes.explorer.refresh', () => explorer.refresh()),
    vscode.commands.registerCommand('ciRoutes.explorer.open', async (node?: RouteNode) => {
      if (node && (node.kind === 'route' || node.kind === 'declaration') && node.location) await openLocation(node.location);
      else if (node && node.kind === 'file') await vscode.window.showTextDocument(vscode.Uri.parse(node.uri), { preview: true });
    }),
    vscode.commands.registerCommand(OPEN_LOCATION_COMMAND, async (arg?: unknown) => {
      const place = locationArgument(arg);
      if (!place) return;
      const at = { line: place.line, character: place.character };
      await openLocation({ uri: place.uri, range: { start: at, end: at } }, vscode.ViewColumn.One);
    }),
    vscode.commands.registerCommand('ciRoutes.testUrl', async (input?: unknown) => {
      const request = await askRequest(input, lastUri);
      if (!request) {
        output.info('Test URL: cancelled before a URI was given');
        return;
      }
      if (typeof input !== 'string') lastUri = request.path;
      const asked = `Test URL: ${request.method} ${messageText(request.path)}`;
      const c = await deps.client();
      if (!c) {
        output.warn(`${asked}: the server is not running`);
        return;
      }
      const file = await routeFileForTest(explorer);
      if (!file) {
        output.info(`${asked}: no route file chosen`);
        return;
      }
      output.info(`${asked}: routing with ${messageText(vscode.workspace.asRelativePath(file))}`);
      // The server routes with an open document (opening it in VS Code's model shows nothing).
      const doc = await vscode.workspace.openTextDocument(file);
      const params = { uri: doc.uri.toString(), method: request.method, url: request.path };
      let result: TestUrlAnswer | null | undefined = await answerWithin(c, params, TEST_URL_WAIT_MS);
      // A request sent while the server was being restarted can be lost with the old connection: asked once more.
      if (result === undefined) {
        output.warn(`Test URL: no answer within ${TEST_URL_WAIT_MS / 1000} s; asking again`);
        result = await answerWithin(c, params, TEST_URL_WAIT_MS);
      }
      if (result === undefined) {
        void vscode.window.showWarningMessage(`CI Routes: the server did not answer Test URL within ${(2 * TEST_URL_WAIT_MS) / 1000} s (see the CI Routes output).`);
        return;
      }
      if (!result) {
        void vscode.window.showWarningMessage(`CI Routes: ${messageText(vscode.workspace.asRelativePath(file))} could not be analysed to test the URL.`);
        return;
      }
      output.info(testUrlLines(request.method, request.path, result).join(' | '));
      panel.show({ method: request.method, url: request.path, routeFile: doc.uri.toString(), result });
      return result;
    }),
    vscode.commands.registerCommand('ciRoutes.restartServer', async () => {
      const c = await deps.client();
      if (!c) return;
      output.info('restarting the server');
      await c.restart();
    }),
    vscode.commands.registerCommand('ciRoutes.chooseDialect', async () => {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'auto', description: "detected from the application's Route.php" },
          { label: 'spec', description: 'context home: admin => admin/dashboard' },
          { label: 'bonfire', description: 'context home: admin => dashboard (released Bonfire)' },
        ],
        { placeHolder: 'Route library version' },
      );
      if (!pick) return;
      await vscode.workspace.getConfiguration('ciRoutes').update('dialect', pick.label, vscode.ConfigurationTarget.Workspace);
    }),
  );
}

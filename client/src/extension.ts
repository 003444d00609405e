import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, State, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { SERVER_NODE_FLAGS, serverEnv } from '../../server/src/node-flags';
import { registerCommands } from './commands';
import { watchForHungServer } from './hung-server';
import { BackoffRestart } from './restart-policy';
import { isRouteFilePath, ROUTE_FILE_GLOBS } from './route-file-path';
import { RoutesExplorer } from './routes-explorer';
import { StatusItem } from './status';

let client: LanguageClient | undefined;

/** The context key the commands and the routes explorer are shown under. */
const APPLICATION_FOUND = 'ciRoutes.applicationFound';

/** Where the server lives: bundled next to the client in a package, compiled output in a checkout. */
function serverModule(context: vscode.ExtensionContext): string {
  const bundled = context.asAbsolutePath(path.join('dist', 'server.js'));
  try {
    require.resolve(bundled);
    return bundled;
  } catch {
    return context.asAbsolutePath(path.join('out', 'server', 'src', 'main.js'));
  }
}

/** Whether a document is a route file by its own path (a file on disk, whatever folder is open). */
function isRouteDocument(doc: vscode.TextDocument): boolean {
  return doc.uri.scheme === 'file' && isRouteFilePath(doc.uri.fsPath);
}

/**
 * Activation cannot miss: VS Code activates the extension on a PHP document as well as on the
 * workspace pattern (which times out in large workspaces). The language server starts once the
 * workspace is seen to hold an application: a route file opened (known by its own path), or one
 * found by a search in the background. Until then the extension costs nothing.
 */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('CI Routes', { log: true });
  context.subscriptions.push(output);
  let found = false;
  const applicationFound = (why: string) => {
    if (found) return;
    found = true;
    output.info(`application found: ${why}`);
    void vscode.commands.executeCommand('setContext', APPLICATION_FOUND, true);
  };
  const explorer = new RoutesExplorer(context.workspaceState, output, (yes) => yes && applicationFound('the server indexed its route files'));
  context.subscriptions.push(explorer);

  let starting: Promise<LanguageClient | undefined> | undefined;
  const start = (why: string): Promise<LanguageClient | undefined> => {
    starting ??= startClient(context, output, explorer, why);
    return starting;
  };
  registerCommands(context, { client: () => start('a command was run'), explorer, output });

  const seen = (doc: vscode.TextDocument) => {
    if (!isRouteDocument(doc)) return;
    applicationFound(`${vscode.workspace.asRelativePath(doc.uri)} is a route file`);
    void start('a route file is open');
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(seen));
  for (const doc of vscode.workspace.textDocuments) seen(doc);
  if (!found) void searchRouteFiles(output).then((file) => {
    if (!file) return;
    applicationFound(`${vscode.workspace.asRelativePath(file)} is a route file`);
    void start('the workspace holds a route file');
  });
}

/**
 * One route file of the workspace, if any: the extension's own globs and the ciRoutes.routeFiles
 * setting's, in each folder. Runs in the background (a large workspace takes its time; a route
 * file opened meanwhile starts the server anyway).
 */
async function searchRouteFiles(output: vscode.LogOutputChannel): Promise<vscode.Uri | undefined> {
  try {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const configured = vscode.workspace.getConfiguration('ciRoutes', folder.uri).get<unknown>('routeFiles');
      const globs = [...ROUTE_FILE_GLOBS, ...(Array.isArray(configured) ? configured.filter((g): g is string => typeof g === 'string') : [])];
      for (const glob of new Set(globs)) {
        const [file] = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, glob), '**/{node_modules,vendor}/**', 1);
        if (file) return file;
      }
    }
  } catch (e) {
    output.warn(`searching the workspace for route files failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  return undefined;
}

async function startClient(context: vscode.ExtensionContext, output: vscode.LogOutputChannel, explorer: RoutesExplorer, why: string): Promise<LanguageClient | undefined> {
  output.info(`starting the server: ${why}`);
  const module = serverModule(context);
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_FLAGS], env: serverEnv() } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_FLAGS, '--nolazy', '--inspect=6019'], env: serverEnv() } },
  };
  const restarts = new BackoffRestart((m) => output.warn(m));
  const watchers = [vscode.workspace.createFileSystemWatcher('**/*.php'), vscode.workspace.createFileSystemWatcher('**/composer.json')];
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file', language: 'php' }],
    synchronize: { configurationSection: 'ciRoutes', fileEvents: watchers },
    outputChannel: output,
    initializationOptions: {},
    errorHandler: restarts,
  };
  client = new LanguageClient('ciRoutes', 'CI Routes', serverOptions, clientOptions);
  const status = new StatusItem(client);
  context.subscriptions.push(...watchers, status, watchForHungServer(client, restarts, output));
  client.onDidChangeState((e) => {
    if (e.newState === State.Stopped || e.newState === State.StartFailed) status.stopped();
    if (e.newState === State.Running) void status.refresh();
  });
  explorer.attach(client);
  try {
    await client.start();
  } catch (e) {
    // A start the heartbeat cut short (the server never answered initialize) is restarted by
    // BackoffRestart; the extension's commands stay available meanwhile.
    output.error(`starting the server failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  void status.refresh();
  return client;
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, State, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { SERVER_NODE_FLAGS } from '../../server/src/node-flags';
import { registerCommands } from './commands';
import { watchForHungServer } from './hung-server';
import { BackoffRestart } from './restart-policy';
import { StatusItem } from './status';

let client: LanguageClient | undefined;

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

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('CI Routes', { log: true });
  const module = serverModule(context);
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_FLAGS] } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_FLAGS, '--nolazy', '--inspect=6019'] } },
  };
  const restarts = new BackoffRestart((m) => output.warn(m));
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file', language: 'php' }],
    synchronize: { configurationSection: 'ciRoutes', fileEvents: [vscode.workspace.createFileSystemWatcher('**/*.php'), vscode.workspace.createFileSystemWatcher('**/composer.json')] },
    outputChannel: output,
    initializationOptions: {},
    errorHandler: restarts,
  };
  client = new LanguageClient('ciRoutes', 'CI Routes', serverOptions, clientOptions);
  const status = new StatusItem(client);
  context.subscriptions.push(output, status, watchForHungServer(client, restarts, output));
  client.onDidChangeState((e) => {
    if (e.newState === State.Stopped || e.newState === State.StartFailed) status.stopped();
    if (e.newState === State.Running) void status.refresh();
  });
  registerCommands(context, () => client, output);
  try {
    await client.start();
  } catch (e) {
    // A start the heartbeat cut short (the server never answered initialize) is restarted by
    // BackoffRestart; the extension's commands stay available meanwhile.
    output.error(`starting the server failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  void status.refresh();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

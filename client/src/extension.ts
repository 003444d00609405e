import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, State, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { SERVER_NODE_FLAGS } from '../../server/src/node-flags';
import { registerCommands } from './commands';
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
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file', language: 'php' }],
    synchronize: { configurationSection: 'ciRoutes', fileEvents: vscode.workspace.createFileSystemWatcher('**/*.php') },
    outputChannel: output,
    initializationOptions: {},
    errorHandler: new BackoffRestart((m) => output.warn(m)),
  };
  client = new LanguageClient('ciRoutes', 'CI Routes', serverOptions, clientOptions);
  const status = new StatusItem(client);
  context.subscriptions.push(output, status);
  client.onDidChangeState((e) => {
    if (e.newState === State.Stopped) status.stopped();
  });
  registerCommands(context, () => client, output);
  await client.start();
  status.refresh();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
  ConfigurationRequest,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type InitializeResult,
} from 'vscode-languageserver-protocol/node';
import { ROOT } from './paths';
import { SERVER_NODE_FLAGS, serverEnv } from '../../server/src/node-flags';
import { processMessageReader } from './stream-reader';

/** A real server process spoken to over stdio by vscode-languageserver-protocol's client side. */
export class LspClient {
  readonly connection: ProtocolConnection;
  private readonly proc: ChildProcess;
  private readonly diagnostics = new Map<string, PublishDiagnosticsParams[]>();
  private waiters: { uri: string; pred: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  /** What `workspace/configuration` answers for section ciRoutes. */
  settings: Record<string, unknown> = {};
  stderr = '';
  /** What the server logged (window/logMessage), in order. */
  readonly logs: string[] = [];

  constructor() {
    this.proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(ROOT, 'bin', 'ci-routes-language-server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env: serverEnv() });
    this.proc.stderr?.on('data', (d) => (this.stderr += String(d)));
    this.connection = createProtocolConnection(processMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      const list = this.diagnostics.get(p.uri) ?? [];
      list.push(p);
      this.diagnostics.set(p.uri, list);
      this.waiters = this.waiters.filter((w) => {
        if (w.uri === p.uri && w.pred(p)) {
          w.resolve(p);
          return false;
        }
        return true;
      });
    });
    this.connection.onRequest(ConfigurationRequest.type, (params) => params.items.map(() => this.settings));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onNotification('window/logMessage', (p: { message: string }) => void this.logs.push(p.message));
    this.connection.onNotification('$/progress', () => undefined);
    this.connection.listen();
  }

  /** `textDocument` and `workspace` capabilities are added to the few every test client declares. */
  async initialize(rootDir: string, initializationOptions: Record<string, unknown> = { debounceMs: 0 }, textDocument: Record<string, unknown> = {}, workspace: Record<string, unknown> = {}): Promise<InitializeResult> {
    const rootUri = pathToFileURL(rootDir).toString();
    const result = await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: path.basename(rootDir) }],
      initializationOptions,
      capabilities: {
        workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true, ...workspace },
        window: { workDoneProgress: true },
        textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true }, codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } }, ...textDocument },
      },
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
    return result;
  }

  /** Resolves with the first diagnostics publication for `uri` that satisfies `pred` (past or future). */
  waitForDiagnostics(uri: string, pred: (p: PublishDiagnosticsParams) => boolean = () => true, timeoutMs = 10_000): Promise<PublishDiagnosticsParams> {
    const seen = (this.diagnostics.get(uri) ?? []).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching diagnostics for ${uri} within ${timeoutMs} ms; got ${JSON.stringify(this.diagnostics.get(uri) ?? [])}\nserver stderr: ${this.stderr}\nserver log: ${this.logs.slice(-20).join('\n')}`)), timeoutMs);
      this.waiters.push({ uri, pred, resolve: (p) => (clearTimeout(timer), resolve(p)) });
    });
  }

  /** The publications for `uri` seen so far, oldest first. */
  publications(uri: string): readonly PublishDiagnosticsParams[] {
    return this.diagnostics.get(uri) ?? [];
  }

  /** Forgets publications seen so far (so the next wait sees only new ones). */
  clearDiagnostics(uri?: string): void {
    if (uri) this.diagnostics.delete(uri);
    else this.diagnostics.clear();
  }

  async shutdown(): Promise<number | null> {
    try {
      await this.connection.sendRequest('shutdown');
      await this.connection.sendNotification('exit');
    } catch {
      // the process may already be gone
    }
    const code = await new Promise<number | null>((resolve) => {
      if (this.proc.exitCode !== null) return resolve(this.proc.exitCode);
      const t = setTimeout(() => {
        this.proc.kill();
        resolve(null);
      }, 3000);
      this.proc.on('exit', (c) => (clearTimeout(t), resolve(c)));
    });
    this.connection.dispose();
    return code;
  }

  get alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }
}

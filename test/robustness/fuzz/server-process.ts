import { SERVER_NODE_FLAGS, serverEnv } from '../../../server/src/node-flags';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ConfigurationRequest,
  createProtocolConnection,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageWriter,
  type Diagnostic,
  type PublishDiagnosticsParams,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { readRss } from './rss';
import { processMessageReader } from '../../helpers/stream-reader';

/** Where the built server lives (this file runs from out/test/robustness/fuzz/). */
export const SERVER_BIN = path.resolve(__dirname, '..', '..', '..', '..', 'bin', 'ci-routes-language-server.js');

/**
 * The built language server over stdio, seen as an editor sees it: answers the server's own
 * requests, keeps the last diagnostics per document, and records everything that would reveal a
 * crash (exit, stderr, errors logged by the server).
 */
export class ServerProcess {
  readonly connection: ProtocolConnection;
  readonly pid: number;
  private readonly proc: ChildProcess;
  /** The server's stderr (an uncaught exception lands here before the process dies). */
  stderr = '';
  /** Messages the server logged at error level (window/logMessage type 1). */
  readonly loggedErrors: string[] = [];
  /** The last diagnostics published per document (code actions are asked for them). */
  readonly diagnostics = new Map<string, Diagnostic[]>();
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Called with every message the server logs (window/logMessage). */
  onLog: (message: string) => void = () => undefined;
  private indexed: Promise<void>;

  /** The messages the server showed (window/showMessage and showMessageRequest), the last 200. */
  readonly messages: string[] = [];

  constructor(cwd: string, public settings: Record<string, unknown> = {}) {
    // CI_ROUTES_FUZZ_NODE_ARGS (e.g. "--cpu-prof") profiles the server of a fuzz run; the server
    // runs with the options every launcher gives it.
    const nodeArgs = (process.env.CI_ROUTES_FUZZ_NODE_ARGS ?? '').split(' ').filter(Boolean);
    this.proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, SERVER_BIN, '--stdio'], { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: serverEnv() });
    this.pid = this.proc.pid as number;
    this.proc.stderr?.on('data', (d) => (this.stderr = (this.stderr + String(d)).slice(-20_000)));
    this.proc.stdin?.on('error', () => undefined); // a dead server is reported by `exit`, not by a throw here
    this.proc.on('exit', (code, signal) => (this.exit = { code, signal }));
    this.connection = createProtocolConnection(processMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    this.connection.onError(() => undefined);
    this.connection.onRequest(ConfigurationRequest.type, (p) => p.items.map(() => this.settings));
    for (const m of ['client/registerCapability', 'client/unregisterCapability', 'window/workDoneProgress/create']) {
      this.connection.onRequest(m, () => null);
    }
    const shown = (p: { message?: unknown }) => {
      this.messages.push(String(p.message));
      if (this.messages.length > 200) this.messages.shift();
    };
    this.connection.onRequest('window/showMessageRequest', (p: { message?: unknown }) => (shown(p), null));
    this.connection.onNotification('window/showMessage', shown);
    for (const m of ['$/progress', 'telemetry/event', 'ciRoutes/analysisTiming']) this.connection.onNotification(m, () => undefined);
    this.connection.onNotification(PublishDiagnosticsNotification.type.method, (p: PublishDiagnosticsParams) => {
      this.diagnostics.set(p.uri, p.diagnostics);
    });
    let markIndexed: () => void = () => undefined;
    this.indexed = new Promise((r) => (markIndexed = r));
    this.connection.onNotification('window/logMessage', (p: { type: number; message: string }) => {
      if (p.type === 1) this.loggedErrors.push(p.message);
      this.onLog(p.message);
      if (/indexed \d+ route file/.test(p.message)) markIndexed();
    });
    this.connection.listen();
  }

  async initialize(root: string, initializationOptions: Record<string, unknown> = {}): Promise<void> {
    const uri = pathToFileURL(root).toString();
    await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: uri,
      workspaceFolders: [{ uri, name: path.basename(root) }],
      initializationOptions,
      capabilities: {
        workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true },
        window: { workDoneProgress: true },
        textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true } },
      },
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
  }

  /** Resolves once the first workspace scan is done (the server logs it). */
  whenIndexed(timeoutMs = 20_000): Promise<void> {
    return Promise.race([this.indexed, new Promise<void>((_, reject) => setTimeout(() => reject(new Error(`not indexed within ${timeoutMs} ms\n${this.stderr}`)), timeoutMs).unref())]);
  }

  get alive(): boolean {
    return this.exit === undefined && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** Resident set size of the server process in bytes, when the platform tells. */
  rss(): number | undefined {
    return readRss(this.pid);
  }

  /** shutdown + exit; kills the process if it does not end within 3 s. Returns its exit code. */
  async stop(): Promise<number | null> {
    if (this.alive) {
      try {
        await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
        await this.connection.sendNotification('exit');
      } catch {
        // already gone
      }
    }
    const code = await new Promise<number | null>((resolve) => {
      if (!this.alive) return resolve(this.exit?.code ?? this.proc.exitCode);
      const t = setTimeout(() => (this.proc.kill('SIGKILL'), resolve(null)), 3000);
      this.proc.on('exit', (c) => (clearTimeout(t), resolve(c)));
    });
    this.connection.dispose();
    return code;
  }
}

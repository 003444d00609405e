import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CancellationTokenSource,
  ConfigurationRequest,
  createProtocolConnection,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import type { MethodTimings } from '../server/src/lsp/request-timings';
import { SERVER_NODE_FLAGS, serverEnv } from '../server/src/node-flags';
import { now } from './stats';

/**
 * Server-side analysis timings. The server sends form 1 (`ciRoutes/analysisTiming`); the bench
 * also accepts form 2, and prints "n/a" when a server reports neither:
 *
 * 1. a notification `ciRoutes/analysisTiming` (or `ciRoutes/timing`) with params
 *      { uri: string; version: number; parseMs?: number; evaluateMs?: number; analyseMs?: number; totalMs: number }
 *    sent just before or just after the publishDiagnostics of the same uri and version;
 * 2. a field `data.timings` (or `timings`) of the publishDiagnostics params themselves:
 *      { parseMs?: number; evaluateMs?: number; analyseMs?: number; totalMs: number }.
 *
 * `totalMs` is the time the server spent from receiving the change (or from its debounce timer
 * firing) to sending the diagnostics: the debounce itself is excluded.
 */
export interface ServerTiming {
  parseMs?: number;
  evaluateMs?: number;
  analyseMs?: number;
  totalMs: number;
}

export const TIMING_NOTIFICATIONS = ['ciRoutes/analysisTiming', 'ciRoutes/timing'];

export class TimeoutError extends Error {}
export class ServerExitedError extends Error {}

interface Publication {
  params: PublishDiagnosticsParams;
  at: number;
}

interface Waiter {
  pred: (p: PublishDiagnosticsParams) => boolean;
  resolve: (p: Publication) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

function timingOf(value: unknown): ServerTiming | undefined {
  const v = value as { totalMs?: unknown } | undefined;
  return v && typeof v.totalMs === 'number' ? (v as ServerTiming) : undefined;
}

/** Drives the built language server over stdio the way an editor does, and times it. */
export class LspDriver {
  readonly pid: number;
  private readonly proc: ChildProcess;
  private readonly connection: ProtocolConnection;
  private readonly publications = new Map<string, Publication[]>();
  private readonly timings = new Map<string, ServerTiming>();
  /** When each version's timing arrived: the server sends it with the analysis' last publication. */
  private readonly timingArrivals = new Map<string, number>();
  private waiters = new Map<string, Waiter[]>();
  private exited: string | undefined;
  private readonly exitListeners: ((why: string) => void)[] = [];
  private indexDone: { at: number; serverMs?: number } | undefined;
  private indexListeners: (() => void)[] = [];
  /**
   * True once the server sent any timing, or said it will (`capabilities.experimental.analysisTiming`):
   * then the bench waits for them.
   */
  sentTimings = false;
  stderr = '';

  /** `server`: the script to run, ci-routes' language server unless told (the bench's floor runs another). */
  constructor(root: string, private readonly settings: Record<string, unknown>, server = path.join(root, 'bin', 'ci-routes-language-server.js')) {
    // Started as the editors are told to start it (README.md); the no-op server too, so that its
    // floor is taken on the same runtime settings.
    // BENCH_SERVER_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`) profiles the server itself.
    const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    this.proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], cwd: root, env: serverEnv() });
    this.pid = this.proc.pid as number;
    this.proc.stderr?.on('data', (d) => (this.stderr = (this.stderr + String(d)).slice(-4000)));
    this.proc.on('exit', (code, signal) => this.onExit(`server exited (code ${code}, signal ${signal})`));
    this.proc.stdin?.on('error', () => undefined);
    this.connection = createProtocolConnection(new StreamMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    this.connection.onError(() => undefined);
    this.connection.onNotification(PublishDiagnosticsNotification.type, (p) => this.onPublish(p));
    for (const method of TIMING_NOTIFICATIONS) {
      this.connection.onNotification(method, (p: { uri?: string; version?: number } & Partial<ServerTiming>) => {
        const t = timingOf(p);
        if (t && typeof p.uri === 'string') {
          this.sentTimings = true;
          this.timings.set(`${p.uri}#${p.version ?? ''}`, t);
          this.timingArrivals.set(`${p.uri}#${p.version ?? ''}`, now());
        }
      });
    }
    this.connection.onRequest(ConfigurationRequest.type, (params) => params.items.map(() => this.settings));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('client/unregisterCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onRequest('window/showMessageRequest', () => null);
    this.connection.onRequest('workspace/codeLens/refresh', () => null);
    this.connection.onRequest('workspace/inlayHint/refresh', () => null);
    this.connection.onRequest('workspace/diagnostic/refresh', () => null);
    this.connection.onNotification('window/showMessage', () => undefined);
    this.connection.onNotification('telemetry/event', () => undefined);
    this.connection.onNotification('window/logMessage', (p: { message?: string }) => {
      const m = /indexed \d+ route file\(s\) in (\d+(?:\.\d+)?) ms/.exec(p.message ?? '');
      if (m) this.markIndexed(Number(m[1]));
    });
    this.connection.onNotification('$/progress', (p: { value?: { kind?: string } }) => {
      if (p.value?.kind === 'end') this.markIndexed();
    });
    this.connection.listen();
  }

  private markIndexed(serverMs?: number): void {
    if (this.indexDone) {
      if (serverMs !== undefined) this.indexDone.serverMs ??= serverMs;
      return;
    }
    this.indexDone = { at: now(), serverMs };
    for (const l of this.indexListeners) l();
    this.indexListeners = [];
  }

  private onExit(why: string): void {
    if (this.exited) return;
    this.exited = why;
    for (const list of this.waiters.values()) for (const w of list) (clearTimeout(w.timer), w.reject(new ServerExitedError(`${why}\n${this.stderr}`)));
    this.waiters.clear();
    for (const l of this.exitListeners) l(why);
  }

  private onPublish(p: PublishDiagnosticsParams): void {
    const pub = { params: p, at: now() };
    const list = this.publications.get(p.uri) ?? [];
    list.push(pub);
    if (list.length > 50) list.shift();
    this.publications.set(p.uri, list);
    const inline = timingOf((p as { data?: { timings?: unknown } }).data?.timings) ?? timingOf((p as { timings?: unknown }).timings);
    if (inline) {
      this.sentTimings = true;
      this.timings.set(`${p.uri}#${p.version ?? ''}`, inline);
      this.timingArrivals.set(`${p.uri}#${p.version ?? ''}`, pub.at);
    }
    const waiting = this.waiters.get(p.uri);
    if (!waiting) return;
    const rest = waiting.filter((w) => {
      if (!w.pred(p)) return true;
      clearTimeout(w.timer);
      w.resolve(pub);
      return false;
    });
    if (rest.length) this.waiters.set(p.uri, rest);
    else this.waiters.delete(p.uri);
  }

  /** Rejects after `ms` with a TimeoutError, or at once if the server is gone. */
  private guard<T>(promise: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
    if (this.exited) return Promise.reject(new ServerExitedError(this.exited));
    return new Promise<T>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        const i = this.exitListeners.indexOf(onExit);
        if (i >= 0) this.exitListeners.splice(i, 1);
      };
      const timer = setTimeout(() => (settle(), onTimeout?.(), reject(new TimeoutError(`${what}: no answer within ${Math.round(ms)} ms`))), Math.max(1, ms));
      const onExit = (why: string) => (settle(), reject(new ServerExitedError(why)));
      this.exitListeners.push(onExit);
      promise.then(
        (v) => (settle(), resolve(v)),
        (e) => (settle(), reject(e)),
      );
    });
  }

  async initialize(folder: string, timeoutMs: number): Promise<void> {
    const uri = pathToFileURL(folder).toString();
    const result = await this.guard(
      this.connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: uri,
        workspaceFolders: [{ uri, name: path.basename(folder) }],
        // requestTimings: the server records how long each request's handler took (ciRoutes/requestTimings);
        // analysisTiming: it sends ciRoutes/analysisTiming after each analysis.
        initializationOptions: { debounceMs: 0, requestTimings: true, analysisTiming: true },
        capabilities: {
          workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true },
          window: { workDoneProgress: true },
          textDocument: {
            publishDiagnostics: { relatedInformation: true, versionSupport: true },
            hover: { contentFormat: ['markdown', 'plaintext'] },
            // As VS Code declares them: one edit range per list, documentation when an item is shown.
            completion: {
              completionItem: { snippetSupport: true, resolveSupport: { properties: ['documentation', 'detail', 'additionalTextEdits'] } },
              completionList: { itemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'] },
            },
            documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          },
        },
      }),
      timeoutMs,
      'initialize',
    );
    if ((result.capabilities.experimental as { analysisTiming?: unknown } | undefined)?.analysisTiming === true) this.sentTimings = true;
  }

  /** Sends `initialized` and resolves when the workspace index is built: { clientMs, serverMs }. */
  async indexWorkspace(timeoutMs: number): Promise<{ clientMs: number; serverMs?: number }> {
    const start = now();
    const done = new Promise<void>((resolve) => this.indexListeners.push(resolve));
    await this.connection.sendNotification(InitializedNotification.type, {});
    await this.guard(done, timeoutMs, 'workspace index');
    // The log line with the server's own figure follows the progress end.
    await new Promise((r) => setTimeout(r, 20));
    return { clientMs: (this.indexDone as { at: number }).at - start, serverMs: this.indexDone?.serverMs };
  }

  /**
   * The next publication for `uri` that satisfies `pred`, with the time it arrived. Marked as
   * handled at once: callers await it only after sending the message that triggers it.
   */
  waitForDiagnostics(uri: string, pred: (p: PublishDiagnosticsParams) => boolean, timeoutMs: number): Promise<Publication> {
    const p = this.waitForDiagnosticsUnhandled(uri, pred, timeoutMs);
    p.catch(() => undefined);
    return p;
  }

  private waitForDiagnosticsUnhandled(uri: string, pred: (p: PublishDiagnosticsParams) => boolean, timeoutMs: number): Promise<Publication> {
    if (this.exited) return Promise.reject(new ServerExitedError(this.exited));
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        pred,
        resolve,
        reject,
        timer: setTimeout(() => {
          const list = this.waiters.get(uri) ?? [];
          this.waiters.set(uri, list.filter((x) => x !== w));
          reject(new TimeoutError(`diagnostics for ${path.basename(uri)}: none within ${Math.round(timeoutMs)} ms`));
        }, Math.max(1, timeoutMs)),
      };
      const list = this.waiters.get(uri) ?? [];
      list.push(w);
      this.waiters.set(uri, list);
    });
  }

  /** The server's own timing of the analysis of `uri` at `version`, waiting briefly for a late one. */
  async serverTiming(uri: string, version: number): Promise<ServerTiming | undefined> {
    const key = `${uri}#${version}`;
    if (!this.timings.has(key) && this.sentTimings) {
      const until = now() + 200;
      while (!this.timings.has(key) && now() < until) await new Promise((r) => setTimeout(r, 2));
    }
    const t = this.timings.get(key);
    this.timings.delete(key);
    this.timingArrivals.delete(key);
    return t;
  }

  /**
   * Opens a document; resolves with the time until its first diagnostics of that version and, for
   * a route file (`analysed`) of a server that reports timings, until its analysis was complete (a
   * server may publish what its quick checks found first), with the count of the last diagnostics.
   */
  async open(file: string, text: string, version: number, timeoutMs: number, analysed = false): Promise<{ ms: number; completeMs?: number; diagnostics: number }> {
    const uri = pathToFileURL(file).toString();
    const start = now();
    const published = this.waitForDiagnostics(uri, (p) => p.version === version, timeoutMs);
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'php', version, text } });
    const pub = await published;
    const key = `${uri}#${version}`;
    while (analysed && !this.timingArrivals.has(key) && this.sentTimings && now() - start < timeoutMs && !this.exited) await new Promise((r) => setTimeout(r, 2));
    const completeAt = this.timingArrivals.get(key);
    this.timingArrivals.delete(key);
    const last = (this.publications.get(uri) ?? []).filter((p) => p.params.version === version).pop() ?? pub;
    return { ms: pub.at - start, completeMs: completeAt === undefined ? undefined : completeAt - start, diagnostics: last.params.diagnostics.length };
  }

  /** Closes a route document; resolves once the server cleared its diagnostics (it re-reads the file). */
  async close(file: string, timeoutMs: number): Promise<void> {
    const uri = pathToFileURL(file).toString();
    const cleared = this.waitForDiagnostics(uri, (p) => p.version === undefined && p.diagnostics.length === 0, timeoutMs);
    await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await cleared;
  }

  /**
   * Replaces one character and waits for the diagnostics of the new version: end-to-end time,
   * and the server's own figure when it reports one.
   */
  async edit(file: string, version: number, at: { line: number; character: number }, char: string, timeoutMs: number): Promise<{ e2eMs: number; server?: ServerTiming; diagnostics: number }> {
    return this.change(file, version, { start: at, end: { line: at.line, character: at.character + 1 } }, char, timeoutMs);
  }

  /** Replaces `range` by `text` (an insertion when the range is empty, a deletion when the text is). */
  async change(
    file: string,
    version: number,
    range: { start: { line: number; character: number }; end: { line: number; character: number } },
    text: string,
    timeoutMs: number,
  ): Promise<{ e2eMs: number; server?: ServerTiming; diagnostics: number }> {
    const uri = pathToFileURL(file).toString();
    const start = now();
    const published = this.waitForDiagnostics(uri, (p) => p.version === version, timeoutMs);
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text }] });
    const pub = await published;
    const e2eMs = pub.at - start;
    return { e2eMs, server: await this.serverTiming(uri, version), diagnostics: pub.params.diagnostics.length };
  }

  /**
   * Replaces one character and at once asks for `method` on the document, as an editor refreshing
   * its outline does: the time from the change sent to that answer. Then waits for the version's
   * diagnostics, so that the next change starts from a settled server.
   */
  async editThenRequest(file: string, version: number, at: { line: number; character: number }, char: string, method: string, timeoutMs: number): Promise<{ ms: number; result: unknown }> {
    const uri = pathToFileURL(file).toString();
    const start = now();
    const published = this.waitForDiagnostics(uri, (p) => p.version === version, timeoutMs);
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: char }] });
    const cts = new CancellationTokenSource();
    const result = await this.guard(this.connection.sendRequest<unknown>(method, { textDocument: { uri } }, cts.token), timeoutMs, method, () => cts.cancel());
    const ms = now() - start;
    cts.dispose();
    await published;
    return { ms, result };
  }

  /**
   * Sends a request; resolves with its round-trip time, when it was sent (milliseconds since the
   * epoch, as the server's `startedAt`) and its result. Cancels it on timeout.
   */
  async request<R>(method: string, params: unknown, timeoutMs: number): Promise<{ ms: number; sentAt: number; result: R }> {
    const cts = new CancellationTokenSource();
    const start = now();
    const result = await this.guard(this.connection.sendRequest<R>(method, params, cts.token), timeoutMs, method, () => cts.cancel());
    const ms = now() - start;
    cts.dispose();
    return { ms, sentAt: performance.timeOrigin + start, result };
  }

  /**
   * What the server says of each request's handler since the last call, by method
   * (`ciRoutes/requestTimings`): how long it took and when it started. Empty from a server that
   * does not record them.
   */
  async serverRequestTimes(timeoutMs: number): Promise<Record<string, MethodTimings>> {
    try {
      return (await this.request<Record<string, MethodTimings> | null>('ciRoutes/requestTimings', undefined, timeoutMs)).result ?? {};
    } catch (e) {
      if (e instanceof TimeoutError || e instanceof ServerExitedError) throw e;
      return {};
    }
  }

  /** VmRSS and VmHWM of the server process in MB (Linux), undefined elsewhere. */
  memory(): { rssMb?: number; peakMb?: number } {
    try {
      const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = (key: string) => {
        const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
        return m ? Number(m[1]) / 1024 : undefined;
      };
      return { rssMb: kb('VmRSS'), peakMb: kb('VmHWM') };
    } catch {
      return {};
    }
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Asks the server to shut down; kills it (by its pid) if it does not exit within `graceMs`. */
  async stop(graceMs = 2000): Promise<void> {
    if (!this.exited) {
      try {
        await this.guard(this.connection.sendRequest('shutdown'), graceMs, 'shutdown');
        await this.connection.sendNotification('exit');
      } catch {
        // busy or gone: killed below
      }
      await new Promise<void>((resolve) => {
        if (this.exited) return resolve();
        const t = setTimeout(() => (this.kill(), resolve()), graceMs);
        this.exitListeners.push(() => (clearTimeout(t), resolve()));
      });
    }
    this.connection.dispose();
  }

  kill(): void {
    if (!this.exited) this.proc.kill('SIGKILL');
  }
}

import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  CancellationTokenSource,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ErrorCodes,
  ResponseError,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { seededRandom } from '../../helpers/random';
import { randomEdit } from './edits';
import { randomRequest } from './requests';
import { ServerProcess } from './server-process';
import { hostileSettings, NOTIFICATION_LINK } from './hostile-settings';
import { makeFuzzWorkspace } from './workspace';

export interface FuzzOptions {
  edits: number;
  seed: number;
  /** Requests sent per edit on average. */
  requestRate?: number;
  /** Share of requests cancelled right after they are sent. */
  cancelRate?: number;
  /** Requests awaiting an answer at most at any time. */
  maxInFlight?: number;
  /** A request whose service time (see FuzzReport.latency) is longer than this counts as slow. */
  slowMs?: number;
  /** Called every so often with the edits done (for a progress line). */
  onProgress?(editsDone: number): void;
  /** Called with every document version sent (to find the text behind a slow answer). */
  onEdit?(uri: string, version: number, text: string): void;
  /** Called with the server once it is initialized (to listen to more of what it says). */
  onServer?(server: ServerProcess): void;
}

export interface FuzzReport {
  seed: number;
  edits: number;
  requests: number;
  cancelled: number;
  /** Requests the server never answered (no result and no error response). */
  unanswered: number;
  /** Error responses other than RequestCancelled / ContentModified, by method: a handler threw. */
  failed: { method: string; message: string; params: unknown; text?: string }[];
  /** The process died, or an uncaught exception reached its stderr. */
  crashes: number;
  /** Errors the server caught and logged (window/logMessage at error level). */
  serverErrors: string[];
  /** What the crashes were: exit status, stderr. */
  crashDetails: string[];
  /**
   * Round trips (send to answer: max, p99, the slowest request's method), and service times: the
   * time from a request's send, or from the answer before it when that came later, to its answer.
   * The server handles one message at a time, so a service time is what it spent on this request
   * (its document's new versions evaluated, background work in between) without the wait behind
   * the up to `maxInFlight - 1` requests ahead of it. `overLimit` counts service times over `slowMs`.
   */
  latency: { max: number; p99: number; slowest: string; serviceMax: number; serviceP99: number; overLimit: number };
  /** Messages the server showed (settings warnings), and those carrying a link from the settings. */
  messages: { shown: number; linked: string[] };
  /** The request of the longest service time: what it asked, about which text, and how many requests were in flight before it. */
  slowestRequest?: { method: string; params: unknown; text?: string; ms: number; serviceMs: number; inFlightBefore: number; sentAtSeconds: number };
  /** Per request method: how many, the slowest round trip and the longest service time (ms). */
  byMethod: Record<string, { count: number; max: number; serviceMax: number }>;
  rss: { first?: number; last?: number; max?: number; samples: number };
  seconds: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Nearest-rank percentile of unsorted samples. */
function percentile(samples: Float64Array, p: number): number {
  if (samples.length === 0) return 0;
  const s = Float64Array.from(samples).sort();
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)];
}

/**
 * Drives the built server over stdio on a copy of the example app: random incremental edits of the
 * open route files (and a controller), interleaved with requests at random places and random
 * cancellations, never waiting for diagnostics. Every request must be answered; latencies are
 * measured from send to answer; the server's RSS is sampled along the way.
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const rnd = seededRandom(options.seed);
  const requestRate = options.requestRate ?? 0.5;
  const cancelRate = options.cancelRate ?? 0.1;
  const maxInFlight = options.maxInFlight ?? 4;
  const slowMs = options.slowMs ?? 100;
  const started = Date.now();
  const ws = makeFuzzWorkspace();
  const server = new ServerProcess(ws.root, hostileSettings(0));
  const latencies = new Float64Array(Math.ceil(options.edits * requestRate * 1.5) + 64);
  const report: FuzzReport = {
    seed: options.seed,
    edits: 0,
    requests: 0,
    cancelled: 0,
    unanswered: 0,
    failed: [],
    crashes: 0,
    serverErrors: [],
    crashDetails: [],
    latency: { max: 0, p99: 0, slowest: '', serviceMax: 0, serviceP99: 0, overLimit: 0 },
    messages: { shown: 0, linked: [] },
    byMethod: {},
    rss: { samples: 0 },
    seconds: 0,
  };
  const sampleRss = () => {
    const rss = server.rss();
    if (rss === undefined) return;
    report.rss.first ??= rss;
    report.rss.last = rss;
    report.rss.max = Math.max(report.rss.max ?? 0, rss);
    report.rss.samples++;
  };
  const services = new Float64Array(latencies.length);
  let measured = 0;
  let lastAnswerAt = 0;
  const inFlight = new Set<Promise<void>>();

  /** Sends one request (cancelled at once, sometimes) and records how and when it was answered. */
  const send = (method: string, params: unknown, text?: string): void => {
    const source = rnd() < cancelRate ? new CancellationTokenSource() : undefined;
    const t0 = performance.now();
    const inFlightBefore = inFlight.size;
    report.requests++;
    const answered = (): void => {
      const now = performance.now();
      const ms = now - t0;
      const service = now - Math.max(t0, lastAnswerAt);
      lastAnswerAt = now;
      if (measured < latencies.length) {
        services[measured] = service;
        latencies[measured++] = ms;
      }
      if (ms > report.latency.max) report.latency = { ...report.latency, max: ms, slowest: method };
      if (service > report.latency.serviceMax) {
        report.latency.serviceMax = service;
        report.slowestRequest = { method, params, text, ms, serviceMs: service, inFlightBefore, sentAtSeconds: (Date.now() - started) / 1000 - ms / 1000 };
      }
      if (service > slowMs) report.latency.overLimit++;
      const m = (report.byMethod[method] ??= { count: 0, max: 0, serviceMax: 0 });
      m.serviceMax = Math.max(m.serviceMax, service);
      m.count++;
      m.max = Math.max(m.max, ms);
    };
    const p = (source ? server.connection.sendRequest(method, params, source.token) : server.connection.sendRequest(method, params)).then(answered, (e: unknown) => {
      const code = e instanceof ResponseError ? e.code : undefined;
      if (code === undefined || code === ErrorCodes.PendingResponseRejected || code === ErrorCodes.ConnectionInactive || code === ErrorCodes.MessageWriteError) {
        report.unanswered++;
        return;
      }
      answered();
      // A refusal (rename off a name, …) is an answer; an internal error means a handler threw.
      if (code === ErrorCodes.InternalError || code === ErrorCodes.UnknownErrorCode) report.failed.push({ method, message: (e as Error).message, params, text });
    });
    if (source) {
      report.cancelled++;
      source.cancel();
    }
    const tracked = p.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  try {
    await server.initialize(ws.root, { analysisTiming: true });
    options.onServer?.(server);
    await server.whenIndexed();
    // The documents the user has open: every route file and a controller.
    const docs = [...ws.routeFiles, ws.controller].map((file) => {
      const text = fs.readFileSync(file, 'utf8');
      return { original: text, doc: TextDocument.create(pathToFileURL(file).toString(), 'php', 1, text) };
    });
    for (const d of docs) await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: d.doc.uri, languageId: 'php', version: 1, text: d.original } });
    // Warm-up: let the first analyses (cold caches, JIT) finish before latencies count.
    for (let i = 0; i < 50 && docs.some((d) => !server.diagnostics.has(d.doc.uri)); i++) await sleep(100);
    await server.connection.sendRequest('ciRoutes/routeTable', { uri: docs[0].doc.uri });
    sampleRss();
    let unacknowledged = 0;
    let lastSample = Date.now();
    for (let n = 0; n < options.edits && server.alive; n++) {
      // Half the edits go to the example app's routes.php, the rest spread over the other files.
      const d = rnd() < 0.5 ? docs[0] : docs[1 + Math.floor(rnd() * (docs.length - 1))];
      if (rnd() < 0.001) {
        // Closed and opened again: the server goes back to the disk, then to the new text.
        await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: d.doc.uri } });
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: d.doc.uri, languageId: 'php', version: d.doc.version, text: d.doc.getText() } });
      }
      const { edit, next } = randomEdit(d.doc, d.original, d.original.length * 3, rnd);
      d.doc = next;
      options.onEdit?.(next.uri, next.version, next.getText());
      await server.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: next.uri, version: next.version }, contentChanges: edit.changes });
      report.edits++;
      unacknowledged++;
      if (n % 5000 === 4999) {
        // Other hostile settings: the server reads them again and re-analyses the open files.
        server.settings = hostileSettings(n);
        await server.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
      }
      for (let r = requestRate; r > 0; r--) {
        if (rnd() < Math.min(1, r)) {
          const target = rnd() < 0.8 ? d : docs[Math.floor(rnd() * docs.length)];
          const req = randomRequest(target.doc, server.diagnostics.get(target.doc.uri) ?? [], rnd);
          send(req.method, req.params, target.doc.getText());
          unacknowledged = 0;
        }
      }
      // Back-pressure: a bounded number of requests in flight, and edits never run far ahead of
      // the answers (after 32 edits without a request, one is sent and waited for before 32 more).
      while (inFlight.size >= maxInFlight || (unacknowledged > 32 && inFlight.size > 0)) await Promise.race(inFlight);
      if (unacknowledged > 32) {
        const req = randomRequest(d.doc, [], rnd);
        send(req.method, req.params, d.doc.getText());
        unacknowledged = 0;
      }
      if (Date.now() - lastSample >= 250) {
        sampleRss();
        lastSample = Date.now();
      }
      if (n % 1000 === 999) options.onProgress?.(n + 1);
    }
    // Whatever is still in flight must be answered too.
    const drained = Promise.all([...inFlight]);
    await Promise.race([drained, sleep(10_000)]);
    report.unanswered += inFlight.size;
    sampleRss();
  } catch (e) {
    // Writing to a dead server fails: that is the crash reported below, not a driver error.
    if (server.alive) throw e;
  } finally {
    if (!server.alive) report.crashDetails.push(`the server exited during the run (code ${server.exit?.code}, signal ${server.exit?.signal})`);
    // Over stdio the server's console goes to the client: anything on stderr is Node reporting a fatal error.
    if (server.stderr.trim()) report.crashDetails.push(`stderr: ${server.stderr.slice(0, 2000)}`);
    report.crashes = report.crashDetails.length ? 1 : 0;
    report.serverErrors.push(...server.loggedErrors);
    report.messages = { shown: server.messages.length, linked: server.messages.filter((m) => NOTIFICATION_LINK.test(m)) };
    await server.stop();
    ws.dispose();
  }
  report.latency.p99 = percentile(latencies.subarray(0, measured), 99);
  report.latency.serviceP99 = percentile(services.subarray(0, measured), 99);
  report.seconds = (Date.now() - started) / 1000;
  return report;
}

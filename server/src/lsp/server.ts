import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  MessageType,
  ShowMessageNotification,
  TextDocumentSyncKind,
  TextDocuments,
  type CodeAction,
  type Connection,
  type Diagnostic,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ROUTER_FILE_NAMES } from '../../../shared/app/router-flavour';
import { moduleOfRouteFile } from '../../../shared/app/layout';
import { normalizeSettings, severityUnder, type FolderSettings } from '../../../shared/workspace/settings';
import { DIAGNOSTIC_CODES } from '../../../shared/analysis/diagnostics/core/types';
import { setReadRoots } from '../host/read-fence';
import { diskApplications } from '../host/route-file';
import { readRegularFile } from '../host/safe-read';
import { toDiagnostic } from './convert';
import { registerCustomRequests } from './custom-requests';
import { registerTestUrl } from './test-url';
import { registerFeatures } from './features';
import { registerHeartbeat } from './heartbeat';
import { CompletionItems, completionShape } from './completion-items';
import { registerOutlineFeatures } from './outline-features';
import { RequestTimings, RequestTimingsRequest } from './request-timings';
import { documentFor } from './usage-diagnostics';
import { unknownNameUsages } from '../../../shared/analysis/diagnostics/name-usages';
import { RouteService, type AnalysedRouteFile, type SeverityFinding } from './route-service';
import type { Steps } from '../../../shared/util/steps';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { WorkspaceIndex } from './workspace-index';
import { IdleWork } from './idle-work';
import { NameChoicesCache } from './name-choices-cache';
import { OutlineCache } from './outline-cache';
import { warmUpSteps } from './warm-up';
import { describeIndexStats, registerIndexStats } from './index-stats';
import { visibleControls } from '../../../shared/util/escape';
import { ProtocolEdge } from './protocol-edge';
import { fixesIn, workspaceFoldersProblem } from './param-checks';
import { boundedDiagnostics } from './diagnostic-caps';
import { WatchedChanges, type FileChange, type Followed } from './watched-changes';
import type { NamedUsage } from '../../../shared/workspace/php-index';

export interface ServerOptions {
  /** Delay before re-analysing after an edit (ms). */
  debounceMs?: number;
  /** How long file-watcher notifications must pause before their events are followed (ms). */
  watchedFilesQuietMs?: number;
  /**
   * A document's first analysis publishes what the quick checks found once it has taken this
   * long (ms), then everything when the inclusion checks are done.
   */
  earlyFindingsAfterMs?: number;
}

interface Folder {
  uri: string;
  path: string;
  settings: FolderSettings;
}

/** A file as the server's messages show it: relative to the workspace folder holding it, else whole. */
function shownInWorkspace(index: WorkspaceIndex, file: string): string {
  const folder = index.folderOf(file);
  return folder ? path.relative(folder.path, file) || file : file;
}

function uriToPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

export interface RunningServer {
  /** Whether the client asked for shutdown (then leaving is a clean exit). */
  shutdownReceived(): boolean;
}

/**
 * How long a background analysis runs before requests get their turn: a request waits at most
 * about this long for the checks, however long they take in all.
 */
const SLICE_MS = 10;

/** How long idle work (building what requests read) runs before a request gets its turn. */
const IDLE_SLICE_MS = 2;
/** Idle work waits for a pause in typing this long (keystrokes come every 100–200 ms). */
const IDLE_QUIET_MS = 300;

/** Wires the engine to an LSP connection. Only this layer knows LSP. */
export function startServer(rawConnection: Connection, options: ServerOptions = {}): RunningServer {
  // Every handler below is registered through the edge: what the client sends is checked first.
  const edge = new ProtocolEdge((message) => log(message));
  const connection = edge.guard(rawConnection);
  const documents = new TextDocuments(TextDocument);
  let folders: Folder[] = [];
  // One application model for every feature: the index reads applications as the documents do.
  // Its messages name files from the workspace folder holding them.
  // (The index is made just below; it is asked only once files are read.)
  const service = new RouteService(diskApplications((file) => shownInWorkspace(index, file)));
  const index = new WorkspaceIndex(() => folders, (message) => log(message), service, undefined, service.applications);
  let debounceMs = options.debounceMs ?? 150;
  let earlyFindingsAfterMs = options.earlyFindingsAfterMs ?? 500;
  let supportsConfiguration = false;
  let supportsWatchRegistration = false;
  let supportsProgress = false;
  let supportsWorkspaceFolders = false;
  let supportsOutline = false;
  const timers = new Map<string, NodeJS.Timeout>();
  const published = new Map<string, number>();
  /** False until the first workspace scan is done: names from other files are not known yet. */
  let indexReady = false;

  // Log lines name workspace files and quote settings: one line each, no control raw.
  const log = (message: string) => connection.console.log(`[ci-routes] ${visibleControls(message)}`);
  /** A failure in the log: the trace's lines indented under it, so no text in them reads as a line of the log's own. */
  const logFailure = (what: string, e: unknown) =>
    connection.console.error(`[ci-routes] ${visibleControls(what)} failed: ${String((e as Error)?.stack ?? e).split('\n').map(visibleControls).join('\n    ')}`);
  /** Open documents currently not analysed because of ciRoutes.maxFileSize. */
  const overLimit = new Set<string>();

  async function refreshSettings(): Promise<void> {
    for (const f of folders) {
      let raw: unknown = {};
      if (supportsConfiguration) {
        try {
          raw = await connection.workspace.getConfiguration({ scopeUri: f.uri, section: 'ciRoutes' });
        } catch {
          raw = {};
        }
      }
      const { settings, problems } = normalizeSettings(raw);
      f.settings = settings;
      // A notification, not a request: nothing waits for (or fails on) the client's answer.
      for (const p of problems) void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `CI Routes: ${p}` });
    }
  }

  function settingsFor(file: string): FolderSettings {
    return index.folderOf(file)?.settings ?? normalizeSettings({}).settings;
  }

  /** A route file's analysis under way: it runs in slices, so that requests are answered in between. */
  interface AnalysisJob {
    readonly doc: TextDocument;
    /** The version analysed (the document object itself moves on with edits). */
    readonly version: number;
    readonly file: string;
    readonly steps: Steps<AnalysedRouteFile>;
  }
  const jobs = new Map<string, AnalysisJob>();
  const outlines = new OutlineCache();
  const idle = new IdleWork(IDLE_SLICE_MS, () => backlog.size > 0, (uri, e) => logFailure(`preparing requests on ${uri}`, e), IDLE_QUIET_MS);

  const nameChoices = new NameChoicesCache();
  const completionItems = new CompletionItems();
  const requestTimings = new RequestTimings();
  /** What the first requests after an analysis read (see warmUpSteps). */
  function prepareRequests(file: string, evaluation: FileEvaluation, text: string): Steps<void> {
    return warmUpSteps(text, evaluation, outlines, supportsOutline ? settingsFor(file).maxOutlineSymbols : undefined);
  }

  /** After a publication: prepareRequests(), then `named('` completion's names, which it just updated. */
  function* whenIdle(file: string, result: AnalysedRouteFile, text: string): Steps<void> {
    yield* prepareRequests(file, result.evaluation, text);
    yield;
    // As completed in views and controllers (a route file completes its own names as well).
    nameChoices.for(index, undefined).list();
  }

  /**
   * A document's first analysis (it was just opened) also prepares what requests read before it
   * publishes: opening a huge file is slow anyway, and the requests that follow it are then fast.
   * After an edit, that work waits until the server is idle.
   */
  function* openingAnalysis(file: string, text: string, steps: Steps<AnalysedRouteFile>): Steps<AnalysedRouteFile> {
    const result = yield* steps;
    if (!result.skipped) yield* prepareRequests(file, result.evaluation, text);
    return result;
  }

  /** Starts analysing the document's version (a route file's in slices: the first now, the rest in the background). */
  function analyseAndPublish(doc: TextDocument): void {
    const file = uriToPath(doc.uri);
    if (!file) return;
    if (!index.isRouteFile(file)) {
      publishUsages(file, doc);
      return;
    }
    cancelJob(doc.uri);
    idle.cancel(doc.uri);
    const text = doc.getText();
    const opening = !published.has(doc.uri);
    // A large file's first analysis spends most of its time in the inclusion checks: what the
    // others found is shown meanwhile (later analyses are incremental, and showing less would flicker).
    const started = performance.now();
    const version = doc.version;
    const early = opening
      ? (findings: SeverityFinding[]) => {
          if (performance.now() - started >= earlyFindingsAfterMs) publishEarly(doc, version, file, findings);
        }
      : undefined;
    const analysis = service.analysisSteps(doc.uri, file, text, doc.version, settingsFor(file), indexReady && index.namesComplete() ? index.knownNames() : 'pending', early);
    const job: AnalysisJob = { doc, version: doc.version, file, steps: opening ? openingAnalysis(file, text, analysis) : analysis };
    jobs.set(doc.uri, job);
    runSlice(job);
  }

  /** Stops the analysis under way (its inputs changed); what its checks decided stays in their memos. */
  function cancelJob(uri: string): void {
    const job = jobs.get(uri);
    if (!job) return;
    jobs.delete(uri);
    job.steps.return(undefined as never);
  }

  /** Runs a job for up to SLICE_MS; publishes when it is done, else queues the rest. */
  function runSlice(job: AnalysisJob): void {
    const end = performance.now() + SLICE_MS;
    let result: AnalysedRouteFile | undefined;
    try {
      for (let r = job.steps.next(); ; r = job.steps.next()) {
        if (r.done) {
          result = r.value;
          break;
        }
        if (performance.now() >= end) break;
      }
    } catch (e) {
      logFailure(`analysis of ${job.doc.uri}`, e);
      if (jobs.get(job.doc.uri) === job) jobs.delete(job.doc.uri);
      return;
    }
    if (!result) {
      enqueue(job.doc.uri);
      return;
    }
    if (jobs.get(job.doc.uri) === job) jobs.delete(job.doc.uri);
    try {
      publishAnalysis(job.doc, job.version, job.file, result);
    } catch (e) {
      logFailure(`publishing the analysis of ${job.doc.uri}`, e);
    }
  }

  function publishAnalysis(doc: TextDocument, version: number, file: string, result: AnalysedRouteFile): void {
    // A newer version arrived while analysing: its own analysis will publish.
    const current = documents.get(doc.uri);
    if (!current || current.version !== version) return;
    // A limit hit is said once in the log (the diagnostic at the top of the file stays meanwhile).
    if (result.skipped && !overLimit.has(doc.uri)) log(`${file}: ${result.skipped}`);
    if (result.skipped) overLimit.add(doc.uri);
    else overLimit.delete(doc.uri);
    // The workspace index learns this version's names from the same evaluation.
    if (!result.skipped) learnRouteFile(doc, file, result.evaluation);
    published.set(doc.uri, version);
    void connection.sendDiagnostics({ uri: doc.uri, version, diagnostics: diagnosticsOf(doc, result.findings) });
    // Server-side cost of this analysis, for benchmarks and the curious (clients may ignore it).
    if (result.timing) void connection.sendNotification('ciRoutes/analysisTiming', { uri: doc.uri, version, ...result.timing });
    // Once the diagnostics are out, build what the first requests would otherwise build.
    if (!result.skipped) idle.start(doc.uri, whenIdle(file, result, doc.getText()));
  }

  /**
   * The workspace index takes a version of an open route file with its evaluation: the two
   * must go together (a request about another file reads the declarations' places in that text).
   */
  function learnRouteFile(doc: TextDocument, file: string, evaluation: FileEvaluation): void {
    const wasComplete = index.namesComplete();
    const changed = index.recordRouteNames(file, doc.getText(), evaluation);
    // Names changed: files using them may gain or lose unknown-route-name findings; every file
    // may when the names became complete or partial (an analysis limit reached or left).
    if (index.namesComplete() !== wasComplete) namesChanged('all', doc.uri);
    else if (changed.size) namesChanged(changed, doc.uri);
  }

  /** What the quick checks of a first analysis found, published while the inclusion checks run. */
  function publishEarly(doc: TextDocument, version: number, file: string, findings: SeverityFinding[]): void {
    if (documents.get(doc.uri)?.version !== version) return;
    void connection.sendDiagnostics({ uri: doc.uri, version, diagnostics: diagnosticsOf(doc, findings) });
    log(`${file}: ${findings.length} finding(s) shown while the inclusion checks run`);
  }

  function diagnosticsOf(doc: TextDocument, findings: SeverityFinding[]): Diagnostic[] {
    const uriOf = (p?: string) => (p ? pathToFileURL(p).toString() : '');
    return boundedDiagnostics(doc, findings, (f) => f.severity, (f) => f.finding.span, (kept) => kept.map((f) => toDiagnostic(doc, f.finding, f.severity, uriOf)));
  }

  /** Files whose `Route::named()` diagnostics were published (so they can be cleared). */
  const usagePublished = new Set<string>();
  /** The version of each open PHP file whose usages were last published. */
  const usagesPublishedAt = new Map<string, number>();

  /** unknown-route-name in a PHP file that is not a route file: open text, else the index. */
  function publishUsages(file: string, openDoc?: TextDocument): void {
    if (!indexReady) return;
    const uri = openDoc?.uri ?? pathToFileURL(file).toString();
    const usages = openDoc ? index.updatePhpFile(file, openDoc.getText()) : (index.usageFiles().find(([f]) => f === file)?.[1] ?? []);
    const level = severityUnder(settingsFor(file).diagnostics, { code: 'unknown-route-name', severity: DIAGNOSTIC_CODES['unknown-route-name'].severity });
    let diagnostics: Diagnostic[] = [];
    // Names a route file declares past an analysis limit are unknown: reporting them would be guesses.
    if (usages.length && level !== 'off' && index.namesComplete()) {
      let doc = openDoc;
      if (!doc) {
        try {
          doc = documentFor(uri, readRegularFile(file, settingsFor(file).maxFileSize));
        } catch {
          doc = undefined;
        }
      }
      const target = doc;
      const known = index.knownNames();
      const pastErrors = index.namesPastErrors();
      // Only the unknown names are made findings, and only those published (suggestions cost).
      const unknown = usages.filter((u) => u.name !== undefined && (!known.has(u.name) || pastErrors.has(u.name)));
      const spanOf = (u: NamedUsage) => u.argSpan ?? u.nameSpan ?? u.callSpan;
      if (target) diagnostics = boundedDiagnostics(target, unknown, () => level, spanOf, (kept) => unknownNameUsages(kept, known, pastErrors).map((f) => toDiagnostic(target, f, level, () => '')));
    }
    // Open documents always get a publication (clients wait for one); others only when it changes.
    if (diagnostics.length === 0 && !usagePublished.has(uri) && !openDoc) return;
    if (diagnostics.length) usagePublished.add(uri);
    else usagePublished.delete(uri);
    if (openDoc) usagesPublishedAt.set(uri, openDoc.version);
    void connection.sendDiagnostics({ uri, ...(openDoc ? { version: openDoc.version } : {}), diagnostics });
  }

  /**
   * Route names were added or removed ('all': they became complete or partial): once typing
   * pauses, the files that use one of them are published again and the other open route files
   * re-analysed (coalesced: a burst of edits costs one pass, and only over the files concerned).
   */
  const pendingNames = new Set<string>();
  /** Every file's names are to be checked again (see namesChanged). */
  let allNamesPending = false;
  let namesTimer: NodeJS.Timeout | undefined;
  function namesChanged(changed: ReadonlySet<string> | 'all', from: string): void {
    if (changed === 'all') allNamesPending = true;
    else for (const n of changed) pendingNames.add(n);
    if (namesTimer) clearTimeout(namesTimer);
    namesTimer = setTimeout(() => {
      namesTimer = undefined;
      const names = allNamesPending ? undefined : new Set(pendingNames);
      pendingNames.clear();
      allNamesPending = false;
      for (const other of documents.all()) if (other.uri !== from && other.getText().includes('named')) restart(other.uri);
      republishUsages(names);
    }, Math.max(debounceMs, 50));
  }

  /**
   * A module routes file's keys changed: once typing pauses, the open main route files are
   * analysed again (their targets into that module may be decided otherwise).
   */
  let moduleKeysTimer: NodeJS.Timeout | undefined;
  service.moduleKeys = index.moduleKeys;
  index.moduleKeys.onChange = () => {
    if (moduleKeysTimer) clearTimeout(moduleKeysTimer);
    moduleKeysTimer = setTimeout(() => {
      moduleKeysTimer = undefined;
      for (const doc of documents.all()) {
        const file = uriToPath(doc.uri);
        if (file && index.isRouteFile(file) && moduleOfRouteFile(file) === undefined) restart(doc.uri);
      }
    }, Math.max(debounceMs, 50));
  };

  /**
   * The main route file of an application changed: once typing pauses, its open module route files
   * are analysed again (their routes are read after the main routes).
   */
  service.mainRoutesOf = (appDir) => {
    const main = path.join(appDir, 'config', 'routes.php');
    const input = index.routeFileInputs((f) => f === main)[0];
    return input && { text: input.text, evaluation: input.evaluation };
  };
  const mainRoutesTimers = new Map<string, NodeJS.Timeout>();
  index.onMainRoutes = (appDir) => {
    clearTimeout(mainRoutesTimers.get(appDir));
    mainRoutesTimers.set(
      appDir,
      setTimeout(() => {
        mainRoutesTimers.delete(appDir);
        for (const doc of documents.all()) {
          const file = uriToPath(doc.uri);
          if (file && moduleOfRouteFile(file) !== undefined && index.isRouteFile(file) && service.applications.applicationDirOf(file) === appDir) restart(doc.uri);
        }
      }, Math.max(debounceMs, 50)),
    );
  };

  /** Publishes unknown-route-name findings again (only in files using one of `names`, when given). */
  function republishUsages(names?: ReadonlySet<string>): void {
    const open = new Map(documents.all().map((d) => [uriToPath(d.uri), d] as const));
    const uses = (usages: readonly { name?: string }[]) => !names || usages.some((u) => u.name !== undefined && names.has(u.name));
    const files = new Set(index.usageFiles().filter(([, usages]) => uses(usages)).map(([f]) => f));
    for (const f of open.keys()) if (f) files.add(f);
    if (!names) {
      for (const uri of usagePublished) {
        const f = uriToPath(uri);
        if (f) files.add(f);
      }
    }
    for (const f of files) if (!index.isRouteFile(f)) publishUsages(f, open.get(f));
  }

  function schedule(doc: TextDocument, delay: number): void {
    const t = timers.get(doc.uri);
    if (t) clearTimeout(t);
    if (delay <= 0) {
      timers.delete(doc.uri);
      analyseAndPublish(doc);
      return;
    }
    timers.set(
      doc.uri,
      setTimeout(() => {
        timers.delete(doc.uri);
        enqueue(doc.uri);
      }, delay),
    );
  }

  /**
   * Documents waiting for a background analysis. They run one per turn of the event loop, so
   * requests that arrive meanwhile wait for one analysis at most, not for every open document
   * (timers due together would otherwise run back to back).
   */
  const backlog = new Set<string>();
  let draining = false;
  function enqueue(uri: string): void {
    backlog.add(uri);
    if (!draining) {
      draining = true;
      setImmediate(drain);
    }
  }
  function drain(): void {
    const next = backlog.values().next();
    if (next.done) {
      draining = false;
      return;
    }
    backlog.delete(next.value);
    const latest = documents.get(next.value);
    const job = jobs.get(next.value);
    if (!latest) cancelJob(next.value);
    else if (job && job.version === latest.version) runSlice(job);
    // The version it was analysing is gone; the new one waits for typing to pause.
    else if (job && timers.has(next.value)) cancelJob(next.value);
    else analyseAndPublish(latest);
    setImmediate(drain);
  }

  function reanalyseOpen(): void {
    for (const doc of documents.all()) {
      const t = timers.get(doc.uri);
      if (t) clearTimeout(t);
      timers.delete(doc.uri);
      restart(doc.uri);
    }
  }

  /** Analyses the document again from the start (settings, names or controllers changed). */
  function restart(uri: string): void {
    cancelJob(uri);
    enqueue(uri);
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const caps = params.capabilities;
    supportsConfiguration = Boolean(caps.workspace?.configuration);
    supportsWatchRegistration = Boolean(caps.workspace?.didChangeWatchedFiles?.dynamicRegistration);
    supportsProgress = Boolean(caps.window?.workDoneProgress);
    supportsWorkspaceFolders = Boolean(caps.workspace?.workspaceFolders);
    supportsOutline = Boolean(caps.textDocument?.documentSymbol);
    completionItems.useShape(completionShape(caps));
    const init = (params.initializationOptions ?? {}) as { debounceMs?: unknown; earlyFindingsAfterMs?: unknown; requestTimings?: unknown; evaluationBudgetBytes?: unknown; watchedFilesQuietMs?: unknown };
    if (typeof init.evaluationBudgetBytes === 'number' && init.evaluationBudgetBytes >= 0) index.setEvaluationBudget(init.evaluationBudgetBytes);
    if (typeof init.watchedFilesQuietMs === 'number' && init.watchedFilesQuietMs >= 0) watched.quietMs = init.watchedFilesQuietMs;
    requestTimings.enabled = init.requestTimings === true;
    if (typeof init.debounceMs === 'number' && init.debounceMs >= 0) debounceMs = init.debounceMs;
    if (typeof init.earlyFindingsAfterMs === 'number' && init.earlyFindingsAfterMs >= 0) earlyFindingsAfterMs = init.earlyFindingsAfterMs;
    const wf = params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : []);
    folders = wf.flatMap((f) => {
      const p = uriToPath(f.uri);
      return p ? [{ uri: f.uri, path: p, settings: normalizeSettings({}).settings }] : [];
    });
    // From here on, files are read only inside the workspace folders (symlinks resolved).
    setReadRoots(folders.map((f) => f.path));
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        hoverProvider: true,
        definitionProvider: true,
        completionProvider: { triggerCharacters: ["'", '"', ':', '(', '/'], resolveProvider: true },
        signatureHelpProvider: { triggerCharacters: ['(', ','] },
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        codeLensProvider: { resolveProvider: false },
        inlayHintProvider: true,
        documentLinkProvider: { resolveProvider: false },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
        // Each analysis' last publication is followed by `ciRoutes/analysisTiming` (benchmarks wait for it).
        experimental: { analysisTiming: true },
      },
      serverInfo: { name: 'ci-routes-language-server', version: '0.1.0' },
    };
  });

  connection.onInitialized(async () => {
    if (supportsWorkspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        if (edge.refuse('workspace/didChangeWorkspaceFolders', workspaceFoldersProblem(e))) return;
        folders = folders.filter((f) => !e.removed.some((r) => r.uri === f.uri));
        for (const a of e.added) {
          const p = uriToPath(a.uri);
          if (p) folders.push({ uri: a.uri, path: p, settings: normalizeSettings({}).settings });
        }
        setReadRoots(folders.map((f) => f.path));
        void refreshSettings()
          .then(() => index.scan({ report: () => undefined, isCancelled: () => false }))
          .then(() => {
            reanalyseOpen();
            primeRouteFiles();
          });
      });
    }
    if (supportsConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'ciRoutes' });
    if (supportsWatchRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: '**/*.php' }, { globPattern: '**/composer.json' }],
      });
    }
    await refreshSettings();
    const progress = supportsProgress ? await connection.window.createWorkDoneProgress() : undefined;
    progress?.begin('CI Routes: indexing route files', 0, 'scanning', false);
    const started = Date.now();
    const count = await index.scan({
      report: (pct, msg) => progress?.report(pct, msg),
      isCancelled: () => false,
    });
    progress?.done();
    indexReady = true;
    republishUsages();
    log(`indexed ${count} route file(s) in ${Date.now() - started} ms`);
    log(describeIndexStats(index.stats()));
    reanalyseOpen();
    primeRouteFiles();
  });

  /**
   * Route files the index read and no editor has open are analysed when the server is idle, and
   * what the first requests read is built, all for the memos: opening one then publishes its
   * diagnostics at once instead of after the first analysis (seconds for a large file).
   */
  function primeRouteFiles(): void {
    // Only the evaluations the index holds: the others were let go to bound its memory.
    for (const { file, text, evaluation } of index.heldRouteFileInputs()) {
      const uri = pathToFileURL(file).toString();
      if (documents.get(uri)) continue;
      const names = index.knownNames();
      function* prime(): Steps<void> {
        yield* service.checkSteps(file, text, evaluation, names);
        yield* prepareRequests(file, evaluation, text);
      }
      function* primeAndSay(): Steps<void> {
        if (yield* service.whileIndexed(file, evaluation, prime())) log(`checked ${file} ahead of its opening`);
      }
      idle.start(uri, primeAndSay());
    }
  }

  connection.onDidChangeConfiguration(async () => {
    await refreshSettings();
    service.invalidateApp();
    reanalyseOpen();
  });

  /** One file's changes on disk, followed (once per batch of events, see WatchedChanges). */
  function followChange(change: FileChange): Followed {
    const base = path.basename(change.file);
    // What the application folder tells: its constants, the Route library's version, the router, ENVIRONMENT (index.php).
    if (base === 'constants.php' || base === 'Route.php' || base === 'index.php' || base === 'composer.json' || ROUTER_FILE_NAMES.has(base)) service.invalidateApp();
    // composer.json tells the PHP version only: the open route files are analysed again (see below), nothing is indexed.
    if (base === 'composer.json') return 'other file';
    service.invalidateControllers();
    // A file a route file includes (or might, through glob()): its includers are evaluated again,
    // once for the whole batch (see includersOfChanges).
    if (!index.isRouteFile(change.file)) otherFilesChanged = true;
    if (documents.get(change.uri)) return 'open'; // the open document is the truth
    if (change.type === FileChangeType.Deleted) index.removeFile(change.file);
    else if (index.isRouteFile(change.file)) {
      index.updateRouteFile(change.file);
      return 'route file read';
    } else index.updatePhpFile(change.file);
    return 'other file';
  }
  /** Whether a file that is not a route file changed in the batch being followed. */
  let otherFilesChanged = false;
  /** The route files closed in every editor that read other files, read again once per batch of changes on disk; how many. */
  function includersOfChanges(): number {
    if (!otherFilesChanged) return 0;
    otherFilesChanged = false;
    let read = 0;
    for (const includer of service.otherFilesChanged()) {
      if (service.isOpen(includer)) continue;
      index.updateRouteFile(includer);
      read++;
    }
    return read;
  }
  const watched = new WatchedChanges(
    followChange,
    (summary) => {
      const routeFilesRead = summary.routeFilesRead + includersOfChanges();
      log(`followed ${summary.events.toLocaleString('en-US')} change event${summary.events === 1 ? '' : 's'} on disk: ${summary.files} file(s), ${routeFilesRead} route file${routeFilesRead === 1 ? '' : 's'} read again`);
      reanalyseOpen();
      republishUsages();
    },
    (e) => logFailure(`following a change on disk`, e),
    options.watchedFilesQuietMs,
  );
  connection.onDidChangeWatchedFiles((params) => {
    watched.add(params.changes.flatMap((c) => {
      const file = uriToPath(c.uri);
      return file ? [{ file, uri: c.uri, type: c.type }] : [];
    }));
  });

  /** The version each document was opened at: its content event is the open itself. */
  const openedAt = new Map<string, number>();
  documents.onDidOpen((e) => {
    openedAt.set(e.document.uri, e.document.version);
    // Nothing is read for a file outside every workspace folder: the read fence is those folders.
    const file = uriToPath(e.document.uri);
    if (file && !index.folderOf(file)) log(`${file} lies outside the workspace folders: it is analysed from its text alone (no constants.php, controllers or Route.php)`);
    schedule(e.document, 0);
  });
  documents.onDidChangeContent((e) => {
    if (openedAt.get(e.document.uri) === e.document.version) return; // the open event analyses
    idle.cancel(e.document.uri);
    schedule(e.document, debounceMs);
  });
  documents.onDidClose((e) => {
    const t = timers.get(e.document.uri);
    if (t) clearTimeout(t);
    timers.delete(e.document.uri);
    published.delete(e.document.uri);
    openedAt.delete(e.document.uri);
    usagesPublishedAt.delete(e.document.uri);
    overLimit.delete(e.document.uri);
    idle.cancel(e.document.uri);
    // The file's evaluator goes back to the index, which reads the file on disk with it next.
    cancelJob(e.document.uri);
    service.close(e.document.uri);
    const file = uriToPath(e.document.uri);
    if (file && index.isRouteFile(file)) {
      index.updateRouteFile(file);
      void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
    } else if (file) {
      // Back to the file on disk: its usages stay checked, as for any workspace file.
      index.updatePhpFile(file);
      publishUsages(file);
    }
  });

  connection.onCodeAction((params) => {
    const actions: CodeAction[] = [];
    for (const d of params.context.diagnostics) {
      if (d.source !== 'ci-routes') continue;
      // The fixes come back from the client: those not as the server wrote them are ignored.
      for (const fix of fixesIn(d.data)) {
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [d],
          isPreferred: fix.preferred,
          edit: { changes: { [params.textDocument.uri]: fix.edits } },
        });
      }
    }
    return actions;
  });

  let shutdownReceived = false;
  connection.onShutdown(() => {
    shutdownReceived = true;
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
    for (const t of mainRoutesTimers.values()) clearTimeout(t);
    mainRoutesTimers.clear();
    backlog.clear();
    idle.clear();
    watched.clear();
  });

  /**
   * Before a request about a document: its current version evaluated. For a route file the
   * checks and the diagnostics follow when typing pauses (the pending debounce), so the request
   * waits for the evaluation alone, never for the checks (the slow part of an analysis on large
   * files), and a burst of edits and requests costs one analysis, of the version typing stopped at.
   */
  const ensureAnalysed = (doc: TextDocument): void => {
    const last = service.last(doc.uri);
    if (last && last.version === doc.version) return;
    const file = uriToPath(doc.uri);
    if (!file || !index.isRouteFile(file)) {
      // A PHP file's usages are published once per version, not once per request.
      if (usagesPublishedAt.get(doc.uri) !== doc.version) analyseAndPublish(doc);
      return;
    }
    try {
      service.evaluate(doc.uri, file, doc.getText(), doc.version, settingsFor(file));
      // The new evaluation may share records with the one the index holds (replay moves their
      // places to this text): the index takes this version at once, text and evaluation together.
      const evaluated = service.last(doc.uri);
      if (evaluated && evaluated.version === doc.version && !evaluated.skipped) learnRouteFile(doc, file, evaluated.evaluation);
    } catch (e) {
      logFailure(`evaluation of ${doc.uri}`, e);
    }
    // A version no analysis is waiting for still gets one, in the background.
    if (!timers.has(doc.uri)) enqueue(doc.uri);
  };
  const timed = requestTimings.timing(connection);
  registerFeatures(timed, { documents, service, index, uriToPath, ensureAnalysed, settingsFor, log }, nameChoices, completionItems);
  registerCustomRequests(connection, { documents, service, index, uriToPath, ensureAnalysed });
  registerTestUrl(connection, { documents, service, ensureAnalysed, settingsFor: (uri) => settingsFor(uriToPath(uri) ?? ''), uriToPath });
  registerOutlineFeatures(timed, { documents, service, index, uriToPath, ensureAnalysed, settingsFor, log }, outlines);
  connection.onRequest(RequestTimingsRequest, () => requestTimings.take());
  registerIndexStats(connection, index);
  registerHeartbeat(connection);

  documents.listen(connection);
  connection.listen();
  return { shutdownReceived: () => shutdownReceived };
}

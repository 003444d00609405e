import * as path from 'node:path';
import {
  CodeLensRefreshRequest,
  InlayHintRefreshRequest,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  MessageType,
  ShowMessageNotification,
  TextDocuments,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { normalizeSettings, type FolderSettings } from '../../../shared/workspace/settings';
import { visibleControls } from '../../../shared/util/escape';
import { diskApplications } from '../host/route-file';
import { initializeResult } from './capabilities';
import { registerCodeActions } from './code-actions';
import { CompletionItems, completionShape } from './completion-items';
import { registerCustomRequests } from './custom-requests';
import { DiagnosticsPublisher } from './diagnostics-publisher';
import { DocumentStates } from './document-states';
import type { ServerEvent } from './events';
import { registerFeatures } from './features';
import { registerHeartbeat } from './heartbeat';
import { IdleWork } from './idle-work';
import { registerIndexStats } from './index-stats';
import { MainLoop } from './main-loop';
import { NameChoicesCache } from './name-choices-cache';
import { RequestPrimer } from './request-primer';
import { OutlineCache } from './outline-cache';
import { registerOutlineFeatures } from './outline-features';
import { workspaceFoldersProblem } from './param-checks';
import { ProtocolEdge } from './protocol-edge';
import { RequestTimings, RequestTimingsRequest } from './request-timings';
import { RouteService } from './route-service';
import { Scheduler } from './scheduler';
import type { ServerContext, Tuning } from './server-context';
import { registerTestUrl } from './test-url';
import { uriToPath } from './uris';
import { WorkspaceFolders } from './workspace-folders';
import { WorkspaceIndex } from './workspace-index';
import { registerWorkspaceRoutes, ROUTES_CHANGED_NOTIFICATION, WorkspaceRoutes } from './workspace-routes';

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

export interface RunningServer {
  /** Whether the client asked for shutdown (then leaving is a clean exit). */
  shutdownReceived(): boolean;
}

/** A file as the server's messages show it: relative to the workspace folder holding it, else whole. */
function shownInWorkspace(index: WorkspaceIndex, file: string): string {
  const folder = index.folderOf(file);
  return folder ? path.relative(folder.path, file) || file : file;
}

/** How long idle work (building what requests read) runs before a request gets its turn. */
const IDLE_SLICE_MS = 2;
/** Idle work waits for a pause in typing this long (keystrokes come every 100–200 ms). */
const IDLE_QUIET_MS = 300;

/**
 * Wires the engine to an LSP connection; only this layer knows LSP. The handlers here convert:
 * what the client says becomes an event for the main loop (main-loop.ts), and requests are
 * answered from the state the loop keeps (features.ts and the other register* modules).
 */
export function startServer(rawConnection: Connection, options: ServerOptions = {}): RunningServer {
  // Every handler below is registered through the edge: what the client sends is checked first.
  const edge = new ProtocolEdge((message) => log(message));
  const connection = edge.guard(rawConnection);
  const documents = new TextDocuments(TextDocument);
  const capabilities = { configuration: false, configurationRegistration: false, watchRegistration: false, progress: false, workspaceFolders: false, analysisTiming: false, codeLensRefresh: false, inlayHintRefresh: false };
  const folders = new WorkspaceFolders(
    (scopeUri) => (capabilities.configuration ? connection.workspace.getConfiguration({ scopeUri, section: 'ciRoutes' }) : Promise.resolve({})),
    // A notification, not a request: nothing waits for (or fails on) the client's answer.
    (message) => void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message }),
  );
  // One application model for every feature: the index reads applications as the documents do.
  // Its messages name files from the workspace folder holding them.
  // (The index is made just below; it is asked only once files are read.)
  const service = new RouteService(diskApplications((file) => shownInWorkspace(index, file)));
  const index = new WorkspaceIndex(() => folders.list, (message) => log(message), service, undefined, service.applications);
  const tuning: Tuning = { debounceMs: options.debounceMs ?? 150, earlyFindingsAfterMs: options.earlyFindingsAfterMs ?? 500, supportsOutline: false };

  // Log lines name workspace files and quote settings: one line each, no control raw.
  const log = (message: string) => connection.console.log(`[ci-routes] ${visibleControls(message)}`);
  /** A failure in the log: the trace's lines indented under it, so no text in them reads as a line of the log's own. */
  const logFailure = (what: string, e: unknown) =>
    connection.console.error(`[ci-routes] ${visibleControls(what)} failed: ${String((e as Error)?.stack ?? e).split('\n').map(visibleControls).join('\n    ')}`);

  const scheduler = new Scheduler((event) => loop.handle(event));
  const workspaceRoutes = new WorkspaceRoutes({ index, service, indexed: () => ctx.states.indexReady });
  const ctx: ServerContext = {
    documents,
    service,
    index,
    scheduler,
    publisher: new DiagnosticsPublisher((params) => void connection.sendDiagnostics(params)),
    states: new DocumentStates(),
    idle: new IdleWork(IDLE_SLICE_MS, () => scheduler.busy(), (uri, e) => logFailure(`preparing requests on ${uri}`, e), IDLE_QUIET_MS),
    outlines: new OutlineCache(),
    nameChoices: new NameChoicesCache(),
    primer: new RequestPrimer(),
    tuning,
    settingsFor: (file: string): FolderSettings => index.folderOf(file)?.settings ?? normalizeSettings({}).settings,
    log,
    logFailure,
    analysisTiming: (params) => void (capabilities.analysisTiming && connection.sendNotification('ciRoutes/analysisTiming', params)),
    // Only to a client that asked for the routes (the routes explorer): others do not know the notification (lsp-mode warns of it).
    routesChanged: () => void (workspaceRoutes.asked && connection.sendNotification(ROUTES_CHANGED_NOTIFICATION)),
  };
  const loop = new MainLoop(ctx, folders, options.watchedFilesQuietMs);
  const handle = (event: ServerEvent) => loop.handle(event);
  const completionItems = new CompletionItems();
  const requestTimings = new RequestTimings();

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const caps = params.capabilities;
    capabilities.configuration = Boolean(caps.workspace?.configuration);
    // Registered only where the client says it takes the registration: Eglot warns of any other.
    capabilities.configurationRegistration = Boolean(caps.workspace?.didChangeConfiguration?.dynamicRegistration);
    capabilities.watchRegistration = Boolean(caps.workspace?.didChangeWatchedFiles?.dynamicRegistration);
    capabilities.progress = Boolean(caps.window?.workDoneProgress);
    capabilities.workspaceFolders = Boolean(caps.workspace?.workspaceFolders);
    capabilities.codeLensRefresh = Boolean(caps.workspace?.codeLens?.refreshSupport);
    capabilities.inlayHintRefresh = Boolean(caps.workspace?.inlayHint?.refreshSupport);
    tuning.supportsOutline = Boolean(caps.textDocument?.documentSymbol);
    completionItems.useShape(completionShape(caps));
    const init = (params.initializationOptions ?? {}) as { debounceMs?: unknown; earlyFindingsAfterMs?: unknown; requestTimings?: unknown; analysisTiming?: unknown; evaluationBudgetBytes?: unknown; watchedFilesQuietMs?: unknown };
    if (typeof init.evaluationBudgetBytes === 'number' && init.evaluationBudgetBytes >= 0) index.setEvaluationBudget(init.evaluationBudgetBytes);
    if (typeof init.watchedFilesQuietMs === 'number' && init.watchedFilesQuietMs >= 0) loop.watched.quietMs = init.watchedFilesQuietMs;
    requestTimings.enabled = init.requestTimings === true;
    capabilities.analysisTiming = init.analysisTiming === true;
    if (typeof init.debounceMs === 'number' && init.debounceMs >= 0) tuning.debounceMs = init.debounceMs;
    if (typeof init.earlyFindingsAfterMs === 'number' && init.earlyFindingsAfterMs >= 0) tuning.earlyFindingsAfterMs = init.earlyFindingsAfterMs;
    folders.reset(params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : []));
    return initializeResult(capabilities.analysisTiming);
  });

  connection.onInitialized(async () => {
    if (capabilities.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        if (edge.refuse('workspace/didChangeWorkspaceFolders', workspaceFoldersProblem(e))) return;
        handle({ kind: 'workspaceFoldersChanged', added: e.added, removed: e.removed });
      });
    }
    if (capabilities.configuration && capabilities.configurationRegistration) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'ciRoutes' });
    if (capabilities.watchRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: '**/*.php' }, { globPattern: '**/composer.json' }],
      });
    }
    await folders.refresh();
    const progress = capabilities.progress ? await connection.window.createWorkDoneProgress() : undefined;
    progress?.begin('CI Routes: indexing route files', 0, 'scanning', false);
    const started = Date.now();
    const count = await index.scan({
      report: (pct, msg) => progress?.report(pct, msg),
      isCancelled: () => false,
    });
    progress?.done();
    handle({ kind: 'indexed', routeFiles: count, ms: Date.now() - started, first: true });
  });

  connection.onDidChangeConfiguration(async () => {
    await folders.refresh();
    handle({ kind: 'configurationChanged' });
    // Lenses and hints shown stay until asked for again: `ciRoutes.codeLens.enabled` and the like take effect now.
    if (capabilities.codeLensRefresh) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
    if (capabilities.inlayHintRefresh) void connection.sendRequest(InlayHintRefreshRequest.type).catch(() => undefined);
  });
  connection.onDidChangeWatchedFiles((params) => {
    const changes = params.changes.flatMap((c) => {
      const file = uriToPath(c.uri);
      return file ? [{ file, uri: c.uri, type: c.type }] : [];
    });
    handle({ kind: 'watchedFilesChanged', changes });
  });
  documents.onDidOpen((e) => handle({ kind: 'documentOpened', doc: e.document }));
  documents.onDidChangeContent((e) => handle({ kind: 'documentChanged', doc: e.document }));
  documents.onDidClose((e) => handle({ kind: 'documentClosed', doc: e.document }));
  documents.onDidSave((e) => handle({ kind: 'documentSaved', doc: e.document }));

  let shutdownReceived = false;
  connection.onShutdown(() => {
    shutdownReceived = true;
    handle({ kind: 'shutdown' });
  });

  const ensureAnalysed = (doc: TextDocument) => handle({ kind: 'requestReceived', doc });
  const timed = requestTimings.timing(connection);
  registerFeatures(ctx.primer.capture(timed), { documents, service, index, uriToPath, ensureAnalysed, settingsFor: ctx.settingsFor, log }, ctx.nameChoices, completionItems);
  registerCustomRequests(connection, { documents, service, index, uriToPath, ensureAnalysed });
  registerTestUrl(connection, { documents, service, ensureAnalysed, settingsFor: (uri) => ctx.settingsFor(uriToPath(uri) ?? ''), uriToPath });
  registerOutlineFeatures(timed, { documents, service, index, uriToPath, ensureAnalysed, settingsFor: ctx.settingsFor, log }, ctx.outlines);
  registerCodeActions(connection, { documents, service, uriToPath, log });
  connection.onRequest(RequestTimingsRequest, () => requestTimings.take());
  registerIndexStats(connection, index);
  registerWorkspaceRoutes(connection, workspaceRoutes);
  registerHeartbeat(connection);

  documents.listen(connection);
  connection.listen();
  return { shutdownReceived: () => shutdownReceived };
}

import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { moduleOfRouteFile } from '../../../shared/app/layout';
import { namedLookupsMayChange } from '../../../shared/analysis/model/names';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import type { Steps } from '../../../shared/util/steps';
import { DiskChanges } from './disk-changes';
import { ModuleMainReads } from './module-main-reads';
import type { ServerEvent } from './events';
import { describeIndexStats } from './index-stats';
import { RouteAnalysis } from './route-analysis';
import { deferMs, type ServerContext } from './server-context';
import { UsagePublisher } from './usage-publisher';
import { uriToPath } from './uris';
import { WatchedChanges } from './watched-changes';
import type { WorkspaceFolders } from './workspace-folders';
import { withThousands } from '../../../shared/util/without-icu';

/**
 * The server's reactions, one per event (see ServerEvent). Each runs to its end on the event
 * loop; what it leaves for later goes through the scheduler and comes back as another event.
 */
export class MainLoop {
  private readonly analysis: RouteAnalysis;
  private readonly usages: UsagePublisher;
  private readonly disk: DiskChanges;
  readonly watched: WatchedChanges;
  /** Route names added or removed since the last namesDue ('all': every file's names are to be checked again). */
  private readonly pendingNames = new Set<string>();
  private allNamesPending = false;
  /** The document whose version changed the names (it is analysed anyway). */
  private namesFrom = '';

  constructor(
    private readonly ctx: ServerContext,
    private readonly folders: WorkspaceFolders,
    watchedFilesQuietMs?: number,
  ) {
    this.usages = new UsagePublisher(ctx);
    this.analysis = new RouteAnalysis(ctx, this.usages, (changed, from) => this.namesChanged(changed, from));
    this.disk = new DiskChanges(ctx);
    this.watched = new WatchedChanges(
      (change) => this.disk.follow(change),
      (summary) => this.handle({ kind: 'watchedFilesFollowed', summary }),
      (e) => ctx.logFailure(`following a change on disk`, e),
      watchedFilesQuietMs,
    );
    const { service, index, scheduler, tuning } = ctx;
    service.moduleKeys = index.moduleKeys;
    service.logUnchecked = (message) => ctx.log(message);
    index.moduleKeys.onChange = (file) => {
      const appDir = service.applications.applicationDirOf(file);
      if (appDir !== undefined) scheduler.defer({ kind: 'moduleKeysDue', appDir }, deferMs(tuning));
    };
    service.mainRoutesOf = (appDir) => {
      const main = path.join(appDir, 'config', 'routes.php');
      const input = index.routeFileInputs((f) => f === main)[0];
      return input && { file: main, text: input.text, evaluation: input.evaluation };
    };
    // Until the first scan ends, a main route file may exist that the index has not read.
    service.mainRoutesPending = () => !ctx.states.indexReady;
    index.onMainRoutes = (appDir) => scheduler.defer({ kind: 'mainRoutesDue', appDir }, deferMs(tuning));
    // Once typing pauses, and once for a burst of changes (an edit, a scan, a checkout on disk).
    index.onRouteFileChanged = () => scheduler.defer({ kind: 'routesChangedDue' }, deferMs(tuning));
  }

  handle(event: ServerEvent): void {
    const { ctx } = this;
    switch (event.kind) {
      case 'documentOpened': {
        ctx.states.opened(event.doc);
        // Nothing is read for a file outside every workspace folder: the read fence is those folders.
        const file = uriToPath(event.doc.uri);
        const folder = file ? ctx.index.folderOf(file) : undefined;
        if (file && !folder) ctx.log(`${file} lies outside the workspace folders: it is analysed from its text alone (no constants.php, controllers or Route.php)`);
        // Under its folder's settings once the client has given them (see whenSettingsRead), if still open.
        const doc = event.doc;
        this.folders.whenSettingsRead(folder?.path, () => {
          if (ctx.documents.get(doc.uri) === doc) this.analyseAfter(doc, 0);
        });
        return;
      }
      case 'documentChanged':
        if (ctx.states.isOpening(event.doc)) return; // the open event analyses
        ctx.idle.cancel(event.doc.uri);
        this.analyseAfter(event.doc, ctx.tuning.debounceMs);
        return;
      case 'documentClosed':
        return this.closed(event.doc);
      case 'documentSaved':
        return;
      case 'requestReceived':
        return this.ensureEvaluated(event.doc);
      case 'watchedFilesChanged':
        return this.watched.add(event.changes);
      case 'watchedFilesFollowed': {
        const { summary } = event;
        const routeFilesRead = summary.routeFilesRead + this.disk.includersOfChanges();
        ctx.log(`followed ${withThousands(summary.events)} change event${summary.events === 1 ? '' : 's'} on disk: ${summary.files} file(s), ${routeFilesRead} route file${routeFilesRead === 1 ? '' : 's'} read again`);
        this.reanalyseOpen();
        this.usages.republish();
        return;
      }
      case 'workspaceFoldersChanged':
        this.folders.change(event.added, event.removed);
        void this.folders
          .refresh()
          .then(() => ctx.index.scan({ report: () => undefined, isCancelled: () => false }))
          .then((count) => this.handle({ kind: 'indexed', routeFiles: count, ms: 0, first: false }));
        return;
      case 'configurationChanged':
        ctx.service.invalidateApp();
        return this.reanalyseOpen();
      case 'indexed':
        if (event.first) {
          ctx.states.indexReady = true;
          this.usages.republish();
          ctx.log(`indexed ${event.routeFiles} route file(s) in ${event.ms} ms`);
          ctx.log(describeIndexStats(ctx.index.stats()));
        }
        this.reanalyseOpen();
        return this.primeRouteFiles();
      case 'shutdown':
        ctx.scheduler.clear();
        ctx.idle.clear();
        return this.watched.clear();
      case 'debounceElapsed':
        return ctx.scheduler.enqueue(event.uri);
      case 'analysisTurn':
        return this.analysisTurn(event.uri);
      case 'namesDue':
        return this.namesDue();
      case 'moduleKeysDue':
        // A module routes file's keys changed: its application's open main route files' targets into that module may be decided otherwise.
        return this.restartWhere((file) => moduleOfRouteFile(file) === undefined && ctx.service.applications.applicationDirOf(file) === event.appDir);
      case 'routesChangedDue':
        return ctx.routesChanged();
      case 'mainRoutesDue':
        return this.mainRoutesChanged(event.appDir);
    }
  }

  /** The document is analysed after `delay` (ms; none: now), unless a newer event comes first. */
  private analyseAfter(doc: TextDocument, delay: number): void {
    if (delay > 0) return this.ctx.scheduler.debounce(doc.uri, delay);
    this.ctx.scheduler.cancelDebounce(doc.uri);
    this.analysis.start(doc);
  }

  /** One document's turn in the backlog: a slice of its analysis, or the analysis of its newest version. */
  private analysisTurn(uri: string): void {
    const { documents, states, scheduler } = this.ctx;
    const latest = documents.get(uri);
    const job = states.job(uri);
    if (!latest) states.cancelJob(uri);
    else if (job && job.version === latest.version) this.analysis.runSlice(job);
    // The version it was analysing is gone; the new one waits for typing to pause.
    else if (job && scheduler.debouncing(uri)) states.cancelJob(uri);
    else this.analysis.start(latest);
  }

  private closed(doc: TextDocument): void {
    const { scheduler, states, publisher, idle, service, index } = this.ctx;
    scheduler.cancelDebounce(doc.uri);
    idle.cancel(doc.uri);
    // The file's evaluator goes back to the index, which reads the file on disk with it next.
    states.closed(doc.uri);
    publisher.forget(doc.uri);
    service.close(doc.uri);
    const file = uriToPath(doc.uri);
    if (file && index.isRouteFile(file)) {
      index.updateRouteFile(file);
      publisher.publish(doc.uri, undefined, []);
    } else if (file) {
      // Back to the file on disk: its usages stay checked, as for any workspace file.
      index.updatePhpFile(file);
      this.usages.publish(file);
    }
  }

  /**
   * Before a request about a document: its current version evaluated. For a route file the
   * checks and the diagnostics follow when typing pauses (the pending debounce), so the request
   * waits for the evaluation alone, never for the checks (the slow part of an analysis on large
   * files), and a burst of edits and requests costs one analysis, of the version typing stopped at.
   */
  private ensureEvaluated(doc: TextDocument): void {
    const { service, index, scheduler } = this.ctx;
    const last = service.last(doc.uri);
    if (last && last.version === doc.version) return;
    const file = uriToPath(doc.uri);
    if (!file || !index.isRouteFile(file)) {
      // A PHP file's usages are published once per version, not once per request.
      if (!this.usages.current(doc)) this.analysis.start(doc);
      return;
    }
    this.analysis.evaluate(doc, file);
    // A version no analysis is waiting for still gets one, in the background (under the folder's own settings).
    this.folders.whenSettingsRead(index.folderOf(file)?.path, () => {
      if (!scheduler.debouncing(doc.uri)) scheduler.enqueue(doc.uri);
    });
  }

  /**
   * Route names were added or removed: once typing pauses, the files that use one of them are
   * published again and the other open route files re-analysed (coalesced: a burst of edits costs
   * one pass, and only over the files concerned).
   */
  private namesChanged(changed: ReadonlySet<string> | 'all', from: string): void {
    if (changed === 'all') this.allNamesPending = true;
    else for (const n of changed) this.pendingNames.add(n);
    this.namesFrom = from;
    this.ctx.scheduler.defer({ kind: 'namesDue' }, deferMs(this.ctx.tuning));
  }

  private namesDue(): void {
    const names = this.allNamesPending ? undefined : new Set(this.pendingNames);
    this.pendingNames.clear();
    this.allNamesPending = false;
    const known = this.ctx.index.knownNames();
    for (const other of this.ctx.documents.all()) {
      if (other.uri === this.namesFrom || !other.getText().includes('named')) continue;
      if (names && !this.namesMayMatter(other, names, known)) continue;
      this.restart(other.uri);
    }
    this.usages.republish(names);
  }

  /**
   * Whether an open document's analysis may change with the route names `changed`: a route file
   * analysed at its current version only if one of its named() lookups may be judged otherwise
   * (see namedLookupsMayChange); any other document, yes.
   */
  private namesMayMatter(doc: TextDocument, changed: ReadonlySet<string>, known: ReadonlySet<string>): boolean {
    const file = uriToPath(doc.uri);
    const last = this.ctx.service.last(doc.uri);
    if (!file || !this.ctx.index.isRouteFile(file) || !last || last.version !== doc.version || last.skipped) return true;
    return namedLookupsMayChange(last.evaluation.calls ?? [], changed, known);
  }

  private reanalyseOpen(): void {
    for (const doc of this.ctx.documents.all()) {
      this.ctx.scheduler.cancelDebounce(doc.uri);
      this.restart(doc.uri);
    }
  }

  /**
   * An application's main route file changed: its module route files' routes are read after the
   * main routes. The open ones are analysed again where what they read of them changed.
   */
  private mainRoutesChanged(appDir: string): void {
    const { documents, index, service } = this.ctx;
    const current = service.mainRoutesOf?.(appDir);
    const reads = current && new ModuleMainReads(current);
    for (const doc of documents.all()) {
      const file = uriToPath(doc.uri);
      const module = file === undefined ? undefined : moduleOfRouteFile(file);
      if (module === undefined || !index.isRouteFile(file!) || service.applications.applicationDirOf(file!) !== appDir) continue;
      const last = service.last(doc.uri);
      if (current && reads!.holds(last?.version === doc.version ? last : undefined, module)) service.holdsAgainst(doc.uri, current);
      else this.restart(doc.uri);
    }
  }

  /** The open route files `which` accepts are analysed again. */
  private restartWhere(which: (file: string) => boolean): void {
    for (const doc of this.ctx.documents.all()) {
      const file = uriToPath(doc.uri);
      if (file && this.ctx.index.isRouteFile(file) && which(file)) this.restart(doc.uri);
    }
  }

  /** Analyses the document again from the start (settings, names or controllers changed). */
  private restart(uri: string): void {
    this.ctx.states.cancelJob(uri);
    this.ctx.scheduler.enqueue(uri);
  }

  /**
   * Route files the index read and no editor has open are analysed when the server is idle, and
   * what the first requests read is built, all for the memos: opening one then publishes its
   * diagnostics at once instead of after the first analysis (seconds for a large file).
   */
  private primeRouteFiles(): void {
    const { index, documents, service, idle, log } = this.ctx;
    const prepare = (file: string, evaluation: FileEvaluation, text: string) => this.analysis.prepareRequests(file, evaluation, text);
    // Only the evaluations the index holds: the others were let go to bound its memory.
    for (const { file, text, evaluation } of index.heldRouteFileInputs()) {
      const uri = pathToFileURL(file).toString();
      if (documents.get(uri)) continue;
      const names = index.knownNames();
      function* prime(): Steps<void> {
        yield* service.checkSteps(file, text, evaluation, names);
        yield* prepare(file, evaluation, text);
      }
      function* primeAndSay(): Steps<void> {
        if (yield* service.whileIndexed(file, evaluation, prime())) log(`checked ${file} ahead of its opening`);
      }
      idle.start(uri, primeAndSay());
    }
  }
}

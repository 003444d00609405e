import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import type { Steps } from '../../../shared/util/steps';
import { toDiagnostic } from './convert';
import { boundedDiagnostics } from './diagnostic-caps';
import type { AnalysisJob } from './document-states';
import type { AnalysedRouteFile, SeverityFinding } from './route-service';
import type { ServerContext } from './server-context';
import type { UsagePublisher } from './usage-publisher';
import { uriToPath } from './uris';
import { warmUpSteps } from './warm-up';

/**
 * How long a background analysis runs before requests get their turn: a request waits at most
 * about this long for the checks, however long they take in all.
 */
const SLICE_MS = 10;

/** Route names changed ('all': they became complete or partial), as the index learnt a version. */
export type NamesChanged = (changed: ReadonlySet<string> | 'all', from: string) => void;

/** A document's analysis, from its evaluation to its diagnostics and what requests read after. */
export class RouteAnalysis {
  constructor(
    private readonly ctx: ServerContext,
    private readonly usages: UsagePublisher,
    private readonly namesChanged: NamesChanged,
  ) {}

  /** Starts analysing the document's version (a route file's in slices: the first now, the rest in later turns). */
  start(doc: TextDocument): void {
    const { index, service, states, idle, settingsFor, tuning } = this.ctx;
    const file = uriToPath(doc.uri);
    if (!file) return;
    if (!index.isRouteFile(file)) {
      this.usages.publish(file, doc);
      return;
    }
    states.cancelJob(doc.uri);
    idle.cancel(doc.uri);
    const text = doc.getText();
    const opening = !states.wasAnalysed(doc.uri);
    // A large file's first analysis spends most of its time in the inclusion checks: what the
    // others found is shown meanwhile (later analyses are incremental, and showing less would flicker).
    const started = performance.now();
    const version = doc.version;
    const early = opening
      ? (findings: SeverityFinding[]) => {
          if (performance.now() - started >= tuning.earlyFindingsAfterMs) this.publishEarly(doc, version, file, findings);
        }
      : undefined;
    // Evaluated (and learnt by the index) before the checks start: requests answered between the
    // slices read this version's text with its evaluation, never the older text with records
    // this evaluation moved.
    const last = service.last(doc.uri);
    if (!last || last.version !== version) this.evaluate(doc, file);
    const names = states.indexReady && index.namesComplete() ? index.knownNames() : 'pending';
    const analysis = service.analysisSteps(doc.uri, file, text, version, settingsFor(file), names, early);
    const job: AnalysisJob = { doc, version, file, steps: opening ? this.openingAnalysis(doc.uri, file, text, analysis) : analysis };
    states.startJob(job);
    this.runSlice(job);
  }

  /**
   * The document's current version evaluated, without the checks (what a request reads), and
   * learnt by the workspace index with its text.
   */
  evaluate(doc: TextDocument, file: string): void {
    const { service, settingsFor } = this.ctx;
    try {
      service.evaluate(doc.uri, file, doc.getText(), doc.version, settingsFor(file));
      // The new evaluation may share records with the one the index holds (replay moves their
      // places to this text): the index takes this version at once, text and evaluation together.
      const evaluated = service.last(doc.uri);
      if (evaluated && evaluated.version === doc.version && !evaluated.skipped) this.learnRouteFile(doc, file, evaluated.evaluation);
    } catch (e) {
      this.ctx.logFailure(`evaluation of ${doc.uri}`, e);
    }
  }

  /** Runs a job for up to SLICE_MS; publishes when it is done, else queues the rest. */
  runSlice(job: AnalysisJob): void {
    const { states, scheduler, logFailure } = this.ctx;
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
      states.endJob(job);
      return;
    }
    if (!result) {
      scheduler.enqueue(job.doc.uri);
      return;
    }
    states.endJob(job);
    try {
      this.publish(job.doc, job.version, job.file, result);
    } catch (e) {
      logFailure(`publishing the analysis of ${job.doc.uri}`, e);
    }
  }

  /** What the first requests after an analysis read (see warmUpSteps). */
  prepareRequests(file: string, evaluation: FileEvaluation, text: string): Steps<void> {
    const { outlines, tuning, settingsFor } = this.ctx;
    return warmUpSteps(text, evaluation, outlines, tuning.supportsOutline ? settingsFor(file).maxOutlineSymbols : undefined);
  }

  /**
   * The workspace index takes a version of an open route file with its evaluation: the two
   * must go together (a request about another file reads the declarations' places in that text).
   */
  private learnRouteFile(doc: TextDocument, file: string, evaluation: FileEvaluation): void {
    const { index } = this.ctx;
    const wasComplete = index.namesComplete();
    const changed = index.recordRouteNames(file, doc.getText(), evaluation);
    // Names changed: files using them may gain or lose unknown-route-name findings; every file
    // may when the names became complete or partial (an analysis limit reached or left).
    if (index.namesComplete() !== wasComplete) this.namesChanged('all', doc.uri);
    else if (changed.size) this.namesChanged(changed, doc.uri);
  }

  /**
   * A document's first analysis (it was just opened) also prepares what requests read before it
   * publishes, and the server's first one primes the requests (see RequestPrimer): opening a huge
   * file is slow anyway, and the requests that follow it are then fast. After an edit, that work
   * waits until the server is idle.
   */
  private *openingAnalysis(uri: string, file: string, text: string, steps: Steps<AnalysedRouteFile>): Steps<AnalysedRouteFile> {
    const result = yield* steps;
    if (!result.skipped) yield* this.readyForRequests(uri, file, result, text);
    return result;
  }

  /**
   * What `named('` completes, sorted now rather than by the first completion: in this route file
   * (the workspace's names and its own), and in views and controllers (the workspace's).
   */
  private nameChoices(evaluation: FileEvaluation): void {
    this.ctx.nameChoices.for(this.ctx.index, evaluation).list();
    this.ctx.nameChoices.for(this.ctx.index, undefined).list();
  }

  /**
   * prepareRequests(), then `named('` completion's names, which the analysis may have changed;
   * the server's first time, the requests primed. Before an opening's publication, else after
   * one, when idle.
   */
  private *readyForRequests(uri: string, file: string, result: AnalysedRouteFile, text: string): Steps<void> {
    yield* this.prepareRequests(file, result.evaluation, text);
    yield;
    this.nameChoices(result.evaluation);
    if (!this.ctx.primer.done) yield* this.ctx.primer.steps(uri, text, result.evaluation);
  }

  private publish(doc: TextDocument, version: number, file: string, result: AnalysedRouteFile): void {
    const { documents, states, publisher, idle, log } = this.ctx;
    // A newer version arrived while analysing: its own analysis will publish.
    const current = documents.get(doc.uri);
    if (!current || current.version !== version) return;
    const wasOverLimit = states.published(doc.uri, result.skipped !== undefined);
    // A limit hit is said once in the log (the diagnostic at the top of the file stays meanwhile).
    if (result.skipped && !wasOverLimit) log(`${file}: ${result.skipped}`);
    // The workspace index learns this version's names from the same evaluation.
    if (!result.skipped) this.learnRouteFile(doc, file, result.evaluation);
    if (!publisher.publish(doc.uri, version, this.diagnosticsOf(doc, result.findings))) return;
    if (result.timing) this.ctx.analysisTiming({ uri: doc.uri, version, ...result.timing });
    // Once the diagnostics are out, build what the first requests would otherwise build.
    if (!result.skipped) idle.start(doc.uri, this.readyForRequests(doc.uri, file, result, doc.getText()));
  }

  /** What the quick checks of a first analysis found, published while the inclusion checks run. */
  private publishEarly(doc: TextDocument, version: number, file: string, findings: SeverityFinding[]): void {
    if (this.ctx.documents.get(doc.uri)?.version !== version) return;
    if (this.ctx.publisher.publishEarly(doc.uri, version, this.diagnosticsOf(doc, findings))) this.ctx.log(`${file}: ${findings.length} finding(s) shown while the inclusion checks run`);
  }

  private diagnosticsOf(doc: TextDocument, findings: SeverityFinding[]): Diagnostic[] {
    const uriOf = (p?: string) => (p ? pathToFileURL(p).toString() : '');
    return boundedDiagnostics(doc, findings, (f) => f.severity, (f) => f.finding.span, (kept) => kept.map((f) => toDiagnostic(doc, f.finding, f.severity, uriOf)));
  }
}

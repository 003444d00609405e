import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Steps } from '../../../shared/util/steps';
import type { AnalysedRouteFile } from './route-service';

/** A route file's analysis under way: it runs in slices, so that requests are answered in between. */
export interface AnalysisJob {
  readonly doc: TextDocument;
  /** The version analysed (the document object itself moves on with edits). */
  readonly version: number;
  readonly file: string;
  readonly steps: Steps<AnalysedRouteFile>;
}

/** What the server remembers of each open document between events. */
export class DocumentStates {
  /** False until the first workspace scan is done: names from other files are not known yet. */
  indexReady = false;
  /** The version each document was opened at: its content event is the open itself. */
  private readonly openedAt = new Map<string, number>();
  /** Route documents whose analysis was published at least once (the next ones are edits). */
  private readonly analysed = new Set<string>();
  /** Open documents currently not analysed because of ciRoutes.maxFileSize. */
  private readonly overLimit = new Set<string>();
  private readonly jobs = new Map<string, AnalysisJob>();

  opened(doc: TextDocument): void {
    this.openedAt.set(doc.uri, doc.version);
  }

  /** Whether this content event is the open itself (the open event analyses). */
  isOpening(doc: TextDocument): boolean {
    return this.openedAt.get(doc.uri) === doc.version;
  }

  wasAnalysed(uri: string): boolean {
    return this.analysed.has(uri);
  }

  /** An analysis was published; returns whether the document was over the size limit before. */
  published(uri: string, overLimit: boolean): boolean {
    const was = this.overLimit.has(uri);
    this.analysed.add(uri);
    if (overLimit) this.overLimit.add(uri);
    else this.overLimit.delete(uri);
    return was;
  }

  job(uri: string): AnalysisJob | undefined {
    return this.jobs.get(uri);
  }

  startJob(job: AnalysisJob): void {
    this.cancelJob(job.doc.uri);
    this.jobs.set(job.doc.uri, job);
  }

  /** The job ended (done or failed): forgotten, unless a newer one replaced it. */
  endJob(job: AnalysisJob): void {
    if (this.jobs.get(job.doc.uri) === job) this.jobs.delete(job.doc.uri);
  }

  /** Stops the analysis under way (its inputs changed); what its checks decided stays in their memos. */
  cancelJob(uri: string): void {
    const job = this.jobs.get(uri);
    if (!job) return;
    this.jobs.delete(uri);
    job.steps.return(undefined as never);
  }

  closed(uri: string): void {
    this.openedAt.delete(uri);
    this.analysed.delete(uri);
    this.overLimit.delete(uri);
    this.cancelJob(uri);
  }
}

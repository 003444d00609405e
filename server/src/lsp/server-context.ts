import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FolderSettings } from '../../../shared/workspace/settings';
import type { DiagnosticsPublisher } from './diagnostics-publisher';
import type { DocumentStates } from './document-states';
import type { IdleWork } from './idle-work';
import type { NameChoicesCache } from './name-choices-cache';
import type { OutlineCache } from './outline-cache';
import type { RequestPrimer } from './request-primer';
import type { RouteService } from './route-service';
import type { Scheduler } from './scheduler';
import type { WorkspaceIndex } from './workspace-index';

/** What the client and the options decided at initialization. */
export interface Tuning {
  /** Delay before re-analysing after an edit (ms). */
  debounceMs: number;
  /** A first analysis publishes its quick checks' findings once it has taken this long (ms). */
  earlyFindingsAfterMs: number;
  /** The client shows outlines: they are built ahead of its requests. */
  supportsOutline: boolean;
}

/** The parts of the server the main loop and its helpers share (each owns its own state). */
export interface ServerContext {
  readonly documents: TextDocuments<TextDocument>;
  readonly service: RouteService;
  readonly index: WorkspaceIndex;
  readonly scheduler: Scheduler;
  readonly publisher: DiagnosticsPublisher;
  readonly states: DocumentStates;
  readonly idle: IdleWork;
  readonly outlines: OutlineCache;
  readonly nameChoices: NameChoicesCache;
  /** Runs the first hover, completion and definition before the user asks (see RequestPrimer). */
  readonly primer: RequestPrimer;
  readonly tuning: Tuning;
  settingsFor(file: string): FolderSettings;
  /** A line in the server's log. */
  log(message: string): void;
  /** A failure in the log, with its trace. */
  logFailure(what: string, e: unknown): void;
  /** Server-side cost of an analysis, for benchmarks and the curious (clients may ignore it). */
  analysisTiming(params: object): void;
  /** Tells the client that route files' routes changed (`ciRoutes/routesChanged`: the routes explorer asks again). */
  routesChanged(): void;
}

/** Deferred work waits for typing to pause, and never less than this (ms). */
export function deferMs(tuning: Tuning): number {
  return Math.max(tuning.debounceMs, 50);
}

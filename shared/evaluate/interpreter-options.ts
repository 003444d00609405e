import type { StatementAnchor } from '../runtime/call-site';
import type { IncludedFile } from '../php/ast';
import type { MethodMask } from '../runtime/methods';
import type { Dialect, RouteLibrary } from '../library/route-library';
import type { PhpVersion } from '../runtime/php-version';
import type { PhpFatal } from '../runtime/convert';
import type { EnvironmentRoutes, IncludeFiles } from './includes';
import type { StatementParser } from '../php/parse';
import type { ReplayCache } from './replay';
import type { LibrarySnapshot } from '../library/library-snapshot';
import type { RecentOverlaps } from '../library/mapped-routes';
import type { RecentTables } from '../library/record-table';
import type { Checkpoint } from './checkpoint';
import type { EvalProblem, OrderGroup, RecoveredFatal, RouteCall } from './interpreter-state';
import type { PhpArray, PhpClosure, Unknown, Value } from '../runtime/values';

export interface InterpreterOptions {
  dialect: Dialect;
  /** Constants known before the file runs (from config/constants.php or the user). */
  constants: ReadonlyMap<string, Value>;
  /** Evaluation steps allowed before giving up. */
  maxSteps: number;
  /** Wall-clock milliseconds one run (or one closure call from outside) may take (unbounded when absent). */
  maxMilliseconds?: number;
  /** The clock the time budget reads (performance.now() by default; tests pass their own). */
  clock?: () => number;
  /** When the evaluation began, by that clock, if before this run (the methods evaluated one by one share one budget). */
  startedAt?: number;
  /** Routes one request method may hold before giving up. */
  maxRoutes?: number;
  /** File name for PHP-style messages. */
  file: string;
  /** Methods to evaluate together. */
  mask: MethodMask;
  /** Effects of statements from an earlier evaluation of the same document, to replay. */
  replay?: ReplayCache;
  /** Start from this state, before the statement at `resume.at`, instead of running the statements above it. */
  resume?: Checkpoint;
  /** Take a checkpoint before the statement at this index, if the state there can be copied. */
  checkpointAt?: number;
  onCheckpoint?: (checkpoint: Checkpoint) => void;
  /**
   * Go on past a top-level statement that throws, as if it were skipped (see recoverFrom), instead
   * of stopping there as PHP does: what an editor shows, so that one error hides nothing else.
   */
  recover?: boolean;
  /** The PHP version whose semantics apply where they differ (default: DEFAULT_PHP_VERSION). */
  phpVersion?: PhpVersion;
  /**
   * Whether a constant that nothing read defines is undefined (PHP 8: an Error; PHP 7: its name
   * as a string, with a warning), as for a file run alone; otherwise (an application's file) it
   * may be defined where the analysis does not look, and its value is unknown.
   */
  constantsComplete?: boolean;
  /** The Route library's state when the file starts: what files included before it in the same request left (see library/library-carry.ts). */
  libraryStart?: LibrarySnapshot;
  /** The files include/require and glob() read (see includes.ts); without it, includes are reported and not evaluated. */
  includes?: IncludeFiles;
  /** The document's parser: the files it includes are parsed with its caches (see StatementParser.parseIncluded). */
  parser?: StatementParser;
  /** The environment's route file run after this one (see EvaluateOptions.environmentRoutes). */
  environmentRoutes?: EnvironmentRoutes;
  /** Route::map()'s overlaps in the document's earlier evaluations (see DocumentState). */
  overlaps?: RecentOverlaps;
  /** The route tables of the document's earlier evaluations (see DocumentState). */
  tables?: RecentTables;
}

export interface InterpreterOutcome {
  /** `$route` at the end, per method index (undefined when it never held an array). */
  routes: (PhpArray | undefined)[];
  /** Per method: `$route` at the end when its value is not known (then `routes` is undefined). */
  routesUnknown: (Unknown | undefined)[];
  /** An uncaught PHP error that stopped the script, per method. */
  errors: (PhpFatal | undefined)[];
  /** The fatal errors the evaluation went on past (with `recover`; `errors` holds none of them). */
  recovered: readonly RecoveredFatal[];
  /** Route keys whose mutual order in the tables depends on an undecidable condition, by condition. */
  orderVaries: ReadonlyMap<string, OrderGroup>;
  warnings: string[][];
  problems: EvalProblem[];
  calls: RouteCall[];
  /** The calls of methods that store no route, and block()'s (see IN_MAIN_CALLS). */
  otherCalls: RouteCall[];
  /** A closure was passed as a `$nested` callable. */
  nestedClosure: boolean;
  library: RouteLibrary;
  steps: number;
  /** Constants after the file ran. */
  constants: Map<string, Value>;
  /** Where the replayed statements that moved since they were recorded start (see places.ts). */
  moved: ReadonlyMap<StatementAnchor, number>;
  /** Calls a closure the file created (closure routes), within what is left of the budget. */
  callClosure(closure: PhpClosure, args: Value[]): Value;
  /** The files include/require ran, in order. */
  included: readonly IncludedFile[];
  /** An include or glob() asked for files, whether or not they could be read. */
  askedForFiles: boolean;
  /**
   * The index (in the parsed file's statements) of the top-level statement the script stopped in
   * (endless loop, fatal error, exit, top-level return); undefined when it ran to the end.
   */
  stoppedAt?: number;
}

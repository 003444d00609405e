import type { Span } from '../php/ast';
import { StatementParser, type ParsedFile } from '../php/parse';
import { ALL_METHODS, REQUEST_METHODS, type MethodIndex, type MethodMask, type RequestMethod } from '../runtime/methods';
import { Diverge, type Dialect, type MethodState } from '../library/route-library';
import type { LibrarySnapshot } from '../library/library-snapshot';
import type { IncludedFile } from '../php/ast';
import type { EnvironmentRoutes, IncludeFiles } from './includes';
import { Interpreter, type EvalProblem, type InterpreterOutcome, type OrderGroup, type RouteCall } from './interpreter';
import type { ReplayCache } from './replay';
import type { PhpVersion } from '../runtime/php-version';
import { sameFunctions, sameStatement, topLevelFunctions, type Checkpoint, type FunctionDeclaration } from './checkpoint';
import { PhpArray, type PhpClosure, type Value } from '../runtime/values';
import { handOut } from './frozen-evaluations';
import { Places, type PlacedSite } from './places';
import { DocumentState } from './document-state';
import type { RecordedSite } from '../runtime/call-site';

// A 10,000-declaration file takes about 62,000 steps; an endless loop stops within ~20 ms.
export const DEFAULT_MAX_STEPS = 100_000;
/**
 * Wall-clock budget of one evaluation (and of one closure call by the URL tester). The step
 * budget, which charges size-proportional work, stops hostile code long before; this bounds
 * whatever is still slow per step, and a step budget raised in the settings.
 */
export const DEFAULT_MAX_MILLISECONDS = 5_000;

export interface EvaluateOptions {
  dialect?: Dialect;
  /** Constants defined before the file runs: config/constants.php's and the user's. */
  constants?: ReadonlyMap<string, Value>;
  maxSteps?: number;
  /** Wall-clock milliseconds the evaluation may take (default DEFAULT_MAX_MILLISECONDS; Infinity: unbounded). */
  maxMilliseconds?: number;
  /** The clock the time budget reads (tests pass their own). */
  clock?: () => number;
  /** Routes one request method may hold (default 200,000). */
  maxRoutes?: number;
  /** File name used in PHP-style messages. */
  file?: string;
  /** A parser whose per-statement cache survives between calls (editors pass one per document). */
  parser?: StatementParser;
  /** Evaluate each request method alone (the reference the shared evaluation must equal). */
  perMethod?: boolean;
  /** Statement effects from earlier evaluations of the same document (see DocumentEvaluator). */
  replay?: ReplayCache;
  /** The state of the document this is a version of (see DocumentEvaluator); a new one otherwise. */
  document?: DocumentState;
  /** A state of an earlier evaluation of the same document to start from (see evaluate/checkpoint.ts); the caller checked it applies. */
  resume?: Checkpoint;
  /** Where to take a checkpoint for the next version, given to `onCheckpoint`. */
  checkpointAt?: number;
  onCheckpoint?: (checkpoint: Checkpoint) => void;
  /**
   * The Route library's static state when the file starts, for a file included after another in
   * the same request (Bonfire's module route files: see library/library-carry.ts); a fresh library otherwise.
   */
  libraryStart?: LibrarySnapshot;
  /**
   * The files include/require and glob() read (hosts read them through their read fence). Without
   * it an include is reported, not evaluated. `file` should then be the evaluated file's path.
   */
  includes?: IncludeFiles;
  /**
   * The environment's route file (`config/<ENVIRONMENT>/routes.php`) that CodeIgniter's router
   * includes after this one, in the same scope, when it exists: read through `includes`, its
   * routes add to or replace this file's. Only for an application's main route file.
   */
  environmentRoutes?: EnvironmentRoutes;
  /**
   * Go on past a top-level statement that throws, as if it were skipped, instead of stopping as
   * PHP does: every problem of the file shows at once. The errors are then in `fatals`, not in
   * the methods' `error`, and the routes are those of the file without the failing statements.
   */
  recover?: boolean;
  /** The PHP version whose semantics apply where versions differ (default: DEFAULT_PHP_VERSION, 8.2). */
  phpVersion?: PhpVersion;
  /**
   * A constant nothing read defines is undefined, as for a file run alone (PHP 8: an Error). False
   * (the default) for an application's files: it may be defined where the analysis does not look.
   */
  constantsComplete?: boolean;
}

/** An uncaught error the evaluation went on past (see EvaluateOptions.recover). */
export interface RecoveredError extends PhpError {
  span: Span;
  /** The methods under which PHP stops there. */
  mask: MethodMask;
  /** The top-level statement skipped. */
  statement: Span;
}

export interface PhpError {
  class: string;
  message: string;
  span?: Span;
}

/** What the file does under one request method. */
export interface MethodResult {
  method: RequestMethod;
  /** `$route` when the script ended; undefined when it never held an array. */
  routes: PhpArray | undefined;
  /** `$route` when its value is not known statically (routes is then undefined), and why. */
  routesUnknown?: { reason: string; span?: Span };
  /** The uncaught error that stopped the script, or the parse error that prevented it. */
  error: PhpError | null;
  warnings: string[];
  /** The library's state at the end (routes declared, names, every record created). */
  library: MethodState;
}

export interface FileEvaluation {
  parsed: ParsedFile;
  methods: MethodResult[];
  problems: EvalProblem[];
  /**
   * The uncaught errors the evaluation went on past, in file order (with `recover`): PHP stops at
   * the first under each of its methods; what the methods hold is what the file does without them.
   */
  fatals: readonly RecoveredError[];
  /**
   * Groups of route keys whose mutual order depends on a condition that cannot be decided (a
   * branch alone orders them otherwise than the tables, which hold both: see branchOrderVaries).
   * Which comes first among a group's keys is not known; see orderVariesBetween.
   */
  orderVaries: readonly OrderGroup[];
  calls: RouteCall[];
  /** The calls of methods other than the declaring ones (prefix(), block(), named(), map(), unknown ones), in order. */
  otherCalls: RouteCall[];
  /** A closure was passed as a `$nested` callable. */
  nestedClosure: boolean;
  /** 'together' when all methods were evaluated in one pass, else 'per-method'. */
  mode: 'together' | 'per-method';
  /** Top-level statements skipped by resuming from a checkpoint, replayed from an earlier evaluation, and evaluated. */
  statements: { resumed: number; replayed: number; evaluated: number };
  steps: number;
  /** The files include/require ran, in order (each evaluation reads them again: they are inputs too). */
  included: readonly IncludedFile[];
  /** An include or glob() asked for files (read or not): a change of files on disk may change the evaluation. */
  readsFiles: boolean;
  /** Constants after the file ran (including its own define() calls). */
  constants: ReadonlyMap<string, Value>;
  /**
   * The state of the document this evaluation is a version of: shared by the successive versions
   * one DocumentEvaluator makes, so that the next evaluation and analyses build on what was found
   * for the previous one; an evaluation made alone has one of its own. Not part of the value (not
   * frozen with it): what derived data it holds, the analyses keep there (see DocumentState).
   */
  readonly lineage: DocumentState;
  /**
   * Where this evaluation's calls are in its text: records, calls and sites are shared with the
   * evaluations of earlier versions of the document and keep the place they were made at (see
   * places.ts). Read a record's or call's site through `places.site()`.
   */
  places: Places;
  /** Evaluates a closure the file created under one method (closure routes in `$route`). */
  callClosure(method: MethodIndex, closure: PhpClosure, args: Value[]): Value;
}

/**
 * The analysis limits the evaluation reached (the step budget, nesting, routes per method, a
 * statement too deep to read): what it produced is then not all the file does.
 */
export function analysisLimits(evaluation: FileEvaluation): EvalProblem[] {
  return evaluation.problems.filter((p) => p.code === 'evaluation-limit');
}

/**
 * Evaluates a route file under every request method. A pure function of (text, options): no I/O,
 * no PHP. All methods are evaluated in one pass; when their paths differ (a condition on
 * `$_SERVER['REQUEST_METHOD']`, a route that fails under one method only), each is evaluated alone.
 */
export function evaluateRouteFile(text: string, options: EvaluateOptions = {}): FileEvaluation {
  const parser = options.parser ?? new StatementParser();
  const parsed = parser.parse(text);
  return handOut(evaluateParsed(parsed, options));
}

export function evaluateParsed(parsed: ParsedFile, options: EvaluateOptions = {}): FileEvaluation {
  const startedAt = options.clock ? options.clock() : performance.now();
  const document = options.document ?? new DocumentState();
  const base = {
    dialect: options.dialect ?? 'spec',
    constants: options.constants ?? new Map<string, Value>(),
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    maxMilliseconds: options.maxMilliseconds ?? DEFAULT_MAX_MILLISECONDS,
    clock: options.clock,
    startedAt,
    maxRoutes: options.maxRoutes,
    file: options.file ?? 'routes.php',
    libraryStart: options.libraryStart,
    includes: options.includes,
    parser: options.parser,
    environmentRoutes: options.environmentRoutes,
    recover: options.recover,
    phpVersion: options.phpVersion,
    constantsComplete: options.constantsComplete,
    overlaps: document.mapOverlaps,
    tables: document.recentTables,
  };
  if (!options.perMethod) {
    try {
      const { replay, resume, checkpointAt, onCheckpoint } = options;
      const interpreter = new Interpreter(parsed, { ...base, mask: ALL_METHODS, replay, resume, checkpointAt, onCheckpoint });
      const outcome = interpreter.run();
      const evaluation = assemble(parsed, document, REQUEST_METHODS.map(() => outcome), 'together', interpreter.replayStats, replay?.placed);
      // A stop past an include may move when the included file changes: not reused.
      if (outcome.stoppedAt !== undefined && outcome.included.length === 0) stops.set(evaluation, { outcome, stoppedAt: outcome.stoppedAt, functions: topLevelFunctions(parsed), used: false });
      return evaluation;
    } catch (e) {
      if (!(e instanceof Diverge)) throw e;
    }
  }
  const interpreters = REQUEST_METHODS.map((_, m) => new Interpreter(parsed, { ...base, mask: 1 << m }));
  const outcomes = interpreters.map((i) => i.run());
  return assemble(parsed, document, outcomes, 'per-method', { resumed: 0, replayed: 0, evaluated: interpreters.reduce((n, i) => n + i.replayStats.evaluated, 0) });
}

/** How an evaluation that stopped early came about, so that the next version of the document may reuse it. */
interface Stop {
  outcome: InterpreterOutcome;
  stoppedAt: number;
  functions: readonly FunctionDeclaration[];
  /** A closure was called since (it may have changed the interpreter's state): not reused. */
  used: boolean;
}

const stops = new WeakMap<FileEvaluation, Stop>();


/**
 * `previous` again, for a new parse of the same document, when the edit cannot change it: the
 * script stopped (endless loop, fatal error, exit) in a statement the edit left where it was,
 * with everything before it unchanged and the same functions declared. An endless loop is then
 * not run again for every keystroke below it. Parse problems are the new ones. Undefined when
 * the evaluation must be done.
 */
export function reuseStopped(previous: FileEvaluation, parsed: ParsedFile): FileEvaluation | undefined {
  const stop = stops.get(previous);
  if (!stop || stop.used) return undefined;
  const before = previous.parsed.statements;
  const now = parsed.statements;
  if (now.length <= stop.stoppedAt) return undefined;
  for (let i = 0; i <= stop.stoppedAt; i++) if (!sameStatement(before[i], now[i])) return undefined;
  if (!sameFunctions(stop.functions, topLevelFunctions(parsed), true)) return undefined;
  const evaluation = assemble(parsed, previous.lineage, REQUEST_METHODS.map(() => stop.outcome), 'together', { resumed: 0, replayed: 0, evaluated: 0 });
  // It shares the interpreter with `previous`: a closure called through either ends the reuse.
  stops.set(evaluation, stop);
  return evaluation;
}

function assemble(parsed: ParsedFile, lineage: DocumentState, outcomes: InterpreterOutcome[], mode: FileEvaluation['mode'], statements: FileEvaluation['statements'], placedSites?: WeakMap<RecordedSite, PlacedSite>): FileEvaluation {
  const parseError = parsed.problems[0];
  const methods: MethodResult[] = REQUEST_METHODS.map((method, m) => {
    const o = outcomes[m];
    const fatal = o.errors[m];
    const error: PhpError | null = parseError
      ? { class: 'ParseError', message: parseError.message, span: parseError.span }
      : fatal
        ? { class: fatal.phpClass, message: fatal.phpMessage, span: fatal.span }
        : null;
    const unknown = o.routesUnknown[m];
    return { method, routes: o.routes[m], ...(unknown ? { routesUnknown: { reason: unknown.reason, span: unknown.span } } : {}), error, warnings: o.warnings[m], library: o.library.states[m] };
  });
  const unique = [...new Set(outcomes)];
  const problems: EvalProblem[] = [];
  const seen = new Set<string>();
  for (const o of unique) {
    for (const p of o.problems) {
      const key = `${p.code}:${p.span.start}:${p.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(p);
    }
  }
  const evaluation: FileEvaluation = {
    parsed,
    lineage,
    methods,
    problems,
    fatals: recoveredErrors(unique),
    orderVaries: orderGroups(unique),
    // Copied (closures the URL tester runs add to the interpreter's list); not with flatMap,
    // which takes milliseconds for the 9,000 calls of a large file.
    calls: unique.length === 1 ? unique[0].calls.slice() : ([] as RouteCall[]).concat(...unique.map((o) => o.calls)),
    otherCalls: unique.length === 1 ? unique[0].otherCalls.slice() : ([] as RouteCall[]).concat(...unique.map((o) => o.otherCalls)),
    nestedClosure: unique.some((o) => o.nestedClosure),
    mode,
    statements,
    steps: unique.reduce((n, o) => n + o.steps, 0),
    readsFiles: unique.some((o) => o.askedForFiles),
    included: unique.length === 1 ? unique[0].included : [...new Set(unique.flatMap((o) => o.included))],
    constants: outcomes[0].constants,
    places: unique.length === 1 && unique[0].moved.size > 0 ? new Places(unique[0].moved, placedSites) : Places.NONE,
    callClosure: (m, closure, args) => {
      const stop = stops.get(evaluation);
      if (stop) stop.used = true;
      return outcomes[m].callClosure(closure, args);
    },
  };
  return evaluation;
}

/** The recovered errors of the outcomes, one per place and message, with the methods of all. */
function recoveredErrors(outcomes: readonly InterpreterOutcome[]): RecoveredError[] {
  if (outcomes.every((o) => o.recovered.length === 0)) return [];
  const byKey = new Map<string, RecoveredError>();
  for (const o of outcomes) {
    for (const r of o.recovered) {
      const span = r.error.span ?? r.statement;
      const key = `${span.file?.path ?? ''}:${span.start}:${r.error.phpClass}:${r.error.phpMessage}`;
      const known = byKey.get(key);
      if (known) known.mask |= r.mask;
      else byKey.set(key, { class: r.error.phpClass, message: r.error.phpMessage, span, mask: r.mask, statement: r.statement });
    }
  }
  return [...byKey.values()].sort((a, b) => a.statement.start - b.statement.start);
}

/**
 * The error PHP stops with under method `m` (a parse error or the first uncaught one), whether or
 * not the evaluation went on past it (see EvaluateOptions.recover); null when the file runs through.
 */
export function stoppingError(evaluation: FileEvaluation, m: MethodIndex): PhpError | null {
  const own = evaluation.methods[m].error;
  if (own) return own;
  const fatal = evaluation.fatals.find((f) => (f.mask & (1 << m)) !== 0);
  return fatal ? { class: fatal.class, message: fatal.message, span: fatal.span } : null;
}

/** The undecidable condition on which the order of two route keys depends (under method `m`, else any), if any (see FileEvaluation.orderVaries). */
export function orderVariesBetween(evaluation: FileEvaluation, a: string, b: string, m?: MethodIndex): Span | undefined {
  for (const g of evaluation.orderVaries) if ((m === undefined || (g.mask & (1 << m)) !== 0) && g.keys.has(a) && g.keys.has(b)) return g.condition;
  return undefined;
}

/** The outcomes' order groups, one per condition (methods evaluated alone each found their own). */
function orderGroups(outcomes: readonly InterpreterOutcome[]): OrderGroup[] {
  if (outcomes.length === 1) return [...outcomes[0].orderVaries.values()];
  const byId = new Map<string, OrderGroup>();
  for (const o of outcomes) {
    for (const [id, g] of o.orderVaries) {
      const known = byId.get(id);
      byId.set(id, known ? { keys: new Set([...known.keys, ...g.keys]), onlySome: new Set([...known.onlySome, ...g.onlySome]), condition: g.condition, mask: known.mask | g.mask } : g);
    }
  }
  return [...byId.values()];
}

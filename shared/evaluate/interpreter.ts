import type { IncludedFile, PhpNode, Span } from '../php/ast';
import { LineIndex } from '../php/line-index';
import { nodeSpan, type ParsedFile, type ParsedStatement } from '../php/parse';
import { ALL_METHODS, REQUEST_METHODS, isSingleMethod, methodsIn, type MethodMask } from '../runtime/methods';
import { DYNAMIC_KEY_PREFIX, type AssignmentOrigin, type CallSite, type EntryOriginInfo, type LiteralOrigin } from '../library/records';
import { Diverge, RouteLibrary, at, type Dialect, type LibraryHost, type TransientState } from '../library/route-library';
import { branchOrderVaries } from '../library/branch-order';
import { routeApi, STORING_METHODS } from '../library/route-api';
import { DEFAULT_PHP_VERSION, isPhp8, type PhpVersion } from '../runtime/php-version';
import { callBuiltin, isBuiltin, type BuiltinContext } from '../runtime/builtins';
import { FRAMEWORK_CONSTANTS, PHP_CONSTANTS, phpVersionConstant } from '../runtime/constants';
import {
  PhpFatal, floatToString, isNumericString, looseEquals, sameValue, strictEquals, toBool, toInt, toKey, toNumber, toPhpString,
} from '../runtime/convert';
import { EvaluationLimit } from '../runtime/limits';
import { Includes, type EnvironmentRoutes, type IncludeFiles } from './includes';
import { ENTRY_UNITS, UNITS_PER_STEP, checkArrayEntries, checkStringLength, unitsOf, type WorkMeter } from '../runtime/work-meter';
import { beyondExactIntegers, parseNumber } from '../runtime/numbers';
import { declaresAnyConstant, isReplayableStatement, type ReplayCache } from './replay';
import type { StatementEffect } from './statement-effect';
import { restoreLibrary, snapshotLibrary, type LibrarySnapshot } from '../library/library-snapshot';
import { topLevelFunctions, type Checkpoint } from './checkpoint';
import type { EvalProblem, FunctionDeclaration, InterpreterSnapshot, OrderGroup, ProblemCode, RecoveredFatal, RouteCall } from './interpreter-state';
export type { EvalProblem, InterpreterSnapshot, OrderGroup, ProblemCode, RecoveredFatal, RouteCall } from './interpreter-state';
import { EMPTY_LITERAL_NEXT, PerMethod, PhpArray, PhpClosure, PhpFloat, Unknown, keyToString, normalizeStringKey, shareValue, typeName, type Key, type Value } from '../runtime/values';

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
  /** The environment's route file run after this one (see EvaluateOptions.environmentRoutes). */
  environmentRoutes?: EnvironmentRoutes;
}

interface TopLevelMark {
  mask: MethodMask;
  scope: Scope;
  depth: number;
  callDepth: number;
  conditionalDepth: number;
  branches: number;
  continuations: number;
  silenced: number;
  via: number;
  source: IncludedFile | undefined;
  library: TransientState | undefined;
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


/** Stops evaluation when the step budget or the nesting limit is reached. */
export { EvaluationLimit } from '../runtime/limits';

/**
 * What a recorded effect holds for a list to which the statement added nothing: shared, since an
 * editor keeps an effect per declaration and most of their per-method lists are empty.
 */
const NONE: readonly never[] = Object.freeze([]);
const NO_WARNINGS: readonly (readonly string[])[] = Object.freeze(REQUEST_METHODS.map(() => NONE));

function tail<T>(list: readonly T[], from: number): readonly T[] {
  return list.length === from ? NONE : list.slice(from);
}

/** A top-level statement the replay may serve, whose node's occurrences are therefore counted (the run and countRepeatedBefore alike). */
function countsOccurrence(st: ParsedStatement): boolean {
  return st.chunk.kind === 'php' && !st.tooDeep && st.nodes.length === 1 && st.problems.length === 0;
}

function appendAll<T>(to: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) to.push(items[i]);
}

/** Steps a top-level statement with a syntax error may take before it is skipped. */
export const BROKEN_STATEMENT_STEPS = 2_000;

/** PHP warnings kept per request method; past them one line says that more were raised. */
export const MAX_WARNINGS = 1_000;
const WARNINGS_CUT = `further warnings are not kept: more than ${MAX_WARNINGS.toLocaleString('en-US')} were raised`;

/** A statement with a syntax error ran out of its steps (see execStatement). */
class BrokenStatementLimit extends Error {}

/**
 * `$_SERVER` keys a web request has (or may have: HTTPS, CI_ENV, headers the client sent): their
 * values are unknown, and `isset()` of the optional ones is undecided, not false.
 */
const WEB_SERVER_KEYS = [
  'HTTP_HOST', 'SERVER_NAME', 'SERVER_ADDR', 'SERVER_PORT', 'SERVER_PROTOCOL', 'SERVER_SOFTWARE', 'REQUEST_URI', 'QUERY_STRING',
  'SCRIPT_NAME', 'SCRIPT_FILENAME', 'PHP_SELF', 'PATH_INFO', 'DOCUMENT_ROOT', 'REMOTE_ADDR', 'REMOTE_PORT', 'REQUEST_TIME', 'REQUEST_TIME_FLOAT',
  'HTTPS', 'HTTP_USER_AGENT', 'HTTP_ACCEPT', 'HTTP_ACCEPT_LANGUAGE', 'HTTP_REFERER', 'HTTP_X_REQUESTED_WITH', 'HTTP_X_FORWARDED_FOR', 'HTTP_X_FORWARDED_PROTO', 'CI_ENV',
];
/** The keys every web request (or command-line run) has: isset() of them is true. */
const ALWAYS_SET_SERVER_KEYS = new Set(['HTTP_HOST', 'SERVER_NAME', 'SERVER_PORT', 'SERVER_PROTOCOL', 'REQUEST_URI', 'QUERY_STRING', 'SCRIPT_NAME', 'SCRIPT_FILENAME', 'PHP_SELF', 'DOCUMENT_ROOT', 'REMOTE_ADDR', 'REQUEST_TIME', 'REQUEST_TIME_FLOAT', 'argv', 'argc']);
/** A command-line run (`php index.php controller method`): its arguments, not known statically. */
const CLI_SERVER_KEYS = ['argv', 'argc', 'SCRIPT_NAME', 'SCRIPT_FILENAME', 'PHP_SELF', 'REQUEST_TIME', 'REQUEST_TIME_FLOAT', 'CI_ENV'];

/** PHP's own exception classes and their parents (names compared in lower case, as PHP does). */
const THROWABLE_PARENTS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    Error: 'Throwable', Exception: 'Throwable',
    TypeError: 'Error', ArgumentCountError: 'TypeError', ValueError: 'Error', ArithmeticError: 'Error', DivisionByZeroError: 'ArithmeticError',
    AssertionError: 'Error', UnhandledMatchError: 'Error', CompileError: 'Error', ParseError: 'CompileError',
    ErrorException: 'Exception', JsonException: 'Exception', LogicException: 'Exception', RuntimeException: 'Exception',
    BadFunctionCallException: 'LogicException', BadMethodCallException: 'BadFunctionCallException', DomainException: 'LogicException',
    InvalidArgumentException: 'LogicException', LengthException: 'LogicException', OutOfRangeException: 'LogicException',
    OutOfBoundsException: 'RuntimeException', OverflowException: 'RuntimeException', RangeException: 'RuntimeException',
    UnderflowException: 'RuntimeException', UnexpectedValueException: 'RuntimeException',
  }).map(([k, v]) => [k.toLowerCase(), v.toLowerCase()]),
);

/** Whether `catch (type)` takes an exception of class `thrown`; undefined for a class the file declares (its parents are not known). */
function catchesClass(type: string, thrown: string): boolean | undefined {
  const wanted = type.replace(/^\\/, '').toLowerCase();
  let cls = thrown.replace(/^\\/, '').toLowerCase();
  if (wanted === 'throwable' || wanted === cls) return true;
  if (!THROWABLE_PARENTS.has(cls)) return undefined;
  for (let parent = THROWABLE_PARENTS.get(cls); parent !== undefined; parent = THROWABLE_PARENTS.get(cls)) {
    if (parent === wanted) return true;
    cls = parent;
  }
  return false;
}

class ExitSignal extends Error {
  constructor(readonly span: Span) {
    super('exit');
  }
}

type Signal = { kind: 'break' | 'continue'; levels: number } | { kind: 'return'; value: Value } | undefined;

/** A variable scope: the global one or a function call's. */
class Scope {
  vars = new Map<string, Value>();
  /** Names bound to globals by `global $x;`. */
  readonly globalNames = new Set<string>();
  /** Names bound by reference to another scope's variable (a closure's `use (&$x)`). */
  readonly refs = new Map<string, Scope>();
  /** For arrow functions: the enclosing scope, read by value. */
  arrowParent: Map<string, Value> | undefined;
  constructor(
    /** The methods that were running when the scope was created: writes under fewer diverge. */
    readonly mask: MethodMask,
    readonly isGlobal: boolean,
  ) {}
}

/** Different problems kept for one place in the file (the rest repeat a loop's). */
const MAX_PROBLEMS_AT_ONE_PLACE = 4;

const MAX_DEPTH = 800;
const MAX_CALL_DEPTH = 100;
/** Steps between two readings of the clock (reading it costs about as much as a few steps). */
const STEPS_PER_CLOCK_READING = 1024;
/** Entries from which copying a shared array reads the clock (see writableCopy). */
const LARGE_COPY = 4096;

/** The calls the interpreter records in the main list: those storing routes (block() aside, whose calls the checks read with the others). */
const IN_MAIN_CALLS: ReadonlySet<string> = new Set([...STORING_METHODS].filter((m) => m !== 'block'));

/** The Route method a callable value names: `'Route::any'`, `['Route', 'get']` (any case of `Route`). */
function routeMethodOf(fn: Value): string | undefined {
  if (typeof fn === 'string') {
    const m = /^\\?route::([A-Za-z_][A-Za-z0-9_]*)$/i.exec(fn);
    return m ? m[1] : undefined;
  }
  if (fn instanceof PhpArray && fn.size === 2) {
    const cls = fn.get(0);
    const method = fn.get(1);
    if (typeof cls === 'string' && typeof method === 'string' && cls.replace(/^\\/, '').toLowerCase() === 'route') return method;
  }
  return undefined;
}

/** `Route::name(...)`, whatever the case of `Route`. */
function isRouteCall(node: PhpNode | null | undefined): boolean {
  return node?.kind === 'call' && node.what?.kind === 'staticlookup' && String(node.what.what?.name ?? '').replace(/^\\/, '').toLowerCase() === 'route';
}

/** `$variable = Route::...(...)`. */
function isFreshAssignment(node: PhpNode): boolean {
  return node.kind === 'assign' && node.operator === '=' && node.left?.kind === 'variable' && isRouteCall(node.right);
}

/**
 * Evaluates a parsed route file for a set of request methods at once, without running PHP:
 * an abstract interpreter over php-parser's tree that models exactly the PHP found in route files
 * and answers Unknown (with a reason) for everything else.
 */
export class Interpreter implements LibraryHost, WorkMeter {
  readonly library: RouteLibrary;
  private mask: MethodMask;
  private readonly globals: Scope;
  private scope: Scope;
  private constants: Map<string, Value>;
  private functions = new Map<string, FunctionDeclaration>();
  /** For closures with `use (&$x)`: the scope that owns each variable captured by reference. */
  private readonly closureRefs = new WeakMap<PhpClosure, Map<string, Scope>>();
  /** A declared function was called: a checkpoint then holds spans in the functions' bodies. */
  private calledFunction = false;
  /** A closure captured a variable by reference: its scope cannot be copied into a checkpoint. */
  private capturedByReference = false;
  private readonly warnings: string[][] = REQUEST_METHODS.map(() => []);
  private readonly problems: EvalProblem[] = [];
  private readonly calls: RouteCall[] = [];
  /** Calls of methods other than the declaring ones: the few most checks look at. */
  private readonly otherCalls: RouteCall[] = [];
  private nestedClosure = false;
  private readonly via: CallSite[] = [];
  /** An immutable copy of `via`, shared by every call recorded until the stack changes. */
  private viaSnapshot: readonly CallSite[] = [];
  private base = 0;
  /** The included file running now; undefined while the evaluated file's own statements run. */
  private source: IncludedFile | undefined;
  private readonly includes: Includes;
  /** The top-level statement being evaluated, where limits are reported. */
  private statementSpan: Span = { start: 0, end: 0 };
  private steps = 0;
  /** Where tick() stops: the budget, or sooner while a statement with a syntax error runs. */
  private stepLimit: number;
  /** When the time budget runs out (clock() reading), and the step count at which the clock is next read. */
  private deadline = Infinity;
  private nextClockReading = 0;
  private depth = 0;
  private callDepth = 0;
  private conditionalDepth = 0;
  /** Branch ids of the undecidable conditions being evaluated (`c<offset>:<branch>`). */
  private branchStack: string[] = [];
  private silenced = 0;
  private lines: LineIndex | undefined;
  /** A closure was called from outside since the run (see callClosureSafely). */
  private detached = false;
  /** While a replayable statement runs (its objects are its own: none is shared with another version's). */
  private recording = false;
  /**
   * How many times each repeated statement node was met (identical statements share a node; see
   * ParsedFile.repeated). A node met once is its statement's occurrence 0 and is not counted: a
   * map of every statement, copied at each resume, was a seventh of what an edit allocated.
   */
  private occurrences = new Map<PhpNode, number>();
  /** The last top-level statement was replayed (the state is then clean: see isClean). */
  private cleanAfterReplay = false;
  /** Route keys whose mutual order in the tables depends on an undecidable condition (see branchOrderVaries), by condition. */
  private readonly orderVaries = new Map<string, OrderGroup>();
  /** The namespace the running code is in ('' for the global one), and the classes the file imports (`use`), by lower-case alias. */
  private namespace = '';
  private readonly classAliases = new Map<string, string>();
  /** The fatal errors recovered from (with `recover`), in order. */
  private readonly recovered: RecoveredFatal[] = [];
  /** Top-level statements resumed past (from a checkpoint), replayed and evaluated, for the editor's timing log. */
  readonly replayStats = { resumed: 0, replayed: 0, evaluated: 0 };

  constructor(
    private readonly parsed: ParsedFile,
    private readonly options: InterpreterOptions,
  ) {
    this.mask = options.mask;
    this.includes = new Includes(options.includes, {
      currentFile: () => this.file,
      runIncluded: (parsed, source) => this.runIncluded(parsed, source),
      unresolved: (message, span) => this.problem('evaluation-limit', message, span),
      charge: (units) => this.charge(units),
    }, options.file);
    this.stepLimit = options.maxSteps;
    this.globals = new Scope(options.mask, true);
    this.scope = this.globals;
    this.constants = new Map(options.constants);
    this.library = new RouteLibrary(options.dialect, this, options.maxRoutes);
    if (options.libraryStart) restoreLibrary(this.library, options.libraryStart);
  }

  get conditional(): boolean {
    return this.conditionalDepth > 0;
  }

  /** An immutable copy of the branch stack, shared until the stack changes. */
  private branchSnapshot: readonly string[] = [];

  get branches(): readonly string[] {
    return this.branchSnapshot;
  }

  /** The file running now (an included one while it runs), for PHP-style messages and __FILE__. */
  get file(): string {
    return this.source?.path ?? this.options.file;
  }

  lineAt(offset: number): number {
    this.lines ??= new LineIndex(this.source?.text ?? this.parsed.text);
    return this.lines.lineOf(offset) + 1;
  }

  warn(message: string, mask: MethodMask = this.mask): void {
    if (this.silenced > 0) return;
    // A loop may warn on every step: no list is allocated for it.
    for (let m = 0; m < this.warnings.length; m++) {
      if ((mask & (1 << m)) === 0) continue;
      const list = this.warnings[m];
      // A loop warning on every iteration would hold millions: the first ones say it all.
      if (list.length < MAX_WARNINGS) list.push(message);
      else if (list.length === MAX_WARNINGS) list.push(WARNINGS_CUT);
    }
  }

  /** Runs the whole file. Throws Diverge when methods must be evaluated one at a time. */
  run(): InterpreterOutcome {
    this.startClock(this.options.startedAt);
    const errors: (PhpFatal | undefined)[] = REQUEST_METHODS.map(() => undefined);
    // PHP declares top-level functions before the file runs: they can be called above their declaration.
    for (const f of topLevelFunctions(this.parsed)) if (typeof f.node.name?.name === 'string') this.functions.set(f.node.name.name.toLowerCase(), f);
    const declaresConstants = this.options.replay !== undefined && declaresAnyConstant(this.parsed);
    // Constants the file cannot change are literals to replay (define() cannot redefine; `const` can here).
    const fixed: ReadonlySet<string> = declaresConstants ? new Set() : new Set(this.options.constants?.keys() ?? []);
    this.options.replay?.useConstants(fixed);
    let index = 0;
    const resume = this.options.resume;
    const statements = this.parsed.statements;
    const repeated = this.parsed.repeated;
    const counting = this.options.replay !== undefined && this.options.mask === ALL_METHODS;
    if (resume) {
      this.restore(resume.state);
      index = this.replayStats.resumed = resume.at;
      if (counting) this.countRepeatedBefore(resume.at, resume.state.repeated);
    }
    let stoppedAt: number | undefined;
    try {
      outer: for (; index < statements.length; index++) {
        const st = statements[index];
        if (index === this.options.checkpointAt) this.takeCheckpoint(index);
        if (st.chunk.kind !== 'php') continue;
        this.library.startStatement();
        this.base = st.base;
        // Looked up once: whether its text is repeated decides both its occurrence and its origins.
        const single = st.nodes.length === 1;
        const isRepeated = single && repeated.size !== 0 && repeated.has(st.nodes[0]);
        if (st.tooDeep) {
          // PHP accepts it; the analysis cannot read it: skipped, like a half-typed statement.
          this.problem('evaluation-limit', 'this statement is nested too deeply to analyse and was skipped (PHP itself accepts it)', { start: st.chunk.start, end: st.chunk.end });
          continue;
        }
        // Past an include, the state depends on other files' text: nothing is replayed or recorded.
        const replay = counting && !this.includes.ran && countsOccurrence(st) ? this.options.replay : undefined;
        for (const node of st.nodes) {
          // What a failing statement is rolled back to (with `recover`): taken only for a statement
          // that runs, not for one replayed (a replayed effect never throws).
          let before: TopLevelMark | undefined;
          try {
            if (replay) {
              // Replay serves single-node statements only: `node` is the one isRepeated was looked up for.
              let occurrence = 0;
              if (isRepeated) {
                occurrence = this.occurrences.get(node) ?? 0;
                this.occurrences.set(node, occurrence + 1);
              }
              const effect = replay.get(node, occurrence, index, st.chunk.start);
              // A replayed statement takes its recorded span: no new one per statement and edit.
              if (effect && this.replayEffect(effect)) continue;
              this.cleanAfterReplay = false;
              this.statementSpan = this.span(node);
              if (this.options.recover) before = this.markTopLevel();
              if (this.isClean() && isReplayableStatement(node, fixed)) {
                const effect = this.recordStatement(node, st.chunk.start);
                if (effect) replay.set(node, occurrence, effect, index);
                continue;
              }
            } else {
              this.cleanAfterReplay = false;
              this.statementSpan = this.span(node);
              if (this.options.recover) before = this.markTopLevel();
            }
            this.replayStats.evaluated++;
            const signal = this.execStatement(node, st.problems.length > 0);
            // `return` at the top of an included file ends it.
            if (signal?.kind === 'return') {
              stoppedAt = index;
              break outer;
            }
          } catch (e) {
            if (!(e instanceof PhpFatal) || !before) throw e;
            this.recoverFrom(e, st.chunk, before);
          }
        }
      }
      // The environment's route file runs whatever the main file's branches did.
      this.closeContinuations(0);
      this.runEnvironmentRoutes();
    } catch (e) {
      this.closeContinuations(0);
      stoppedAt = index;
      if (e instanceof PhpFatal) {
        for (const m of methodsIn(this.options.mask)) errors[m] = e;
      } else if (e instanceof ExitSignal) {
        this.problem('exit', 'the script exits here: nothing after this line runs', e.span);
      } else if (e instanceof EvaluationLimit) {
        this.problem('evaluation-limit', e.message, this.statementSpan, true);
      } else if (e instanceof RangeError) {
        this.problem('evaluation-limit', 'evaluation stopped: the code is nested or recursive beyond what can be analysed', this.statementSpan, true);
      } else if (e instanceof Diverge && (isSingleMethod(this.options.mask) || e.stops === this.options.mask)) {
        // One method alone cannot be split further (e.g. prefix() given an unknown callback), and
        // every method stopping alike at one place needs no split: each alone would stop there too.
        this.problem('evaluation-limit', `evaluation stopped: ${e.why}; routes after this point are not known`, this.statementSpan, true);
      } else {
        throw e;
      }
    }
    this.options.replay?.endsAt(statements.length);
    const route = this.globals.vars.get('route');
    const routes = REQUEST_METHODS.map((_, m) => {
      const v = route === undefined ? undefined : at(route, m);
      return v instanceof PhpArray ? v : undefined;
    });
    // `$route` itself not known (Route::map() of something unknown, say): said, never dropped.
    const routesUnknown = REQUEST_METHODS.map((_, m) => {
      const v = route === undefined ? undefined : at(route, m);
      return v instanceof Unknown ? v : undefined;
    });
    return {
      routes,
      routesUnknown,
      errors,
      recovered: this.recovered,
      orderVaries: this.orderVaries,
      warnings: this.warnings,
      problems: this.problems,
      calls: this.calls,
      otherCalls: this.otherCalls,
      nestedClosure: this.nestedClosure,
      library: this.library,
      steps: this.steps,
      constants: this.constants,
      callClosure: (closure, args) => this.callClosureSafely(closure, args),
      included: this.includes.read,
      askedForFiles: this.includes.asked,
      stoppedAt,
    };
  }

  /** What a top-level statement may leave half-changed when it fails, as it was before it. */
  private markTopLevel(): TopLevelMark {
    return {
      mask: this.mask, scope: this.scope, depth: this.depth, callDepth: this.callDepth, conditionalDepth: this.conditionalDepth,
      branches: this.branchStack.length, continuations: this.continuations, silenced: this.silenced, via: this.via.length,
      source: this.source, library: this.library.transientState(),
    };
  }

  /**
   * Goes on past a top-level statement that threw (recovery, like a compiler's): the error is
   * kept for the methods it stopped, and what the statement left half-done (a prefix in effect,
   * a function's scope, a branch) is put back, as if it had been skipped.
   */
  private recoverFrom(e: PhpFatal, chunk: Span, before: TopLevelMark): void {
    this.recovered.push({ error: e, mask: this.mask, statement: { start: chunk.start, end: chunk.end } });
    this.mask = before.mask;
    this.scope = before.scope;
    this.depth = before.depth;
    this.callDepth = before.callDepth;
    this.conditionalDepth = before.conditionalDepth;
    this.branchStack.length = before.branches;
    this.branchSnapshot = this.branchStack.slice();
    this.continuations = before.continuations;
    this.silenced = before.silenced;
    this.via.length = before.via;
    this.viaSnapshot = this.via.slice();
    this.source = before.source;
    this.library.restoreTransientState(before.library);
  }

  /**
   * Counts, among the statements before a resumed checkpoint, the nodes repeated now that the
   * checkpoint's run did not count (`counted`, its repeated ones): a statement repeated only since
   * (the edit made a copy of one above it) was then met once and not counted.
   */
  private countRepeatedBefore(at: number, counted: ReadonlySet<PhpNode>): void {
    const repeated = this.parsed.repeated;
    let missing = false;
    for (const node of repeated) {
      if (counted.has(node)) continue;
      missing = true;
      break;
    }
    if (!missing) return;
    const statements = this.parsed.statements;
    for (let i = 0; i < at; i++) {
      const st = statements[i];
      if (!countsOccurrence(st)) continue;
      const node = st.nodes[0];
      if (repeated.has(node) && !counted.has(node)) this.occurrences.set(node, (this.occurrences.get(node) ?? 0) + 1);
    }
  }

  private takeCheckpoint(at: number): void {
    const state = this.snapshot();
    if (!state) return;
    this.options.onCheckpoint?.({ at, statements: this.parsed.statements.slice(0, at), functions: topLevelFunctions(this.parsed), calledFunction: this.calledFunction, broken: this.parsed.problems.length > 0, state });
  }

  /** The state between two top-level statements; undefined where it cannot be copied (inside a prefix, a by-reference capture, a view of a table). */
  private snapshot(): InterpreterSnapshot | undefined {
    // Past an include the state depends on another file's text, which an edit of this one does not show.
    if (!this.isClean() || this.capturedByReference || this.globals.refs.size > 0 || this.includes.ran) return undefined;
    const library = snapshotLibrary(this.library);
    if (!library) return undefined;
    const vars = new Map<string, Value>();
    for (const [name, v] of this.globals.vars) vars.set(name, shareValue(v));
    const problemsAt = new Map<number, readonly EvalProblem[]>();
    for (const [at, list] of this.problemsAt) problemsAt.set(at, list.slice());
    return {
      library,
      vars,
      globalNames: [...this.globals.globalNames],
      constants: new Map(this.constants),
      functions: new Map(this.functions),
      warnings: this.warnings.map((w) => w.slice()),
      problems: this.problems.slice(),
      problemsAt,
      calls: this.calls.slice(),
      otherCalls: this.otherCalls.slice(),
      nestedClosure: this.nestedClosure,
      recovered: this.recovered.slice(),
      orderVaries: new Map([...this.orderVaries].map(([id, g]) => [id, { keys: new Set(g.keys), condition: g.condition, mask: g.mask }])),
      occurrences: new Map(this.occurrences),
      repeated: this.parsed.repeated,
      steps: this.steps,
    };
  }

  /** Puts this (new) interpreter into a snapshot's state; the snapshot stays as it is. */
  private restore(s: InterpreterSnapshot): void {
    restoreLibrary(this.library, s.library);
    for (const [name, v] of s.vars) this.globals.vars.set(name, shareValue(v));
    for (const name of s.globalNames) this.globals.globalNames.add(name);
    this.constants.clear();
    for (const [name, v] of s.constants) this.constants.set(name, v);
    // Top-level declarations are the same where they were (see canResume); conditional ones ran above.
    this.functions = new Map(s.functions);
    s.warnings.forEach((w, m) => appendAll(this.warnings[m], w));
    appendAll(this.problems, s.problems);
    for (const [at, list] of s.problemsAt) this.problemsAt.set(at, list.slice());
    appendAll(this.calls, s.calls);
    appendAll(this.otherCalls, s.otherCalls);
    this.nestedClosure = s.nestedClosure;
    this.recovered.length = 0;
    this.recovered.push(...s.recovered);
    this.orderVaries.clear();
    for (const [id, g] of s.orderVaries) this.orderVaries.set(id, { keys: new Set(g.keys), condition: g.condition, mask: g.mask });
    this.occurrences = new Map(s.occurrences);
    this.steps = s.steps;
  }

  /** At the top level, outside any condition or callback, with the library's prefixes unset. */
  private isClean(): boolean {
    // Static variables live outside the checkpointed state: once one exists, nothing is recorded.
    // A namespace or an import changes what `Route::` names: nothing recorded outside them applies.
    return this.mask === ALL_METHODS && this.conditionalDepth === 0 && this.callDepth === 0 && this.via.length === 0 && this.statics.size === 0 && this.namespace === '' && this.classAliases.size === 0 && !this.serverWritten && this.library.isClean();
  }

  /** Evaluates a replayable statement, noting everything it adds so it can be replayed later. */
  private recordStatement(node: PhpNode, start: number): StatementEffect | undefined {
    const states = this.library.states;
    const created = states.map((s) => s.created.length);
    const warnings = this.warnings.map((w) => w.length);
    const calls = this.calls.length;
    const otherCalls = this.otherCalls.length;
    const problems = this.problems.length;
    const steps = this.steps;
    this.recording = true;
    this.replayStats.evaluated++;
    try {
      this.execStatement(node, false);
    } finally {
      this.recording = false;
    }
    // Only an effect that left the library as it found it can be replayed anywhere; one that
    // reached the warnings' cap depends on how many came before it.
    if (!this.isClean() || this.warnings.some((w) => w.length > MAX_WARNINGS)) return undefined;
    const newWarnings = this.warnings.some((w, m) => w.length > warnings[m]);
    return {
      start,
      records: states.map((s, m) => tail(s.created, created[m])),
      calls: this.calls.slice(calls),
      otherCalls: tail(this.otherCalls, otherCalls),
      warnings: newWarnings ? this.warnings.map((w, m) => tail(w, warnings[m])) : NO_WARNINGS,
      problems: tail(this.problems, problems),
      steps: this.steps - steps,
      statement: this.statementSpan,
    };
  }

  /** Redoes a recorded statement; false when it must be evaluated instead (state or budget). */
  private replayEffect(effect: StatementEffect): boolean {
    // A replayed statement leaves the state clean: the next one need not look again.
    if (!(this.cleanAfterReplay || this.isClean()) || this.steps + effect.steps > this.options.maxSteps) return false;
    if (effect.warnings !== NO_WARNINGS && this.warnings.some((w, m) => w.length + effect.warnings[m].length > MAX_WARNINGS)) return false;
    if (!this.library.replay(effect.records)) return false;
    this.statementSpan = effect.statement;
    this.steps += effect.steps;
    // Indexed loops: this runs for every statement of a large file on every edit.
    appendAll(this.calls, effect.calls);
    if (effect.otherCalls.length) appendAll(this.otherCalls, effect.otherCalls);
    appendAll(this.problems, effect.problems);
    if (effect.warnings !== NO_WARNINGS) for (let m = 0; m < effect.warnings.length; m++) appendAll(this.warnings[m], effect.warnings[m]);
    this.replayStats.replayed++;
    this.cleanAfterReplay = true;
    return true;
  }

  /** A top-level statement. When the file has syntax errors, a tree php-parser only partly recovered costs only that statement. */
  private execStatement(node: PhpNode, broken: boolean): Signal {
    // PHP runs nothing of a file with a syntax error: a broken statement is evaluated for what it
    // shows while being typed, and a loop the parser's recovery made up must not take the budget.
    if (broken) this.stepLimit = Math.min(this.options.maxSteps, this.steps + BROKEN_STATEMENT_STEPS);
    try {
      return this.exec(node);
    } catch (e) {
      if (e instanceof BrokenStatementLimit) {
        this.problem('unsupported', `this statement is incomplete (syntax error) and runs over ${BROKEN_STATEMENT_STEPS.toLocaleString('en-US')} steps: it was skipped`, this.statementSpan);
        return undefined;
      }
      // A half-typed statement (e.g. a call missing its arguments) must not stop the rest of the file.
      if (!this.isPartialTreeFailure(e) && !(broken && e instanceof PhpFatal)) throw e;
      this.problem('unsupported', 'this statement is incomplete (syntax error) and was skipped', this.statementSpan);
      return undefined;
    } finally {
      this.stepLimit = this.options.maxSteps;
    }
  }

  /** php-parser leaves nodes out where it recovered from a syntax error (`$a[] = ;`); reading them fails. */
  private isPartialTreeFailure(e: unknown): boolean {
    return e instanceof TypeError && this.parsed.problems.length > 0;
  }

  private callClosureSafely(closure: PhpClosure, args: Value[]): Value {
    // A call from outside (the URL tester, later): it has a time budget of its own, and works on
    // copies of what the evaluation handed out (the library's states, the constants).
    if (!this.detached) {
      this.detached = true;
      this.library.detachStates();
      this.constants = new Map(this.constants);
    }
    this.startClock();
    try {
      return this.callClosure(closure, args);
    } catch (e) {
      if (e instanceof PhpFatal) return new Unknown(`the closure fails: ${e.phpClass}: ${e.phpMessage}`);
      if (e instanceof EvaluationLimit || e instanceof ExitSignal || e instanceof Diverge || e instanceof RangeError || this.isPartialTreeFailure(e)) {
        return new Unknown('the closure cannot be evaluated statically');
      }
      throw e;
    }
  }

  /**
   * Problems reported so far, by start offset: a loop reports each one once, not once per
   * iteration, and a place reports a few different messages at most (a loop's messages may vary).
   */
  private readonly problemsAt = new Map<number, EvalProblem[]>();

  /** `static $x` variables, per declaration: they keep their value from call to call. */
  private readonly statics = new Map<PhpNode, Scope>();

  private problem(code: ProblemCode, message: string, span: Span, stops = false): void {
    let here = this.problemsAt.get(span.start);
    if (here) {
      if (here.length >= MAX_PROBLEMS_AT_ONE_PLACE) return;
      for (const p of here) if (p.code === code && p.message === message) return;
    } else this.problemsAt.set(span.start, (here = []));
    const p: EvalProblem = stops ? { code, message, span, stops } : { code, message, span };
    here.push(p);
    this.problems.push(p);
  }

  private span(node: PhpNode): Span {
    const span = nodeSpan(node, this.base);
    if (this.source) {
      span.file = this.source;
      return span;
    }
    return span;
  }

  /**
   * The environment's route file, which CodeIgniter's router includes once the main file has run
   * (normally or by a top-level `return`), in the same scope: an implicit include at its end.
   */
  private runEnvironmentRoutes(): void {
    const after = this.options.environmentRoutes;
    if (!after) return;
    const end = this.parsed.text.length;
    this.statementSpan = { start: end, end };
    this.includes.includeEnvironmentRoutes(after.path, after.environment, { start: end, end });
  }

  /** An included file's statements, run in the current scope (see includes.ts). */
  private runIncluded(parsed: ParsedFile, source: IncludedFile): Value {
    const saved = { source: this.source, base: this.base, lines: this.lines };
    this.source = source;
    this.lines = undefined;
    try {
      // PHP declares an included file's top-level functions when it is included.
      for (const f of topLevelFunctions(parsed)) if (typeof f.node.name?.name === 'string') this.functions.set(f.node.name.name.toLowerCase(), { ...f, source });
      for (const st of parsed.statements) {
        if (st.chunk.kind !== 'php') continue;
        this.base = st.base;
        if (st.tooDeep) throw new EvaluationLimit(`evaluation stopped: a statement of ${source.path} is nested too deeply to analyse`);
        for (const node of st.nodes) {
          const signal = this.exec(node);
          // `return` at the top of an included file ends it and is include's value.
          if (signal?.kind === 'return') return signal.value;
        }
      }
      return 1;
    } finally {
      this.source = saved.source;
      this.base = saved.base;
      this.lines = saved.lines;
    }
  }

  private tick(): void {
    if (++this.steps > this.stepLimit) this.overBudget();
    if (this.steps >= this.nextClockReading) this.readClock();
  }

  /**
   * Pays for size-proportional work (string bytes, array entries: see work-meter.ts) in steps,
   * so that the step budget bounds what a statement may touch, not only how many operations run.
   */
  charge(units: number): void {
    if (units < UNITS_PER_STEP) return;
    this.steps += Math.floor(units / UNITS_PER_STEP);
    if (this.steps > this.stepLimit) this.overBudget();
    if (this.steps >= this.nextClockReading) this.readClock();
  }

  private overBudget(): never {
    if (this.stepLimit < this.options.maxSteps) throw new BrokenStatementLimit();
    throw new EvaluationLimit(`evaluation stopped after ${this.options.maxSteps.toLocaleString('en-US')} steps (an endless loop?): routes after this point are not known`);
  }

  private startClock(startedAt?: number): void {
    const budget = this.options.maxMilliseconds;
    if (budget === undefined || !Number.isFinite(budget)) return;
    this.deadline = (startedAt ?? this.now()) + budget;
    this.nextClockReading = this.steps + STEPS_PER_CLOCK_READING;
  }

  private readClock(): void {
    if (this.deadline === Infinity) {
      this.nextClockReading = Infinity;
      return;
    }
    this.nextClockReading = this.steps + STEPS_PER_CLOCK_READING;
    if (this.now() > this.deadline) {
      throw new EvaluationLimit(`evaluation stopped: it took longer than ${this.options.maxMilliseconds!.toLocaleString('en-US')} ms (an endless loop, or very large values?): routes after this point are not known`);
    }
  }

  private now(): number {
    return this.options.clock ? this.options.clock() : performance.now();
  }

  // ---------------------------------------------------------------- statements

  private execList(nodes: PhpNode[] | null | undefined): Signal {
    if (!nodes) return undefined;
    const mark = this.continuations;
    try {
      for (const n of nodes) {
        const s = this.exec(n);
        if (s) return s;
      }
      return undefined;
    } finally {
      this.closeContinuations(mark);
    }
  }

  /**
   * Branches of undecidable conditions the rest of the statement list runs in: one branch
   * returned or exited, so what follows runs only when the other was taken. Its routes are then
   * conditional, and never compared with the ended branch's (see compatibleBranches).
   */
  private continuations = 0;

  private continueInBranch(id: string): void {
    // A loop may end the same branch on every turn: once is enough.
    if (this.branchStack.includes(id)) return;
    this.branchStack.push(id);
    this.branchSnapshot = this.branchStack.slice();
    this.conditionalDepth++;
    this.continuations++;
  }

  /** Ends the continuations opened since `mark` (the statement list they belong to ended). */
  private closeContinuations(mark: number): void {
    const n = this.continuations - mark;
    if (n <= 0) return;
    this.branchStack.length -= n;
    this.branchSnapshot = this.branchStack.slice();
    this.conditionalDepth -= n;
    this.continuations = mark;
  }

  private exec(node: PhpNode | null | undefined): Signal {
    if (!node) return undefined;
    this.tick();
    if (++this.depth > MAX_DEPTH) {
      this.depth = 0;
      throw new EvaluationLimit('evaluation stopped: the code is nested too deeply to analyse');
    }
    try {
      return this.execInner(node);
    } finally {
      this.depth--;
    }
  }

  private execInner(node: PhpNode): Signal {
    switch (node.kind) {
      case 'expressionstatement':
        if (node.expression && isFreshAssignment(node.expression)) this.assignFresh(node.expression);
        else if (node.expression) this.eval(node.expression);
        return undefined;
      case 'echo':
      case 'print':
        for (const e of node.expressions ?? []) this.eval(e);
        return undefined;
      case 'usegroup':
        this.useClasses(node);
        return undefined;
      case 'inline':
      case 'useitem':
      case 'class':
      case 'interface':
      case 'trait':
      case 'enum':
      case 'noop':
      case 'nop':
        return undefined;
      case 'namespace': {
        // `namespace App;` names the namespace of what follows; `namespace App { ... }` of its block.
        const name = typeof node.name === 'string' ? node.name.replace(/^\\/, '') : '';
        this.classAliases.clear();
        if (!node.withBrackets) {
          this.namespace = name;
          return this.execList(node.children);
        }
        const outer = this.namespace;
        this.namespace = name;
        try {
          return this.execList(node.children);
        } finally {
          this.namespace = outer;
        }
      }
      case 'block':
      case 'program':
        return this.execList(node.children);
      case 'declare':
        return this.execList(node.children);
      case 'if':
        return this.execIf(node);
      case 'foreach':
        return this.execForeach(node);
      case 'for':
        return this.execFor(node);
      case 'while':
        return this.execWhile(node, false);
      case 'do':
        return this.execWhile(node, true);
      case 'switch':
        return this.execSwitch(node);
      case 'return':
        return { kind: 'return', value: node.expr ? this.eval(node.expr) : null };
      case 'break':
      case 'continue': {
        const levels = node.level ? toInt(this.eval(node.level)) : 1;
        return { kind: node.kind, levels: typeof levels === 'number' && levels > 0 ? levels : 1 };
      }
      case 'function':
        if (node.name && typeof node.name.name === 'string') {
          this.functions.set(node.name.name.toLowerCase(), { node, base: this.base, source: this.source });
        }
        return undefined;
      case 'constantstatement':
        for (const c of node.constants ?? []) {
          const name = typeof c.name === 'string' ? c.name : c.name?.name;
          if (typeof name === 'string') this.constants.set(name, this.eval(c.value));
        }
        return undefined;
      case 'global':
        for (const v of node.items ?? []) if (typeof v.name === 'string') this.scope.globalNames.add(v.name);
        return undefined;
      case 'static':
        for (const v of node.variables ?? []) {
          const target = v.variable ?? v;
          if (typeof target.name !== 'string') continue;
          // One variable per declaration, kept from call to call; the local name refers to it.
          let kept = this.statics.get(v);
          if (!kept) {
            kept = new Scope(this.mask, false);
            kept.vars.set(target.name, v.defaultValue ? this.eval(v.defaultValue) : null);
            this.statics.set(v, kept);
          }
          this.scope.refs.set(target.name, kept);
        }
        return undefined;
      case 'unset':
        for (const v of node.variables ?? []) this.unset(v);
        return undefined;
      case 'try': {
        let signal: Signal;
        try {
          signal = this.exec(node.body);
        } catch (e) {
          if (!(e instanceof PhpFatal)) throw e;
          const handler = this.catchClauseFor(node.catches ?? [], e.phpClass);
          if (!handler) throw e;
          // The exception object itself is not modelled: its methods and properties are unknown.
          if (handler.variable && typeof handler.variable.name === 'string') this.setVariable(handler.variable.name, new Unknown(`the caught ${e.phpClass}`));
          signal = this.exec(handler.body);
        } finally {
          if (node.always) this.exec(node.always);
        }
        return signal;
      }
      case 'throw': {
        // `throw new InvalidArgumentException('msg')`: PHP reports that class and message.
        const what: PhpNode = node.what;
        let phpClass = 'Exception';
        let message = 'an exception is thrown here';
        if (what?.kind === 'new' && what.what?.kind === 'name' && typeof what.what.name === 'string') {
          phpClass = what.what.name.replace(/^\\/, '');
          const first: PhpNode | undefined = what.arguments?.[0];
          const m = first ? this.eval(first) : '';
          message = typeof m === 'string' ? m : m instanceof Unknown ? `‹${m.reason}›` : String(m);
        } else this.eval(what);
        throw Object.assign(new PhpFatal(phpClass, message), { span: this.span(node) });
      }
      case 'halt':
        throw new ExitSignal(this.span(node));
      case 'goto':
        // Where a goto lands is not modelled: skipping it would silently analyse code PHP may never run (or run forever).
        throw new EvaluationLimit('evaluation stopped: goto is not evaluated, so routes after this point are not known');
      default:
        this.problem('unsupported', `${node.kind} statements are not evaluated`, this.span(node));
        return undefined;
    }
  }

  /**
   * The first catch clause that takes an exception of `thrown` class, if one does. Whether one
   * takes a class the file declares itself cannot be known (class declarations are not
   * evaluated): the evaluation stops there rather than guess.
   */
  private catchClauseFor(catches: PhpNode[], thrown: string): PhpNode | undefined {
    for (const clause of catches) {
      for (const type of clause.what ?? []) {
        const name = typeof type?.name === 'string' ? type.name : '';
        const takes = catchesClass(name, thrown);
        if (takes === undefined) throw new EvaluationLimit(`evaluation stopped: whether catch (${name}) takes a ${thrown} cannot be known (class declarations are not evaluated): routes after this point are not known`);
        if (takes) return clause;
      }
    }
    return undefined;
  }

  private execIf(node: PhpNode): Signal {
    const test = this.truth(this.eval(node.test));
    if (test === true) return this.exec(node.body);
    if (test === false) return this.exec(node.alternate);
    this.problem('unknown-value', `the condition cannot be decided statically (${this.unknownReason(node.test)}): both branches are analysed`, this.span(node.test));
    const id = `c${this.span(node).start}`;
    return this.bothBranches(
      () => this.inBranch(`${id}:0`, () => this.exec(node.body)),
      () => this.inBranch(`${id}:1`, () => this.exec(node.alternate)),
      [`${id}:0`, `${id}:1`],
      this.span(node.test),
    );
  }

  private unknownReason(node: PhpNode): string {
    const v = this.peek(node);
    return v instanceof Unknown ? v.reason : 'unknown value';
  }

  /** Re-evaluates an expression without warnings or problems, for messages. */
  private peek(node: PhpNode): Value {
    this.silenced++;
    try {
      return this.eval(node);
    } catch {
      return new Unknown('unknown value');
    } finally {
      this.silenced--;
    }
  }

  private inBranch<T>(id: string, fn: () => T): T {
    const mark = this.continuations;
    this.branchStack.push(id);
    this.branchSnapshot = this.branchStack.slice();
    try {
      return fn();
    } finally {
      this.closeContinuations(mark);
      this.branchStack.pop();
      this.branchSnapshot = this.branchStack.slice();
    }
  }

  /**
   * Runs both branches of an undecidable condition and merges the variables they set. A branch
   * that returns or exits ends there: what follows runs only in the other branch (`ids`), and an
   * exit is then a possibility, not the end of the file.
   */
  private bothBranches(a: () => Signal, b: () => Signal, ids: readonly [string, string], condition: Span): Signal {
    const scope = this.scope;
    const before = new Map(scope.vars);
    const states = this.library.states;
    const created0 = states.map((s) => s.created.length);
    const replaced0 = states.map((s) => s.replaced.length);
    let created1: number[] = created0;
    let routesA: Value | undefined;
    for (const v of before.values()) shareValue(v);
    const ran = (branch: () => Signal): { signal: Signal; exit?: ExitSignal } => {
      try {
        return { signal: branch() };
      } catch (e) {
        if (e instanceof ExitSignal) return { signal: undefined, exit: e };
        throw e;
      }
    };
    let ra: { signal: Signal; exit?: ExitSignal };
    let rb: { signal: Signal; exit?: ExitSignal };
    this.conditionalDepth++;
    try {
      ra = ran(a);
      const afterA = scope.vars;
      created1 = states.map((s) => s.created.length);
      routesA = this.scope === this.globals ? afterA.get('route') : undefined;
      scope.vars = new Map(before);
      for (const v of before.values()) shareValue(v);
      rb = ran(b);
      const afterB = scope.vars;
      if (this.scope === this.globals) this.noteOrderVaries(condition, before.get('route'), routesA, afterB.get('route'));
      this.noteLibraryOrderVaries(condition, created0, created1, replaced0);
      scope.vars = mergeScopes(afterA, afterB, this);
    } finally {
      this.conditionalDepth--;
    }
    const endedA = ra.exit !== undefined || ra.signal?.kind === 'return';
    const endedB = rb.exit !== undefined || rb.signal?.kind === 'return';
    if (endedA && endedB) {
      if (ra.exit && rb.exit) throw rb.exit;
      return rb.signal?.kind === 'return' ? rb.signal : ra.signal;
    }
    // The condition itself is reported as undecidable; what follows is marked as its other branch.
    if (endedA !== endedB) this.continueInBranch(ids[endedA ? 1 : 0]);
    return undefined;
  }

  /** `$route` keys whose place depends on the branch (see branchOrderVaries), noted with the condition. */
  private noteOrderVaries(condition: Span, before: Value | undefined, a: Value | undefined, b: Value | undefined): void {
    if (!(a instanceof PhpArray) || !(b instanceof PhpArray) || (a === before && b === before)) return;
    const prior = before instanceof PhpArray ? before : undefined;
    this.charge((a.size + b.size) * ENTRY_UNITS);
    this.markOrderVaries(branchOrderVaries(a.keys(), b.keys(), (k) => prior?.has(k) ?? false), condition);
  }

  /** The library's tables' keys whose place depends on the branch, from the records each branch stored. */
  private noteLibraryOrderVaries(condition: Span, created0: readonly number[], created1: readonly number[], replaced0: readonly number[]): void {
    this.library.states.forEach((state, m) => {
      if (created1[m] === created0[m]) return;
      const made = new Set(state.created.slice(created0[m]));
      // A key whose record made before the branches was stored over was in the table already.
      const existing = new Set<Key>();
      for (let i = replaced0[m]; i < state.replaced.length; i++) if (!made.has(state.replaced[i])) existing.add(state.replaced[i].key);
      const keysOf = (from: number, to: number) => state.created.slice(from, to).map((r) => r.key);
      this.markOrderVaries(branchOrderVaries(keysOf(created0[m], created1[m]), keysOf(created1[m], state.created.length), (k) => existing.has(k)), condition);
    });
  }

  /** One group per condition (a condition in a loop adds to its group): its keys' mutual order is not known. */
  private markOrderVaries(keys: readonly Key[], condition: Span): void {
    if (keys.length === 0) return;
    const id = `${condition.file?.path ?? ''}:${condition.start}`;
    let group = this.orderVaries.get(id);
    if (!group) this.orderVaries.set(id, (group = { keys: new Set(), condition, mask: this.mask }));
    else if ((group.mask | this.mask) !== group.mask) this.orderVaries.set(id, (group = { ...group, mask: group.mask | this.mask }));
    for (const k of keys) (group.keys as Set<string>).add(keyToString(k));
  }

  private loopSignal(s: Signal): 'break' | 'continue' | Signal {
    if (!s) return undefined;
    if (s.kind === 'return') return s;
    if (s.levels > 1) return { kind: s.kind, levels: s.levels - 1 };
    return s.kind;
  }

  private execForeach(node: PhpNode): Signal {
    const source = this.eval(node.source);
    if (!(source instanceof PhpArray)) {
      if (source instanceof PerMethod) throw new Diverge('foreach over a value that differs by request method');
      const reason = source instanceof Unknown ? source.reason : `foreach over ${typeof source}`;
      if (!(source instanceof Unknown)) {
        this.warn(`foreach() argument must be of type array|object, ${source === null ? 'null' : typeof source} given`);
        return undefined;
      }
      this.problem('unknown-value', `the loop's array cannot be known statically (${reason}): its body is analysed once`, this.span(node.source));
      this.conditionalDepth++;
      try {
        if (node.key) this.assignTo(node.key, new Unknown(reason));
        if (node.value) this.assignTo(node.value, new Unknown(reason));
        const s = this.loopSignal(this.exec(node.body));
        return typeof s === 'object' ? s : undefined;
      } finally {
        this.conditionalDepth--;
      }
    }
    this.charge(unitsOf(source));
    // `foreach ($list as &$item)`: what the body leaves in $item is written back to $list.
    const byReference = node.value?.byref === true && node.value.kind === 'variable' && node.source?.kind === 'variable';
    for (const [k, v] of [...source.entries()]) {
      this.tick();
      if (node.key) this.assignTo(node.key, k);
      if (node.value) this.assignTo(node.value, shareValue(v));
      const s = this.loopSignal(this.exec(node.body));
      if (byReference) this.writeBack(node.source, k, node.value);
      if (s === 'break') break;
      if (typeof s === 'object') return s;
    }
    return undefined;
  }

  /** `$list[$key] = $item`, for a foreach by reference (the element and the variable are one in PHP). */
  private writeBack(list: PhpNode, key: Key, item: PhpNode): void {
    const updated = this.writeElement(this.readForWrite(list), key, shareValue(this.quietRead(item)), undefined);
    this.assignTo(list, updated);
  }

  private execFor(node: PhpNode): Signal {
    for (const e of node.init ?? []) this.eval(e);
    for (;;) {
      this.tick();
      let ok: boolean | undefined = true;
      for (const e of node.test ?? []) ok = this.truth(this.eval(e));
      if (ok === false) return undefined;
      if (ok === undefined) return this.undecidedLoopBody(node);
      const s = this.loopSignal(this.exec(node.body));
      if (s === 'break') return undefined;
      if (typeof s === 'object') return s;
      for (const e of node.increment ?? []) this.eval(e);
    }
  }

  private execWhile(node: PhpNode, doWhile: boolean): Signal {
    let first = doWhile;
    for (;;) {
      this.tick();
      if (!first) {
        const ok = this.truth(this.eval(node.test));
        if (ok === false) return undefined;
        if (ok === undefined) return this.undecidedLoopBody(node);
      }
      first = false;
      const s = this.loopSignal(this.exec(node.body));
      if (s === 'break') return undefined;
      if (typeof s === 'object') return s;
    }
  }

  private undecidedLoopBody(node: PhpNode): Signal {
    this.problem('unknown-value', 'the loop condition cannot be decided statically: its body is analysed once', this.span(node));
    this.conditionalDepth++;
    try {
      const s = this.loopSignal(this.exec(node.body));
      return typeof s === 'object' ? s : undefined;
    } finally {
      this.conditionalDepth--;
    }
  }

  private execSwitch(node: PhpNode): Signal {
    const test = this.eval(node.test);
    const cases: PhpNode[] = node.body?.children ?? [];
    let start = -1;
    let undecided = false;
    for (let i = 0; i < cases.length && start < 0; i++) {
      if (!cases[i].test) continue;
      const eq = this.loose(test, this.eval(cases[i].test));
      if (eq === true) start = i;
      if (eq === undefined) undecided = true;
    }
    if (start < 0 && !undecided) start = cases.findIndex((c) => !c.test);
    if (undecided) {
      this.conditionalDepth++;
      try {
        const id = `s${this.span(node).start}`;
        cases.forEach((c, i) => this.inBranch(`${id}:${i}`, () => this.execList(c.body?.children ?? (c.body ? [c.body] : []))));
      } finally {
        this.conditionalDepth--;
      }
      return undefined;
    }
    if (start < 0) return undefined;
    for (let i = start; i < cases.length; i++) {
      const body = cases[i].body;
      const s = this.loopSignal(body?.kind === 'block' ? this.execList(body.children) : this.exec(body));
      if (s === 'break' || s === 'continue') return undefined;
      if (typeof s === 'object') return s;
    }
    return undefined;
  }

  private unset(node: PhpNode): void {
    if (node.kind === 'variable' && typeof node.name === 'string') {
      // Unsetting a reference (`global $x`, `use (&$x)`) only unbinds the local name, as in PHP.
      if (this.scope.refs.delete(node.name) || this.scope.globalNames.delete(node.name)) return;
      this.scope.vars.delete(node.name);
      return;
    }
    if (node.kind === 'offsetlookup' && node.offset) {
      const container = this.readForWrite(node.what);
      const key = this.eval(node.offset);
      if (container instanceof PerMethod || key instanceof PerMethod) throw new Diverge('unset() of a value that differs by request method');
      if (container instanceof PhpArray) {
        const k = toKey(key);
        if (k instanceof Unknown) return;
        const w = this.writableCopy(container);
        w.delete(k);
        this.assignTo(node.what, w);
      }
    }
  }

  // ---------------------------------------------------------------- expressions

  eval(node: PhpNode | null | undefined): Value {
    if (!node) return null;
    this.tick();
    if (++this.depth > MAX_DEPTH) {
      this.depth = 0;
      throw new EvaluationLimit('evaluation stopped: the code is nested too deeply to analyse');
    }
    try {
      return this.evalInner(node);
    } finally {
      this.depth--;
    }
  }

  private evalInner(node: PhpNode): Value {
    switch (node.kind) {
      case 'string':
      case 'nowdoc':
        return node.value as string;
      case 'encapsed':
        return this.evalEncapsed(node);
      case 'number':
        return parseNumber(String(node.value));
      case 'boolean':
        return Boolean(node.value);
      case 'nullkeyword':
        return null;
      case 'name':
        return this.constant(String(node.name), node);
      case 'magic':
        return this.magic(node);
      case 'variable':
        return this.readVariable(node);
      case 'offsetlookup':
        return this.readOffset(node, false);
      case 'assign':
        return this.evalAssign(node);
      case 'call':
        return this.evalCall(node);
      case 'array':
        return this.evalArray(node);
      case 'closure':
        return this.makeClosure(node);
      case 'arrowfunc':
        return new PhpClosure(node, this.base, new Map(), this.scope.vars, this.source);
      case 'bin':
        return this.evalBinary(node);
      case 'unary':
        return this.evalUnary(node);
      case 'cast':
        return this.evalCast(node);
      case 'retif': {
        const test = this.eval(node.test);
        const t = this.truth(test);
        if (t === true) return node.trueExpr ? this.eval(node.trueExpr) : test;
        if (t === false) return this.eval(node.falseExpr);
        const a = node.trueExpr ? this.eval(node.trueExpr) : test;
        const b = this.eval(node.falseExpr);
        return sameValue(a, b, this) ? a : new Unknown(`depends on a condition that cannot be decided (line ${this.lineAt(this.span(node).start)})`, this.span(node));
      }
      case 'isset':
        return this.evalIsset(node);
      case 'empty': {
        const v = this.quietRead(node.expression);
        const t = this.truth(v);
        return t === undefined ? new Unknown('empty() of an unknown value') : !t;
      }
      case 'exit':
        if (node.expression) this.eval(node.expression);
        throw new ExitSignal(this.span(node));
      case 'silent': {
        this.silenced++;
        try {
          return this.eval(node.expr);
        } finally {
          this.silenced--;
        }
      }
      case 'pre':
      case 'post':
        return this.evalIncrement(node);
      case 'match':
        return this.evalMatch(node);
      case 'staticlookup':
        return new Unknown(`static property or class constant ${this.describeCallee(node)} is not evaluated`, this.span(node));
      case 'parenthesis':
        return this.eval(node.inner);
      case 'include':
        return this.includes.include(node, this.eval(node.target), this.span(node));
      case 'propertylookup':
      case 'nullsafepropertylookup':
        // `$row->slug` (a database row), `$this->uri` (the router that includes routes.php).
        return new Unknown(node.offset?.kind === 'identifier' ? `the property ->${String(node.offset.name)} is not evaluated (objects are not)` : 'property access is not evaluated', this.span(node));
      default:
        return new Unknown(`${describeKind(node.kind)} is not evaluated`, this.span(node));
    }
  }

  private evalEncapsed(node: PhpNode): Value {
    if (node.type === 'shell') return new Unknown('shell commands are never run', this.span(node));
    let out = '';
    let unknown: Unknown | undefined;
    const parts: Value[] = [];
    for (const part of node.value as PhpNode[]) {
      const expr: PhpNode = part.kind === 'encapsedpart' ? part.expression : part;
      const v = part.syntax === 'simple' && expr?.kind === 'offsetlookup' && expr.offset ? this.simpleOffset(expr) : this.eval(expr);
      if (v instanceof PerMethod) parts.push(v);
      else parts.push(v);
    }
    if (parts.some((p) => p instanceof PerMethod)) return this.lift(parts, (vals) => this.concatAll(vals));
    for (const v of parts) {
      const s = toPhpString(v, this);
      if (s instanceof Unknown) unknown ??= s;
      else out = this.concat(out, s, 'string interpolation');
    }
    return unknown ?? out;
  }

  /**
   * `"$a[k]"`, `"$a[007]"`: in simple interpolation the offset is a bare word or a number taken as
   * written, so both are string keys unless canonical integers (`"$a[7]"` reads `$a[7]`).
   */
  private simpleOffset(node: PhpNode): Value {
    const off: PhpNode = node.offset;
    const key: Value = off.kind === 'identifier' ? String(off.name) : off.kind === 'number' ? normalizeStringKey(String(off.value)) : this.eval(off);
    const container = this.eval(node.what);
    return this.lift([container, key], ([c, k]) => this.readElement(c, k, false));
  }

  private concatAll(vals: Value[]): Value {
    let out = '';
    for (const v of vals) {
      const s = toPhpString(v, this);
      if (s instanceof Unknown) return s;
      out = this.concat(out, s, 'string interpolation');
    }
    return out;
  }

  /** `a . b`, refused past the size cap and paid for by its length (later reads flatten it). */
  private concat(a: string, b: string, what: string): string {
    const length = a.length + b.length;
    checkStringLength(length, what);
    this.charge(length);
    return a + b;
  }

  /**
   * The array to write into. Copying a shared one is not charged in steps: whether it is shared
   * also depends on the checkpoints an editor took (their variables share the arrays), and an
   * evaluation resumed from one must count the steps a fresh one does. A large copy reads the
   * clock instead, so that a loop of copies meets the time budget at once.
   */
  private writableCopy(arr: PhpArray): PhpArray {
    if (arr.isShared && arr.size >= LARGE_COPY && this.deadline !== Infinity) {
      this.nextClockReading = this.steps;
      this.readClock();
    }
    return arr.writable();
  }

  private magic(node: PhpNode): Value {
    switch (String(node.value).toUpperCase()) {
      case '__LINE__':
        return this.lineAt(this.span(node).start);
      case '__FILE__':
        return this.file;
      case '__DIR__':
        return this.file.includes('/') ? this.file.slice(0, this.file.lastIndexOf('/')) : '.';
      case '__FUNCTION__':
      case '__CLASS__':
      case '__METHOD__':
      case '__NAMESPACE__':
        return '';
      default:
        return new Unknown(`${node.value} is not evaluated`);
    }
  }

  private constant(raw: string, node: PhpNode): Value {
    const name = raw.startsWith('\\') ? raw.slice(1) : raw;
    const lower = name.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    if (lower === 'null') return null;
    const v = this.constants.get(name) ?? PHP_CONSTANTS.get(name) ?? FRAMEWORK_CONSTANTS.get(name) ?? phpVersionConstant(name, this.options.phpVersion ?? DEFAULT_PHP_VERSION);
    if (v !== undefined) return v;
    const php8 = isPhp8(this.options.phpVersion);
    if (this.options.constantsComplete) {
      if (php8) throw new PhpFatal('Error', `Undefined constant "${name}"`);
      this.warn(`Use of undefined constant ${name} - assumed '${name}' (this will throw an Error in a future version of PHP)`);
      return name;
    }
    return new Unknown(`constant ${name} is not defined in the routes file or config/constants.php`, this.span(node));
  }

  private isDefined(name: string): boolean {
    const n = name.startsWith('\\') ? name.slice(1) : name;
    return this.constants.has(n) || PHP_CONSTANTS.has(n) || FRAMEWORK_CONSTANTS.has(n) || n === 'PHP_VERSION' || n === 'PHP_MAJOR_VERSION' || n === 'PHP_MINOR_VERSION';
  }

  // ---------------------------------------------------------------- variables

  private writeScope(name: string): Scope {
    return this.scope.refs.get(name) ?? (this.scope.globalNames.has(name) ? this.globals : this.scope);
  }

  private readVariable(node: PhpNode, quiet = false): Value {
    const name = this.variableName(node);
    if (name instanceof Unknown) return name;
    if (name === 'GLOBALS') return this.globalsArray();
    if (name === '_SERVER') return this.serverArray();
    if (name === 'this') return new Unknown("$this (CodeIgniter's router, which includes routes.php) is not evaluated");
    if (name.startsWith('_') && ['_GET', '_POST', '_REQUEST', '_COOKIE', '_ENV', '_FILES', '_SESSION'].includes(name)) {
      return new Unknown(`$${name} depends on the request`);
    }
    const v = this.writeScope(name).vars.get(name);
    if (v === undefined) {
      if (this.scope.arrowParent?.has(name)) return this.scope.arrowParent.get(name) as Value;
      if (!quiet) this.warn(isPhp8(this.options.phpVersion) ? `Undefined variable $${name}` : `Undefined variable: ${name}`);
      return null;
    }
    return v;
  }

  private variableName(node: PhpNode): string | Unknown {
    if (typeof node.name === 'string') return node.name;
    const v = this.eval(node.name);
    // Each method then converts its own value (with its own warnings), as it would alone.
    if (v instanceof PerMethod) throw new Diverge('a variable name differs by request method');
    return toPhpString(v, this);
  }

  /** `$GLOBALS` as a read-only snapshot of the global variables. */
  private globalsArray(): PhpArray {
    this.charge(this.globals.vars.size * ENTRY_UNITS);
    const a = new PhpArray();
    for (const [k, v] of this.globals.vars) a.set(k, shareValue(v));
    return a;
  }

  /** `$_SERVER`: REQUEST_METHOD is what differs between the route tables. */
  /** `$_SERVER` under each method, made once per evaluation (shared: a write copies it). */
  private serverArrays: PhpArray[] | undefined;
  private serverWritten = false;

  private serverArray(): Value {
    const by: Value[] = (this.serverArrays ??= REQUEST_METHODS.map((name) => {
      const a = new PhpArray();
      if (name !== 'CLI') a.set('REQUEST_METHOD', name);
      // What the web server or PHP sets for a request: there, or maybe there, and not known statically.
      for (const key of name === 'CLI' ? CLI_SERVER_KEYS : WEB_SERVER_KEYS) a.set(key, new Unknown(`$_SERVER['${key}'] depends on the request`, undefined, ALWAYS_SET_SERVER_KEYS.has(key)));
      shareValue(a);
      return a;
    }));
    const ms = methodsIn(this.mask);
    return ms.length === 1 ? by[ms[0]] : new PerMethod(by);
  }

  /**
   * A write into `$_SERVER`: seen by later reads under every method. REQUEST_METHOD is what the
   * library's verb methods and the router read to choose routes: a write to it changes which
   * request the rest of the file (and the router) serve, which is not evaluated.
   */
  private assignServer(target: PhpNode, value: Value): void {
    const key = target.offset ? toKey(this.eval(target.offset)) : new Unknown('$_SERVER[] appends');
    if (key instanceof Unknown || key === 'REQUEST_METHOD') {
      throw new EvaluationLimit(`evaluation stopped: a write to $_SERVER${key instanceof Unknown ? '[…]' : "['REQUEST_METHOD']"} changes the request method the library and the router read, which is not evaluated; routes after this point are not known`);
    }
    if (this.mask !== this.options.mask) throw new Diverge('$_SERVER is written under some request methods only');
    this.serverArray();
    // Not in checkpoints nor recorded effects: nothing is reused past it (see isClean).
    this.serverWritten = true;
    this.serverArrays = this.serverArrays!.map((a) => {
      const copy = a.clone();
      copy.set(key, shareValue(value));
      shareValue(copy);
      return copy;
    });
  }

  private setVariable(name: string, value: Value): void {
    if (name === 'this') throw new PhpFatal('Error', 'Cannot re-assign $this');
    const scope = this.writeScope(name);
    if (scope.mask !== this.mask && !(value instanceof Unknown)) {
      throw new Diverge(`$${name} is written under some request methods only`);
    }
    scope.vars.set(name, value);
  }

  /** Assigns to any writable expression: variable, `$a[..]` chains, `list()`. */
  assignTo(target: PhpNode, value: Value): void {
    switch (target.kind) {
      case 'variable': {
        const name = this.variableName(target);
        if (name instanceof Unknown) return;
        this.setVariable(name, shareValue(value));
        return;
      }
      case 'offsetlookup':
        if (target.what?.kind === 'variable' && target.what.name === '_SERVER') {
          this.assignServer(target, value);
          return;
        }
        this.assignOffset(target, value, undefined);
        return;
      case 'list':
      case 'array': {
        let i = 0;
        for (const item of target.items ?? []) {
          if (!item) {
            i++;
            continue;
          }
          const entry = item.kind === 'entry' ? item : { key: null, value: item };
          const key = entry.key ? toKey(this.eval(entry.key)) : i++;
          const element = value instanceof PhpArray && !(key instanceof Unknown) ? (value.get(key) ?? null) : new Unknown('destructuring of an unknown value');
          this.assignTo(entry.value, element);
        }
        return;
      }
      case 'staticlookup':
      case 'propertylookup':
        return;
      default:
        this.problem('unsupported', `assignment to ${describeKind(target.kind)} is not evaluated`, this.span(target));
    }
  }

  /** Reads a container for writing into it: no warnings, undefined when absent. */
  private readForWrite(node: PhpNode): Value | undefined {
    if (node.kind === 'variable') {
      const name = this.variableName(node);
      if (name instanceof Unknown) return name;
      if (name === 'GLOBALS') return this.globalsArray();
      return this.writeScope(name).vars.get(name);
    }
    if (node.kind === 'offsetlookup') {
      const container = this.readForWrite(node.what);
      if (!node.offset) return undefined;
      const key = this.eval(node.offset);
      return this.lift([container ?? null, key], ([c, k]) => {
        if (!(c instanceof PhpArray)) return c instanceof Unknown ? c : null;
        const kk = toKey(k);
        if (kk instanceof Unknown) return kk;
        return c.get(kk) ?? null;
      });
    }
    return this.eval(node);
  }

  /**
   * @param nested the write is into an element of this container's element (`$route['x']['get'] = …`
   *   writes `$route['x']`): the entry keeps the origin it has, else takes the assignment's, and
   *   is not a second declaration of its key.
   */
  private assignOffset(target: PhpNode, value: Value, origin: AssignmentOrigin | undefined, nested = false, dynamicKey?: string): void {
    const what: PhpNode = target.what;
    // $GLOBALS['name'] = ... writes the global variable.
    if (what.kind === 'variable' && what.name === 'GLOBALS' && target.offset) {
      const name = toPhpString(this.eval(target.offset), this);
      if (name instanceof Unknown) return;
      if (this.globals.mask !== this.mask) throw new Diverge('a global is written under some request methods only');
      this.globals.vars.set(name, shareValue(value));
      return;
    }
    const key: Value | undefined = target.offset ? this.eval(target.offset) : undefined;
    const container = this.readForWrite(what);
    const updated = this.writeElement(container, key, value, origin, nested, dynamicKey);
    if (what.kind === 'offsetlookup' && what.what.kind === 'variable' && what.what.name === 'GLOBALS' && what.offset) {
      const name = toPhpString(this.eval(what.offset), this);
      if (name instanceof Unknown) return;
      if (this.globals.mask !== this.mask) throw new Diverge('a global is written under some request methods only');
      this.globals.vars.set(name, updated);
      return;
    }
    if (what.kind === 'variable' || what.kind === 'offsetlookup') {
      if (what.kind === 'variable') {
        const name = this.variableName(what);
        if (name instanceof Unknown) return;
        this.setVariable(name, updated);
      } else {
        // A verb array (`$route['x']['get'] = …`): its entry in $route is declared by this assignment.
        this.assignOffset(what, updated, origin, true);
      }
    }
  }

  /** `$container[$key] = $value` on a value; returns the updated container. */
  /** @param dynamicKey where an entry whose key cannot be known stands (`$route[...]` only; see DYNAMIC_KEY_PREFIX) */
  private writeElement(container: Value | undefined, key: Value | undefined, value: Value, origin: AssignmentOrigin | undefined, nested = false, dynamicKey?: string): Value {
    if (container instanceof PerMethod || key instanceof PerMethod || value instanceof PerMethod) {
      const by: Value[] = REQUEST_METHODS.map(() => null);
      for (const m of methodsIn(this.mask)) {
        // One array becoming one per method: each must be written as its own copy.
        const own = container === undefined ? undefined : container instanceof PerMethod ? container.byMethod[m] : shareValue(container);
        by[m] = this.writeElement(
          own,
          key === undefined ? undefined : at(key, m),
          at(value, m),
          origin,
          nested,
          dynamicKey,
        );
      }
      return new PerMethod(by);
    }
    if (container instanceof Unknown) return container;
    let arr: PhpArray;
    if (container === undefined || container === null) arr = new PhpArray();
    else if (container instanceof PhpArray) arr = this.writableCopy(container);
    else if (container === false) {
      arr = new PhpArray();
    } else if (typeof container === 'string') {
      return new Unknown('writing into a string offset is not evaluated');
    } else {
      throw new PhpFatal('Error', 'Cannot use a scalar value as an array');
    }
    const stored = shareValue(value);
    if (key === undefined) {
      arr.append(stored, origin);
      return arr;
    }
    const k = toKey(key);
    if (k instanceof Unknown) {
      this.problem('unknown-value', `an array key cannot be known statically (${k.reason})`, origin?.keySpan ?? { start: this.base, end: this.base });
      // A route of $route whose path is unknown keeps its place in the table, as an unknown route.
      if (dynamicKey !== undefined && origin) arr.set(dynamicKey, stored, origin);
      return arr;
    }
    if (origin && nested) {
      arr.set(k, stored, (arr.originOf(k) as EntryOriginInfo | undefined) ?? origin);
      return arr;
    }
    if (origin) {
      let previous = arr.originOf(k) as EntryOriginInfo | undefined;
      // The same assignment again (a loop): not a second declaration, and no chain as long as the loop.
      if (previous?.kind === 'assignment' && previous.span.start === origin.span.start && previous.span.end === origin.span.end) previous = previous.replaced;
      if (previous && previous.kind !== 'literal') origin = this.options.replay && !this.recording ? this.options.replay.replacing(origin, previous) : { ...origin, replaced: previous };
    }
    arr.set(k, stored, origin);
    return arr;
  }

  private readOffset(node: PhpNode, quiet: boolean): Value {
    const container = quiet ? this.quietRead(node.what) : this.eval(node.what);
    if (!node.offset) throw new PhpFatal('Error', 'Cannot use [] for reading');
    const key = this.eval(node.offset);
    return this.lift([container, key], ([c, k]) => this.readElement(c, k, quiet));
  }

  private readElement(c: Value, k: Value, quiet: boolean): Value {
    if (c instanceof Unknown) return c;
    if (c instanceof PhpArray) {
      const key = toKey(k);
      if (key instanceof Unknown) return key;
      const v = c.get(key);
      if (v === undefined) {
        if (!quiet) this.warn(isPhp8(this.options.phpVersion) ? `Undefined array key ${typeof key === 'number' ? key : `"${key}"`}` : typeof key === 'number' ? `Undefined offset: ${key}` : `Undefined index: ${key}`);
        return null;
      }
      return v;
    }
    if (typeof c === 'string') {
      const i = toInt(k);
      if (typeof i !== 'number') return i;
      const idx = i < 0 ? c.length + i : i;
      if (idx < 0 || idx >= c.length) {
        if (!quiet) this.warn(`Uninitialized string offset ${i}`);
        return quiet ? null : '';
      }
      return c[idx];
    }
    if (c instanceof PhpClosure) throw new PhpFatal('Error', 'Cannot use object of type Closure as array');
    if (!quiet) this.warn(`Trying to access array offset on value of type ${c === null ? 'null' : typeof c === 'boolean' ? 'bool' : typeof c === 'number' ? 'int' : 'float'}`);
    return null;
  }

  /** Reads without warnings, as isset()/empty()/?? do. */
  private quietRead(node: PhpNode): Value {
    if (node.kind === 'variable') return this.readVariable(node, true);
    if (node.kind === 'offsetlookup') return this.readOffset(node, true);
    return this.eval(node);
  }

  private evalIsset(node: PhpNode): Value {
    let result: Value = true;
    for (const v of node.variables ?? []) {
      const val = this.quietRead(v);
      const r = this.lift([val], ([x]) => (x instanceof Unknown ? (x.isSet ? true : x) : x !== null));
      if (r === false) return false;
      if (r !== true) result = r;
    }
    return result;
  }

  private evalAssign(node: PhpNode): Value {
    const op: string = node.operator;
    const left: PhpNode = node.left;
    let value: Value;
    if (op === '=') {
      value = this.eval(node.right);
    } else if (op === '??=') {
      const cur = this.quietRead(left);
      if (cur !== null && !(cur instanceof Unknown)) return cur;
      value = this.eval(node.right);
    } else {
      const cur = this.quietRead(left);
      const right = this.eval(node.right);
      value = this.binary(op.slice(0, -1), cur, right);
    }
    if (left.kind === 'offsetlookup' && op === '=' && !(left.what?.kind === 'variable' && left.what.name === '_SERVER')) {
      const fresh: AssignmentOrigin = {
        kind: 'assignment',
        span: this.span(node),
        keySpan: left.offset ? this.span(left.offset) : undefined,
        valueSpan: this.span(node.right),
        conditional: this.conditional,
        branches: this.branches,
      };
      // The same object as the last evaluation's when nothing about it changed (a recorded statement's spans must be its own: they move with it).
      const origin = this.options.replay && !this.recording && !this.source ? this.options.replay.sameOrigin(node, fresh, this.base) : fresh;
      const intoRoutes = left.what?.kind === 'variable' && left.what.name === 'route' && this.writeScope('route') === this.globals;
      // Unique per assignment: its place, in the file it is written in.
      this.assignOffset(left, value, origin, false, intoRoutes ? `${DYNAMIC_KEY_PREFIX}a${this.source ? `${this.source.path}:` : ''}${fresh.span.start}` : undefined);
    } else {
      this.assignTo(left, value);
    }
    return value;
  }

  /**
   * `$route = Route::map($route);` as a statement: the library's result is an array nobody else
   * holds (the statement's own value is dropped), so it is stored without marking it shared,
   * which would copy every method's table on the next `$route[...] = ...`. Used as a value
   * (`$a[] = $route = Route::map(...)`), the assignment goes the usual way.
   */
  private assignFresh(node: PhpNode): void {
    const value = this.eval(node.right);
    const name = this.variableName(node.left);
    if (!(name instanceof Unknown)) this.setVariable(name, value);
  }

  private evalIncrement(node: PhpNode): Value {
    const cur = this.quietRead(node.what);
    const next = this.binary(node.type === '+' ? '+' : '-', cur === null && node.type === '+' ? 0 : cur, 1);
    this.assignTo(node.what, next);
    return node.kind === 'pre' ? next : cur;
  }

  private evalArray(node: PhpNode): Value {
    // `[]` is PHP's shared empty array, whose next key is 0 (`[]; $a[-3] = 1; $a[] = 2` gives 0).
    const out = (node.items ?? []).length === 0 ? new PhpArray(undefined, EMPTY_LITERAL_NEXT) : new PhpArray();
    for (const item of node.items ?? []) {
      if (!item) continue;
      const entry: PhpNode = item.kind === 'entry' ? item : { kind: 'entry', loc: item.loc, key: null, value: item, unpack: false };
      const value = this.eval(entry.value);
      if (value instanceof PerMethod) throw new Diverge('an array element differs by request method');
      if (entry.unpack) {
        if (value instanceof PhpArray) {
          checkArrayEntries(out.size + value.size, 'the spread');
          this.charge(unitsOf(value));
          for (const [k, v] of value.entries()) {
            if (typeof k === 'number') out.append(shareValue(v));
            else out.set(k, shareValue(v));
          }
        } else {
          return new Unknown('spread of an unknown value', this.span(item));
        }
        continue;
      }
      if (entry.key) {
        const key = this.eval(entry.key);
        if (key instanceof PerMethod) throw new Diverge('an array key differs by request method');
        const k = toKey(key);
        if (k instanceof Unknown) {
          this.problem('unknown-value', `an array key cannot be known statically (${k.reason})`, this.span(entry.key));
          continue;
        }
        out.set(k, shareValue(value), { kind: 'literal', span: this.span(item), keySpan: this.span(entry.key), valueSpan: this.span(entry.value) } satisfies LiteralOrigin);
      } else {
        out.append(shareValue(value), { kind: 'literal', span: this.span(item), valueSpan: this.span(entry.value) } satisfies LiteralOrigin);
      }
    }
    return out;
  }

  private makeClosure(node: PhpNode): PhpClosure {
    const captured = new Map<string, Value>();
    const refs = new Map<string, Scope>();
    for (const u of node.uses ?? []) {
      const name = u.kind === 'variable' ? u.name : u.name?.name;
      if (typeof name !== 'string') continue;
      if (u.byref) {
        // The closure reads and writes the variable where it lives, when it runs.
        refs.set(name, this.writeScope(name));
        continue;
      }
      const v = this.writeScope(name).vars.get(name);
      captured.set(name, v === undefined ? null : shareValue(v));
    }
    const closure = new PhpClosure(node, this.base, captured, undefined, this.source);
    if (refs.size) {
      this.closureRefs.set(closure, refs);
      this.capturedByReference = true;
    }
    return closure;
  }

  // ---------------------------------------------------------------- operators

  private truth(v: Value): boolean | undefined {
    if (v instanceof PerMethod) {
      const ms = methodsIn(this.mask);
      const first = toBool(v.byMethod[ms[0]]);
      for (const m of ms) if (toBool(v.byMethod[m]) !== first) throw new Diverge('a condition differs by request method');
      return first;
    }
    return toBool(v);
  }

  /** Applies `fn` per method when any input differs by method; collapses equal results. */
  private lift(values: Value[], fn: (vals: Value[]) => Value): Value {
    if (!values.some((v) => v instanceof PerMethod)) return fn(values);
    const ms = methodsIn(this.mask);
    const by: Value[] = REQUEST_METHODS.map(() => null);
    const saved = this.mask;
    try {
      for (const m of ms) {
        // Runs for method m alone: its warnings (e.g. "Undefined array key") are that method's only.
        this.mask = 1 << m;
        by[m] = fn(values.map((v) => at(v, m)));
      }
    } finally {
      this.mask = saved;
    }
    const first = by[ms[0]];
    return ms.every((m) => sameValue(by[m], first, this)) ? first : new PerMethod(by);
  }

  private loose(a: Value, b: Value): boolean | undefined {
    const r = this.lift([a, b], ([x, y]) => {
      const e = looseEquals(x, y, this);
      return e === undefined ? new Unknown('comparison with an unknown value') : e;
    });
    return this.truth(r);
  }

  private evalBinary(node: PhpNode): Value {
    const type: string = node.type;
    switch (type) {
      case '&&':
      case 'and': {
        const l = this.truth(this.eval(node.left));
        if (l === false) return false;
        const r = this.truth(this.eval(node.right));
        if (l === true) return r === undefined ? new Unknown('unknown condition') : r;
        return r === false ? false : new Unknown('unknown condition');
      }
      case '||':
      case 'or': {
        const l = this.truth(this.eval(node.left));
        if (l === true) return true;
        const r = this.truth(this.eval(node.right));
        if (l === false) return r === undefined ? new Unknown('unknown condition') : r;
        return r === true ? true : new Unknown('unknown condition');
      }
      case '??': {
        const l = this.quietRead(node.left);
        if (l instanceof Unknown) return l;
        return this.lift([l], ([x]) => (x !== null ? x : this.eval(node.right)));
      }
      case 'instanceof':
        return new Unknown('instanceof is not evaluated');
      default:
        return this.binary(type, this.eval(node.left), this.eval(node.right));
    }
  }

  binary(op: string, left: Value, right: Value): Value {
    return this.lift([left, right], ([a, b]) => this.binaryOne(op, a, b));
  }

  private binaryOne(op: string, a: Value, b: Value): Value {
    switch (op) {
      case '.': {
        const l = toPhpString(a, this);
        const r = toPhpString(b, this);
        if (l instanceof Unknown) return l;
        if (r instanceof Unknown) return r;
        return this.concat(l, r, 'the concatenation');
      }
      case '==':
        return orUnknown(looseEquals(a, b, this));
      case '!=':
      case '<>':
        return notOrUnknown(looseEquals(a, b, this));
      case '===':
        return orUnknown(strictEquals(a, b, this));
      case '!==':
        return notOrUnknown(strictEquals(a, b, this));
      case 'xor': {
        const x = toBool(a);
        const y = toBool(b);
        return x === undefined || y === undefined ? new Unknown('unknown condition') : x !== y;
      }
    }
    if (a instanceof Unknown) return a;
    if (b instanceof Unknown) return b;
    // Every other operator reads its operands whole (numeric strings are parsed, arrays copied).
    this.charge(unitsOf(a) + unitsOf(b));
    if (op === '+' && a instanceof PhpArray && b instanceof PhpArray) {
      checkArrayEntries(a.size + b.size, 'the array union');
      const out = a.clone();
      for (const [k, v] of b.entries()) if (!out.has(k)) out.set(k, shareValue(v));
      return out;
    }
    if (['<', '>', '<=', '>=', '<=>'].includes(op)) return compare(op, a, b, this);
    const [x, y] = this.operands(op, a, b);
    if (x instanceof Unknown) return x;
    if (y instanceof Unknown) return y;
    const isFloat = x instanceof PhpFloat || y instanceof PhpFloat;
    const xv = x instanceof PhpFloat ? x.value : x;
    const yv = y instanceof PhpFloat ? y.value : y;
    // An integer result stays an integer up to PHP_INT_MAX; past 2^53 it is not exact here.
    const num = (v: number, float = isFloat): Value => (float ? new PhpFloat(v) : Number.isSafeInteger(v) ? v : Math.abs(v) >= 2 ** 63 ? new PhpFloat(v) : beyondExactIntegers(`${op}'s result`));
    const bits = (v: bigint): Value => (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : beyondExactIntegers(`${op}'s result`));
    switch (op) {
      case '+':
        return num(xv + yv);
      case '-':
        return num(xv - yv);
      case '*':
        return num(xv * yv);
      case '/':
        if (yv === 0) throw new PhpFatal('DivisionByZeroError', 'Division by zero');
        return num(xv / yv, isFloat || !Number.isInteger(xv / yv));
      case '%': {
        const xi = Math.trunc(xv);
        const yi = Math.trunc(yv);
        if (yi === 0) throw new PhpFatal('DivisionByZeroError', 'Modulo by zero');
        return xi % yi;
      }
      case '**':
        return num(xv ** yv, isFloat || yv < 0);
      case '&':
        return bits(BigInt.asIntN(64, BigInt(Math.trunc(xv)) & BigInt(Math.trunc(yv))));
      case '|':
        return bits(BigInt.asIntN(64, BigInt(Math.trunc(xv)) | BigInt(Math.trunc(yv))));
      case '^':
        return bits(BigInt.asIntN(64, BigInt(Math.trunc(xv)) ^ BigInt(Math.trunc(yv))));
      case '<<':
        return bits(BigInt.asIntN(64, BigInt(Math.trunc(xv)) << BigInt(Math.trunc(yv) & 63)));
      case '>>':
        return bits(BigInt.asIntN(64, BigInt(Math.trunc(xv)) >> BigInt(Math.trunc(yv) & 63)));
    }
    return new Unknown(`operator ${op} is not evaluated`);
  }

  /**
   * Both operands as numbers. PHP 8 refuses arrays and non-numeric strings with a TypeError naming
   * both types; PHP 7 read a non-numeric string as 0 with a warning (arrays were an Error).
   */
  private operands(op: string, a: Value, b: Value): [number | PhpFloat | Unknown, number | PhpFloat | Unknown] {
    try {
      return [toNumber(a, this), toNumber(b, this)];
    } catch (e) {
      if (!(e instanceof PhpFatal) || !e.phpMessage.startsWith('Unsupported operand types')) throw e;
      const arrays = a instanceof PhpArray || a instanceof PhpClosure || b instanceof PhpArray || b instanceof PhpClosure;
      if (isPhp8(this.options.phpVersion)) throw new PhpFatal('TypeError', `Unsupported operand types: ${typeName(a)} ${op} ${typeName(b)}`);
      if (arrays) throw new PhpFatal('Error', 'Unsupported operand types');
      this.warn('A non-numeric value encountered');
      const lenient = (v: Value): Value => (typeof v === 'string' && !/^\s*[+-]?\.?\d/.test(v) ? 0 : v);
      return [toNumber(lenient(a), this), toNumber(lenient(b), this)];
    }
  }

  private evalUnary(node: PhpNode): Value {
    const v = this.eval(node.what);
    return this.lift([v], ([x]) => {
      switch (node.type) {
        case '!': {
          const t = toBool(x);
          return t === undefined ? new Unknown('negation of an unknown value') : !t;
        }
        case '-':
          return this.binaryOne('*', x, -1);
        case '+':
          return this.binaryOne('*', x, 1);
        case '~': {
          const n = toInt(x);
          return typeof n === 'number' ? ~n : n;
        }
        default:
          return new Unknown(`operator ${node.type} is not evaluated`);
      }
    });
  }

  private evalCast(node: PhpNode): Value {
    const v = this.eval(node.expr ?? node.what);
    return this.lift([v], ([x]) => {
      if (x instanceof Unknown) return x;
      // A cast reads a string whole (numeric prefix) and copies an array.
      this.charge(unitsOf(x));
      switch (node.type) {
        case 'int':
          return toInt(x);
        case 'float': {
          const n = toNumber(typeof x === 'string' ? x.replace(/^(\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?).*$/s, '$1') || '0' : x, { warn: () => undefined });
          return n instanceof Unknown ? n : new PhpFloat(n instanceof PhpFloat ? n.value : n);
        }
        case 'string':
          return toPhpString(x, this);
        case 'bool':
        case 'boolean':
          return toBool(x) ?? new Unknown('unknown value');
        case 'array':
          return x instanceof PhpArray ? x : x === null ? new PhpArray() : PhpArray.fromList([x]);
        case 'unset':
          return null;
        default:
          return new Unknown(`(${node.type}) casts are not evaluated`);
      }
    });
  }

  private evalMatch(node: PhpNode): Value {
    const cond = this.eval(node.cond);
    for (const arm of node.arms ?? []) {
      if (!arm.conds) return this.eval(arm.body);
      for (const c of arm.conds) {
        const eq = this.lift([cond, this.eval(c)], ([a, b]) => orUnknown(strictEquals(a, b, this)));
        const t = this.truth(eq);
        if (t === undefined) return new Unknown('match on an unknown value', this.span(node));
        if (t) return this.eval(arm.body);
      }
    }
    throw new PhpFatal('UnhandledMatchError', `Unhandled match case ${describeMatch(cond)}`);
  }

  // ---------------------------------------------------------------- calls

  private describeCallee(node: PhpNode): string {
    if (node.kind === 'staticlookup') {
      const cls = node.what?.name ?? '?';
      const member = node.offset?.name ?? '?';
      return `${cls}::${typeof member === 'string' ? member : '?'}`;
    }
    return typeof node.name === 'string' ? node.name : describeKind(node.kind);
  }

  private evalArgs(args: PhpNode[] | undefined, paramNames?: readonly string[]): Value[] {
    // Plain arguments (the usual case): map() sizes the list exactly, and route calls keep theirs.
    if (args && !args.some((a) => a && (a.kind === 'variadic' || a.kind === 'namedargument'))) {
      return args.map((a) => (a ? this.eval(a) : new Unknown('the argument could not be parsed')));
    }
    const out: Value[] = [];
    for (const a of args ?? []) {
      // php-parser leaves a null argument where it recovered from a syntax error (`f(]`).
      if (!a) out.push(new Unknown('the argument could not be parsed'));
      else if (a.kind === 'variadic') {
        const v = this.eval(a.what);
        if (v instanceof PhpArray) {
          checkArrayEntries(out.length + v.size, 'the spread');
          this.charge(unitsOf(v));
          for (const x of v.values()) out.push(x);
        }
        else out.push(new Unknown('spread of an unknown value'));
      } else if (a.kind === 'namedargument') {
        const idx = paramNames?.indexOf(String(a.name)) ?? -1;
        const v = this.eval(a.value);
        if (idx < 0) throw new PhpFatal('Error', `Unknown named parameter $${a.name}`);
        while (out.length < idx) out.push(undefined as unknown as Value);
        out[idx] = v;
      } else {
        out.push(this.eval(a));
      }
    }
    return out;
  }

  private evalCall(node: PhpNode): Value {
    const what: PhpNode = node.what;
    try {
      if (what.kind === 'staticlookup') return this.callStatic(node, what);
      if (what.kind === 'name') return this.callFunction(String(what.name), node);
      const callee = this.eval(what);
      if (callee instanceof PhpClosure) return this.callClosure(callee, this.evalArgs(node.arguments));
      // `$f = 'Route::post'; $f(...)`, `$f = ['Route', 'get']; $f(...)`.
      const routeMethod = routeMethodOf(callee);
      if (routeMethod !== undefined) {
        const args = this.evalArgs(node.arguments, routeApi(routeMethod)?.params);
        return this.callRoute(routeMethod, args, this.span(node), this.span(what), (node.arguments ?? []).map((a: PhpNode | null) => this.span(a ?? node)));
      }
      if (typeof callee === 'string') return this.callFunction(callee, node);
      if ((what.kind === 'propertylookup' || what.kind === 'nullsafepropertylookup') && what.offset?.kind === 'identifier') {
        this.evalArgs(node.arguments);
        return new Unknown(`the method call ->${String(what.offset.name)}() is not evaluated (objects are not)`, this.span(node));
      }
      return new Unknown(`call of ${describeKind(what.kind)} is not evaluated`, this.span(node));
    } catch (e) {
      if (e instanceof PhpFatal && !e.span) e.span = this.span(node);
      throw e;
    }
  }

  /** `use Route;`, `use Route as R;`: class names the file imports (functions and constants too, ignored). */
  private useClasses(node: PhpNode): void {
    if (node.type && node.type !== 'class') return;
    const prefix = typeof node.name === 'string' ? `${node.name.replace(/^\\/, '')}\\` : '';
    for (const item of node.items ?? []) {
      if (item.type && item.type !== 'class') continue;
      const full = `${prefix}${String(item.name ?? '').replace(/^\\/, '')}`;
      const alias = typeof item.alias?.name === 'string' ? item.alias.name : full.split('\\').pop() ?? full;
      this.classAliases.set(alias.toLowerCase(), full);
    }
  }

  /** Whether the file declares the class (`self`, `static` and `parent` name one it declares). */
  private declaresClass(cls: string): boolean {
    if (['self', 'static', 'parent'].includes(cls.toLowerCase())) return true;
    if (!this.declaredClasses) {
      const names = new Set<string>();
      const visit = (nodes: readonly PhpNode[] | undefined, ns: string) => {
        for (const n of nodes ?? []) {
          if (n.kind === 'class' || n.kind === 'interface' || n.kind === 'trait' || n.kind === 'enum') {
            const name = typeof n.name === 'string' ? n.name : n.name?.name;
            if (typeof name === 'string') names.add((ns ? `${ns}\\${name}` : name).toLowerCase());
          } else if (n.kind === 'namespace') visit(n.children, typeof n.name === 'string' ? n.name : '');
        }
      };
      let ns = '';
      for (const st of this.parsed.statements) {
        for (const n of st.nodes) {
          if (n.kind === 'namespace' && !n.withBrackets) ns = typeof n.name === 'string' ? n.name : '';
          visit([n], ns);
        }
      }
      this.declaredClasses = names;
    }
    return this.declaredClasses.has(cls.toLowerCase());
  }

  private declaredClasses: Set<string> | undefined;

  /** A class name as PHP resolves it: fully qualified, through the file's imports, else in its namespace. */
  private resolveClass(name: PhpNode | undefined): string {
    const raw = String(name?.name ?? '');
    if (raw.startsWith('\\') || name?.resolution === 'fqn') return raw.replace(/^\\/, '');
    const lower = raw.toLowerCase();
    if (['self', 'static', 'parent'].includes(lower)) return raw;
    if (lower.startsWith('namespace\\')) return this.namespace ? `${this.namespace}\\${raw.slice(10)}` : raw.slice(10);
    const [first, ...rest] = raw.split('\\');
    const imported = this.classAliases.get(first.toLowerCase());
    if (imported !== undefined) return [imported, ...rest].join('\\');
    return this.namespace ? `${this.namespace}\\${raw}` : raw;
  }

  private callStatic(node: PhpNode, what: PhpNode): Value {
    const cls = this.resolveClass(what.what);
    if (cls.toLowerCase() !== 'route' && this.options.constantsComplete && !this.declaresClass(cls)) {
      // Run alone, nothing declares the class (the namespace's Route, say): PHP stops.
      this.evalArgs(node.arguments);
      throw new PhpFatal('Error', `Class "${cls}" not found`);
    }
    let method = what.offset?.kind === 'identifier' ? String(what.offset.name) : undefined;
    // `Route::$m(...)`: the method named by a variable.
    if (method === undefined && cls.toLowerCase() === 'route' && what.offset && what.offset.kind !== 'identifier') {
      const named = this.eval(what.offset.kind === 'variable' && typeof what.offset.name === 'string' ? what.offset : what.offset);
      if (typeof named === 'string') method = named;
    }
    if (cls.toLowerCase() !== 'route' || method === undefined) {
      this.evalArgs(node.arguments);
      const elsewhere = cls.toLowerCase() !== 'route' && /(^|\\)route$/i.test(cls) ? ` (in namespace ${this.namespace || 'none'}, Route is ${cls}, not the Route library)` : '';
      return new Unknown(`${this.describeCallee(what)}() is not evaluated${elsewhere}`, this.span(node));
    }
    const args = this.evalArgs(node.arguments, routeApi(method)?.params);
    return this.callRoute(method, args, this.span(node), this.span(what.offset), (node.arguments ?? []).map((a: PhpNode | null) => this.span(a ?? node)));
  }

  /**
   * A call of the Route library: `Route::any(...)` as written, or through a callable
   * (`call_user_func('Route::any', ...)`, `['Route', 'get']`, `$f = 'Route::post'; $f(...)`).
   */
  private callRoute(method: string, args: Value[], span: Span, nameSpan: Span, argSpans: Span[]): Value {
    const lower = method.toLowerCase();
    const site: CallSite = { method: lower, written: method, span, nameSpan, argSpans };
    const call: RouteCall = { site, args, mask: this.mask, conditional: this.conditional, via: this.viaSnapshot };
    this.calls.push(call);
    if (!IN_MAIN_CALLS.has(lower)) this.otherCalls.push(call);
    const nestedAt = routeApi(lower)?.nestedAt;
    if (nestedAt !== undefined && args[nestedAt] instanceof PhpClosure) this.nestedClosure = true;
    // Skipped named arguments take their defaults.
    const filled = args.map((a) => (a === undefined ? (null as Value) : a));
    // The library reads its arguments whole (map() copies and walks `$route`).
    for (const a of filled) this.charge(unitsOf(a));
    return this.library.call(method, filled, site, this.mask);
  }

  private callFunction(rawName: string, node: PhpNode): Value {
    const name = rawName.replace(/^\\/, '');
    const lower = name.toLowerCase();
    switch (lower) {
      case 'define': {
        const [n, v] = this.evalArgs(node.arguments);
        const cname = toPhpString(n ?? null, this);
        if (cname instanceof Unknown) return cname;
        if (this.isDefined(cname)) {
          this.warn(`Constant ${cname} already defined`);
          return false;
        }
        // Constants are one table for all methods: one defined under some methods only (in a verb
        // route's $nested callable, say) needs each method evaluated alone.
        if (this.mask !== this.options.mask) throw new Diverge('a constant is defined under some request methods only');
        this.constants.set(cname, v ?? null);
        return true;
      }
      case 'defined': {
        const [n] = this.evalArgs(node.arguments);
        const cname = toPhpString(n ?? null, this);
        return cname instanceof Unknown ? cname : this.isDefined(cname);
      }
      case 'constant': {
        const [n] = this.evalArgs(node.arguments);
        const cname = toPhpString(n ?? null, this);
        if (cname instanceof Unknown) return cname;
        return this.constant(cname, node);
      }
      case 'glob':
        return this.includes.glob(this.evalArgs(node.arguments), this.span(node));
      case 'function_exists':
        this.evalArgs(node.arguments);
        return new Unknown('function_exists() depends on the application');
      case 'call_user_func': {
        const [fn, ...rest] = this.evalArgs(node.arguments);
        return this.callValue(fn ?? null, rest, this.span(node));
      }
      case 'call_user_func_array': {
        const [fn, list] = this.evalArgs(node.arguments);
        if (list instanceof PhpArray) this.charge(unitsOf(list));
        return list instanceof PhpArray ? this.callValue(fn ?? null, [...list.values()], this.span(node)) : new Unknown('arguments unknown');
      }
    }
    const user = this.functionToCall(lower);
    if (user) return this.callUser(user, this.evalArgs(node.arguments), new Map(), undefined, name);
    if (isBuiltin(lower)) {
      const args = this.evalArgs(node.arguments);
      return this.lift(args, (vals) => callBuiltin(lower, vals, this.builtinContext));
    }
    this.evalArgs(node.arguments);
    return new Unknown(`${name}() is not evaluated (only pure builtins are)`, this.span(node));
  }

  /** A declared function about to be called (spans of what it creates lie in its body, wherever that is). */
  private functionToCall(lower: string): FunctionDeclaration | undefined {
    const declared = this.functions.get(lower);
    if (declared) this.calledFunction = true;
    return declared;
  }

  private readonly builtinContext: BuiltinContext = this.makeBuiltinContext();

  private makeBuiltinContext(): BuiltinContext {
    const version = () => this.options.phpVersion;
    return {
    warn: (m) => this.warn(m),
    call: (fn, a) => this.callValue(fn, a),
    charge: (units) => this.charge(units),
    isFunction: (name) => {
      const route = routeMethodOf(name);
      if (route !== undefined) return routeApi(route) !== undefined;
      if (name.includes('::')) return undefined;
      const lower = name.toLowerCase();
      // Functions CodeIgniter's helpers or the application declare elsewhere are not known.
      return this.functions.has(lower) || isBuiltin(lower) ? true : undefined;
    },
    get phpVersion() {
      return version();
    },
    };
  }

  private callValue(fn: Value, args: Value[], span: Span = this.statementSpan): Value {
    if (fn instanceof PhpClosure) return this.callClosure(fn, args);
    const routeMethod = routeMethodOf(fn);
    if (routeMethod !== undefined) return this.callRoute(routeMethod, args, span, span, args.map(() => span));
    if (typeof fn === 'string') {
      const lower = fn.toLowerCase();
      const user = this.functionToCall(lower);
      if (user) return this.callUser(user, args, new Map(), undefined, fn);
      if (isBuiltin(lower)) return callBuiltin(lower, args, this.builtinContext);
    }
    return new Unknown('call of an unknown callable');
  }

  isCallable(v: Value): boolean {
    if (v instanceof PhpClosure) return true;
    const routeMethod = routeMethodOf(v);
    if (routeMethod !== undefined) return routeApi(routeMethod) !== undefined;
    if (typeof v === 'string') return this.functions.has(v.toLowerCase()) || isBuiltin(v);
    return false;
  }

  /** Called by the library for prefix() callbacks and `$nested` callables. */
  invoke(callable: Value, mask: MethodMask, via: CallSite): void {
    const saved = this.mask;
    this.mask = mask;
    this.via.push(via);
    this.viaSnapshot = this.via.slice();
    try {
      this.callValue(callable, []);
    } finally {
      this.via.pop();
      this.viaSnapshot = this.via.slice();
      this.mask = saved;
    }
  }

  /** Calls a closure with arguments (also used by the router for closure routes). */
  callClosure(closure: PhpClosure, args: Value[]): Value {
    return this.callUser(closure, args, closure.captured, closure.arrowScope, '{closure}', this.closureRefs.get(closure));
  }

  private callUser(
    callee: { readonly node: PhpNode; readonly base: number; readonly source?: IncludedFile },
    args: Value[],
    captured: Map<string, Value>,
    arrowParent: Map<string, Value> | undefined,
    displayName: string,
    refs?: Map<string, Scope>,
  ): Value {
    if (++this.callDepth > MAX_CALL_DEPTH) {
      this.callDepth = 0;
      throw new EvaluationLimit('evaluation stopped: calls nest too deeply (endless recursion?)');
    }
    const fn = callee.node;
    const savedScope = this.scope;
    const savedBase = this.base;
    const savedSource = this.source;
    const savedLines = this.lines;
    const scope = new Scope(this.mask, false);
    scope.arrowParent = arrowParent;
    for (const [k, v] of captured) scope.vars.set(k, shareValue(v));
    for (const [k, home] of refs ?? []) scope.refs.set(k, home);
    const params: PhpNode[] = fn.arguments ?? [];
    this.base = callee.base;
    // Its body lies in the file that declared it.
    if (callee.source !== savedSource) {
      this.source = callee.source;
      this.lines = undefined;
    }
    try {
      let required = 0;
      params.forEach((p, i) => {
        const pname = typeof p.name === 'string' ? p.name : p.name?.name;
        if (p.variadic) {
          scope.vars.set(pname, PhpArray.fromList(args.slice(i)));
          return;
        }
        if (i < args.length && args[i] !== undefined) scope.vars.set(pname, shareValue(args[i]));
        else if (p.value) {
          this.scope = scope;
          scope.vars.set(pname, this.eval(p.value));
        } else required = i + 1;
      });
      if (required > args.length) {
        throw new PhpFatal(
          'ArgumentCountError',
          `Too few arguments to function ${displayName}(), ${args.length} passed and ${params.some((p) => p.value) ? 'at least' : 'exactly'} ${params.filter((p) => !p.value && !p.variadic).length} expected`,
        );
      }
      this.scope = scope;
      if (fn.kind === 'arrowfunc') return this.eval(fn.body);
      const s = this.execList(fn.body?.children);
      return s?.kind === 'return' ? s.value : null;
    } finally {
      this.scope = savedScope;
      this.base = savedBase;
      this.source = savedSource;
      this.lines = savedLines;
      this.callDepth--;
    }
  }
}

function mergeScopes(a: Map<string, Value>, b: Map<string, Value>, meter: WorkMeter): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const [k, va] of a) {
    const vb = b.get(k);
    out.set(k, vb === undefined ? va : mergeValues(va, vb, meter));
  }
  for (const [k, vb] of b) if (!out.has(k)) out.set(k, vb);
  return out;
}

/** Merges two branch outcomes: arrays element by element, so route tables stay usable. */
function mergeValues(a: Value, b: Value, meter: WorkMeter): Value {
  if (sameValue(a, b, meter)) return a;
  if (a instanceof PhpArray && b instanceof PhpArray) {
    meter.charge((a.size + b.size) * ENTRY_UNITS);
    const out = a.clone();
    for (const [k, v] of b.entries()) {
      const cur = out.get(k);
      out.set(k, cur === undefined ? shareValue(v) : mergeValues(cur, v, meter), b.originOf(k) ?? a.originOf(k));
    }
    return out;
  }
  return new Unknown('depends on a condition that cannot be decided statically');
}

function orUnknown(b: boolean | undefined): Value {
  return b === undefined ? new Unknown('comparison with an unknown value') : b;
}

function notOrUnknown(b: boolean | undefined): Value {
  return b === undefined ? new Unknown('comparison with an unknown value') : !b;
}

/** `<`, `>`, `<=`, `>=`, `<=>` by PHP 8's comparison rules (the manual's comparison table). */
function compare(op: string, a: Value, b: Value, sink: { warn(m: string): void }): Value {
  const c = compareValues(a, b, sink);
  if (c instanceof Unknown) return c;
  switch (op) {
    case '<':
      return c < 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '>=':
      return c >= 0;
    default:
      return c;
  }
}

function order(x: number | string, y: number | string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareValues(a: Value, b: Value, sink: { warn(m: string): void }): number | Unknown {
  if (a instanceof Unknown) return a;
  if (b instanceof Unknown) return b;
  if (a instanceof PerMethod || b instanceof PerMethod) return new Unknown('comparison of a value that differs by request method');
  // null with a string: '' and the string; bool or null with anything else: both as booleans.
  if (a === null && typeof b === 'string') return order('', b);
  if (b === null && typeof a === 'string') return order(a, '');
  if (typeof a === 'boolean' || typeof b === 'boolean' || a === null || b === null) {
    const x = toBool(a);
    const y = toBool(b);
    if (x === undefined || y === undefined) return new Unknown('comparison with an unknown value');
    return order(Number(x), Number(y));
  }
  // An array is greater than anything but an array (arrays among themselves: not evaluated here).
  if (a instanceof PhpArray || b instanceof PhpArray) {
    if (a instanceof PhpArray && b instanceof PhpArray) return new Unknown('comparison of two arrays is not evaluated');
    return a instanceof PhpArray ? 1 : -1;
  }
  if (typeof a === 'string' && typeof b === 'string') {
    // Two numeric strings compare as numbers; otherwise byte by byte.
    if (!(isNumericString(a) && isNumericString(b))) return order(a, b);
  } else if (typeof a === 'string' || typeof b === 'string') {
    // A number with a non-numeric string: the number as a string, compared byte by byte (PHP 8).
    const str = (typeof a === 'string' ? a : b) as string;
    if (!isNumericString(str)) {
      const num = typeof a === 'string' ? b : a;
      const text = toPhpString(num, sink);
      if (text instanceof Unknown) return text;
      return typeof a === 'string' ? order(a, text) : order(text, str);
    }
  }
  const x = toNumber(a, sink);
  const y = toNumber(b, sink);
  if (x instanceof Unknown) return x;
  if (y instanceof Unknown) return y;
  return order(x instanceof PhpFloat ? x.value : x, y instanceof PhpFloat ? y.value : y);
}

function describeMatch(v: Value): string {
  if (typeof v === 'string') return `'${v}'`;
  if (typeof v === 'number') return String(v);
  if (v instanceof PhpFloat) return floatToString(v.value);
  return 'of type ' + (v === null ? 'null' : typeof v);
}

function describeKind(kind: string): string {
  const names: Record<string, string> = {
    new: 'object creation (new)',
    propertylookup: 'property access',
    nullsafepropertylookup: 'property access',
    include: 'include/require',
    eval: 'eval()',
    clone: 'clone',
    yield: 'yield',
  };
  return names[kind] ?? kind;
}


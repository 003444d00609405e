import type { IncludedFile, PhpNode, Span } from '../php/ast';
import { markIncludeNotRun } from './variables';
import { LineIndex } from '../php/line-index';
import { nodeSpan, type ParsedFile } from '../php/parse';
import { ALL_METHODS, REQUEST_METHODS, isSingleMethod, methodsIn, type MethodMask } from '../runtime/methods';
import type { RecordedSite, StatementAnchor } from '../runtime/call-site';
import { detachStates } from '../library/library-snapshot';
import { Diverge, RouteLibrary, at, type LibraryHost, type TransientState } from '../library/route-library';
import { RouteClassModel } from '../library/route-class-model';
import type { StaticClassModel } from '../runtime/class-model';
import type { BuiltinContext } from '../runtime/builtins';
import { PhpFatal } from '../runtime/convert';
import { EvaluationLimit } from '../runtime/limits';
import { Includes } from './includes';
import { UNITS_PER_STEP, type WorkMeter } from '../runtime/work-meter';
import { declaresAnyConstant, isReplayableStatement, type ReplayCache } from './replay';
import { restoreLibrary } from '../library/library-snapshot';
import { topLevelFunctions } from './checkpoint';
import type { EvalProblem, FunctionDeclaration, OrderGroup, ProblemCode, RecoveredFatal, RouteCall } from './interpreter-state';
export type { EvalProblem, InterpreterSnapshot, OrderGroup, ProblemCode, RecoveredFatal, RouteCall } from './interpreter-state';
import { PhpArray, PhpClosure, Unknown, type Value } from '../runtime/values';
import type { InterpreterOptions, InterpreterOutcome } from './interpreter-options';
export type { InterpreterOptions, InterpreterOutcome } from './interpreter-options';
import { ExitSignal, MAX_WARNINGS, type InterpreterCore, type Signal } from './interpreter-core';
import type { RecordedWrite } from './statement-effect';
export { MAX_WARNINGS } from './interpreter-core';
import { Scope } from './scope';
import { countsOccurrence, includedReplay, isClean, nextOccurrence, recordStatement, replayEffect, replayIncluded, resumeFrom, takeCheckpoint } from './interpreter-incremental';
import { closeContinuations } from './branches';
import { execNode } from './statements';
import { evalNode } from './expressions';
import { callClosure, invoke, isCallable, makeBuiltinContext } from './calls';
import { withThousands } from '../util/without-icu';

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

/** Stops evaluation when the step budget or the nesting limit is reached. */
export { EvaluationLimit } from '../runtime/limits';

/** Steps a top-level statement with a syntax error may take before it is skipped. */
export const BROKEN_STATEMENT_STEPS = 2_000;

const WARNINGS_CUT = `further warnings are not kept: more than ${withThousands(MAX_WARNINGS)} were raised`;

/** A statement with a syntax error ran out of its steps (see execStatement). */
class BrokenStatementLimit extends Error {}

/** Different problems kept for one place in the file (the rest repeat a loop's). */
const MAX_PROBLEMS_AT_ONE_PLACE = 4;

const MAX_DEPTH = 800;
/** Steps between two readings of the clock (reading it costs about as much as a few steps). */
const STEPS_PER_CLOCK_READING = 1024;

/**
 * Evaluates a parsed route file for a set of request methods at once, without running PHP:
 * an abstract interpreter over php-parser's tree that models exactly the PHP found in route files
 * and answers Unknown (with a reason) for everything else.
 *
 * The class holds the state and runs the top-level statements; each construct is evaluated by a
 * handler module (statements, expressions, assignments, calls, static calls), and checkpoints and
 * replay live in interpreter-incremental.ts. Its members are public for those modules, which see
 * it as an InterpreterCore.
 */
export class Interpreter implements InterpreterCore, LibraryHost, WorkMeter {
  readonly library: RouteLibrary;
  /** The classes `Class::method()` reaches, by lower-case name: the Route library's model. */
  readonly staticClasses: ReadonlyMap<string, StaticClassModel>;
  mask: MethodMask;
  readonly globals: Scope;
  scope: Scope;
  constants: Map<string, Value>;
  functions = new Map<string, FunctionDeclaration>();
  /** For closures with `use (&$x)`: the scope that owns each variable captured by reference. */
  readonly closureRefs = new WeakMap<PhpClosure, Map<string, Scope>>();
  /** A declared function was called: a checkpoint then holds spans in the functions' bodies. */
  calledFunction = false;
  /** A closure captured a variable by reference: its scope cannot be copied into a checkpoint. */
  capturedByReference = false;
  readonly warnings: string[][] = REQUEST_METHODS.map(() => []);
  readonly problems: EvalProblem[] = [];
  readonly calls: RouteCall[] = [];
  /** Calls of methods other than the declaring ones: the few most checks look at. */
  readonly otherCalls: RouteCall[] = [];
  nestedClosure = false;
  readonly via: RecordedSite[] = [];
  /** An immutable copy of `via`, shared by every call recorded until the stack changes. */
  viaSnapshot: readonly RecordedSite[] = [];
  base = 0;
  /** Constants whose value the file cannot change: literals to replay (see run()). */
  private fixedConstants: ReadonlySet<string> = new Set();
  /** The included file running now; undefined while the evaluated file's own statements run. */
  source: IncludedFile | undefined;
  readonly includes: Includes;
  /** The top-level statement being evaluated, where limits are reported (see placeStatement). */
  private recordedStatement: Span = { start: 0, end: 0 };
  private statementShift = 0;
  get statementSpan(): Span {
    const span = this.recordedStatement;
    return this.statementShift === 0 ? span : { start: span.start + this.statementShift, end: span.end + this.statementShift };
  }
  set statementSpan(span: Span) {
    this.recordedStatement = span;
    this.statementShift = 0;
  }
  /** A replayed statement's span as recorded, `delta` further on now: made into a span only if asked (it seldom is, and thousands are replayed per edit). */
  placeStatement(recorded: Span, delta: number): void {
    this.recordedStatement = recorded;
    this.statementShift = delta;
  }
  steps = 0;
  /** Where tick() stops: the budget, or sooner while a statement with a syntax error runs. */
  private stepLimit: number;
  /** When the time budget runs out (clock() reading), and the step count at which the clock is next read. */
  deadline = Infinity;
  nextClockReading = 0;
  private depth = 0;
  callDepth = 0;
  conditionalDepth = 0;
  /** Branch ids of the undecidable conditions being evaluated (`c<offset>:<branch>`). */
  branchStack: string[] = [];
  silenced = 0;
  lines: LineIndex | undefined;
  /** A closure was called from outside since the run (see callClosureSafely). */
  private detached = false;
  /** While a replayable statement runs: where it is (the sites it makes are anchored to it). */
  recording: StatementAnchor | undefined = undefined;
  recordedWrites: RecordedWrite[] | undefined = undefined;
  /** Where the replayed statements that moved since they were recorded start now (see places.ts). */
  moved: ReadonlyMap<StatementAnchor, number> = new Map<StatementAnchor, number>();
  /**
   * Whether `moved` is held by an outcome or a checkpoint as well: copied before the next write
   * (thousands of entries after an edit near the top of a large file; most evaluations write none
   * after handing it out).
   */
  private movedShared = false;

  noteMoved(anchor: StatementAnchor, start: number): void {
    if (this.movedShared) {
      this.moved = new Map(this.moved);
      this.movedShared = false;
    }
    (this.moved as Map<StatementAnchor, number>).set(anchor, start);
  }

  shareMoved(): ReadonlyMap<StatementAnchor, number> {
    this.movedShared = true;
    return this.moved;
  }

  adoptMoved(moved: ReadonlyMap<StatementAnchor, number>): void {
    this.moved = moved;
    this.movedShared = true;
  }
  /** The top-level statement being run is the only one of its text (its nodes are its own: see ParsedFile.repeated). */
  statementUnique = false;
  statementRepeated = false;
  includedOrigins: ReplayCache | undefined = undefined;
  /**
   * How many times each repeated statement node was met (identical statements share a node; see
   * ParsedFile.repeated). A node met once is its statement's occurrence 0 and is not counted: a
   * map of every statement, copied at each resume, was a seventh of what an edit allocated.
   */
  occurrences = new Map<PhpNode, number>();
  /** The last top-level statement was replayed (the state is then clean: see isClean). */
  cleanAfterReplay = false;
  /** Route keys whose mutual order in the tables depends on an undecidable condition (see branchOrderVaries), by condition. */
  readonly orderVaries = new Map<string, OrderGroup>();
  /** The namespace the running code is in ('' for the global one), and the classes the file imports (`use`), by lower-case alias. */
  namespace = '';
  readonly classAliases = new Map<string, string>();
  /** The fatal errors recovered from (with `recover`), in order. */
  readonly recovered: RecoveredFatal[] = [];
  /** Top-level statements resumed past (from a checkpoint), replayed and evaluated, for the editor's timing log. */
  readonly replayStats = { resumed: 0, replayed: 0, evaluated: 0 };

  constructor(
    readonly parsed: ParsedFile,
    readonly options: InterpreterOptions,
  ) {
    this.mask = options.mask;
    this.includes = new Includes(options.includes, {
      currentFile: () => this.file,
      runIncluded: (parsed, source) => this.runIncluded(parsed, source),
      unresolved: (message, span) => {
        this.problem('evaluation-limit', message, span);
        markIncludeNotRun(this.scope, span);
      },
      charge: (units) => this.charge(units),
    }, options.file, options.parser);
    this.stepLimit = options.maxSteps;
    this.globals = new Scope(options.mask, true);
    this.scope = this.globals;
    this.constants = new Map(options.constants);
    this.library = new RouteLibrary(options.dialect, this, options.maxRoutes, options.overlaps, options.tables);
    if (options.libraryStart) restoreLibrary(this.library, options.libraryStart);
    // Another Route class than the library (see Dialect): its calls are not evaluated.
    const route = options.dialect === 'other' ? undefined : new RouteClassModel(this.library);
    this.staticClasses = new Map(route ? [[route.name.toLowerCase(), route]] : []);
  }

  get conditional(): boolean {
    return this.conditionalDepth > 0;
  }

  /** An immutable copy of the branch stack, shared until the stack changes. */
  branchSnapshot: readonly string[] = [];

  get branches(): readonly string[] {
    return this.branchSnapshot;
  }

  /** The file running now (an included one while it runs), for PHP-style messages and __FILE__. */
  get file(): string {
    return this.source?.path ?? this.options.file;
  }

  lineAt(offset: number): number {
    this.lines ??= LineIndex.of(this.source?.text ?? this.parsed.text);
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
    this.fixedConstants = fixed;
    let index = 0;
    const resume = this.options.resume;
    const statements = this.parsed.statements;
    const repeated = this.parsed.repeated;
    const counting = this.options.replay !== undefined && this.options.mask === ALL_METHODS;
    if (resume) index = resumeFrom(this, resume, counting);
    let stoppedAt: number | undefined;
    try {
      outer: for (; index < statements.length; index++) {
        const st = statements[index];
        if (index === this.options.checkpointAt) takeCheckpoint(this, index);
        if (st.chunk.kind !== 'php') continue;
        this.library.startStatement();
        this.base = st.base;
        // Looked up once: whether its text is repeated decides both its occurrence and its origins.
        const single = st.nodes.length === 1;
        const isRepeated = single && repeated.size !== 0 && repeated.has(st.nodes[0]);
        this.statementUnique = single && !isRepeated;
        this.statementRepeated = isRepeated;
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
              const occurrence = isRepeated ? nextOccurrence(this, node) : 0;
              const effect = replay.get(node, occurrence, index);
              // A replayed statement takes its recorded span: no new one per statement and edit.
              if (effect && replayEffect(this, effect, st.chunk.start)) continue;
              this.cleanAfterReplay = false;
              this.statementSpan = this.span(node);
              if (this.options.recover) before = this.markTopLevel();
              if (isClean(this) && isReplayableStatement(node, fixed)) {
                const effect = recordStatement(this, node, st.chunk.start);
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
      closeContinuations(this, 0);
      this.runEnvironmentRoutes();
    } catch (e) {
      closeContinuations(this, 0);
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
    // Handed out settled: the tables never change afterwards.
    this.library.settleTables();
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
      moved: this.shareMoved(),
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

  /** A top-level statement. When the file has syntax errors, a tree php-parser only partly recovered costs only that statement. */
  execStatement(node: PhpNode, broken: boolean): Signal {
    // PHP runs nothing of a file with a syntax error: a broken statement is evaluated for what it
    // shows while being typed, and a loop the parser's recovery made up must not take the budget.
    if (broken) this.stepLimit = Math.min(this.options.maxSteps, this.steps + BROKEN_STATEMENT_STEPS);
    try {
      return this.exec(node);
    } catch (e) {
      if (e instanceof BrokenStatementLimit) {
        this.problem('unsupported', `this statement is incomplete (syntax error) and runs over ${withThousands(BROKEN_STATEMENT_STEPS)} steps: it was skipped`, this.statementSpan);
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
      detachStates(this.library);
      this.constants = new Map(this.constants);
    }
    this.startClock();
    try {
      return callClosure(this, closure, args);
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
  readonly problemsAt = new Map<number, EvalProblem[]>();

  /** `static $x` variables, per declaration: they keep their value from call to call. */
  readonly statics = new Map<PhpNode, Scope>();

  problem(code: ProblemCode, message: string, span: Span, stops = false, routingOnly = false): void {
    let here = this.problemsAt.get(span.start);
    if (here) {
      if (here.length >= MAX_PROBLEMS_AT_ONE_PLACE) return;
      for (const p of here) if (p.code === code && p.message === message) return;
    } else this.problemsAt.set(span.start, (here = []));
    const p: EvalProblem = stops ? { code, message, span, stops } : routingOnly ? { code, message, span, routingOnly } : { code, message, span };
    here.push(p);
    this.problems.push(p);
  }

  span(node: PhpNode): Span {
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
    const saved = { source: this.source, base: this.base, lines: this.lines, origins: this.includedOrigins };
    this.source = source;
    this.lines = undefined;
    try {
      // PHP declares an included file's top-level functions when it is included.
      for (const f of topLevelFunctions(parsed)) if (typeof f.node.name?.name === 'string') this.functions.set(f.node.name.name.toLowerCase(), { ...f, source });
      const replay = includedReplay(this, parsed, source);
      for (let index = 0; index < parsed.statements.length; index++) {
        const st = parsed.statements[index];
        if (st.chunk.kind !== 'php') continue;
        this.base = st.base;
        if (st.tooDeep) throw new EvaluationLimit(`evaluation stopped: a statement of ${source.path} is nested too deeply to analyse`);
        if (replay && replayIncluded(this, replay, parsed, index, this.fixedConstants)) continue;
        // A statement whose text the file repeats shares its nodes with the others: no kept origin (see assignments.ts).
        this.includedOrigins = replay && !(st.nodes.length === 1 && parsed.repeated.has(st.nodes[0])) ? replay : undefined;
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
      this.includedOrigins = saved.origins;
    }
  }

  tick(): void {
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
    throw new EvaluationLimit(`evaluation stopped after ${withThousands(this.options.maxSteps)} steps (an endless loop?): routes after this point are not known`);
  }

  private startClock(startedAt?: number): void {
    const budget = this.options.maxMilliseconds;
    if (budget === undefined || !Number.isFinite(budget)) return;
    this.deadline = (startedAt ?? this.now()) + budget;
    this.nextClockReading = this.steps + STEPS_PER_CLOCK_READING;
  }

  readClock(): void {
    if (this.deadline === Infinity) {
      this.nextClockReading = Infinity;
      return;
    }
    this.nextClockReading = this.steps + STEPS_PER_CLOCK_READING;
    if (this.now() > this.deadline) {
      throw new EvaluationLimit(`evaluation stopped: it took longer than ${withThousands(this.options.maxMilliseconds!)} ms (an endless loop, or very large values?): routes after this point are not known`);
    }
  }

  private now(): number {
    return this.options.clock ? this.options.clock() : performance.now();
  }

  // ---------------------------------------------------------------- the handlers' entry points

  /** A statement: one step, within the nesting limit (see statements.ts). */
  exec(node: PhpNode | null | undefined): Signal {
    if (!node) return undefined;
    this.tick();
    if (++this.depth > MAX_DEPTH) {
      this.depth = 0;
      throw new EvaluationLimit('evaluation stopped: the code is nested too deeply to analyse');
    }
    try {
      return execNode(this, node);
    } finally {
      this.depth--;
    }
  }

  /** An expression: one step, within the nesting limit (see expressions.ts). */
  eval(node: PhpNode | null | undefined): Value {
    if (!node) return null;
    this.tick();
    if (++this.depth > MAX_DEPTH) {
      this.depth = 0;
      throw new EvaluationLimit('evaluation stopped: the code is nested too deeply to analyse');
    }
    try {
      return evalNode(this, node);
    } finally {
      this.depth--;
    }
  }

  /** Called by the library for prefix() callbacks and `$nested` callables. */
  invoke(callable: Value, mask: MethodMask, via: RecordedSite): void {
    invoke(this, callable, mask, via);
  }

  isCallable(v: Value): boolean {
    return isCallable(this, v);
  }

  /** Calls a closure with arguments (also used by the router for closure routes). */
  callClosure(closure: PhpClosure, args: Value[]): Value {
    return callClosure(this, closure, args);
  }

  // ---------------------------------------------------------------- state the handlers keep

  /**
   * Branches of undecidable conditions the rest of the statement list runs in: one branch
   * returned or exited, so what follows runs only when the other was taken. Its routes are then
   * conditional, and never compared with the ended branch's (see compatibleBranches).
   */
  continuations = 0;

  /** `$_SERVER` under each method, made once per evaluation (shared: a write copies it). */
  serverArrays: PhpArray[] | undefined;
  serverWritten = false;

  /** Class names the file declares, lower case, once asked for (see declaresClass). */
  declaredClasses: Set<string> | undefined;

  readonly builtinContext: BuiltinContext = makeBuiltinContext(this);
}

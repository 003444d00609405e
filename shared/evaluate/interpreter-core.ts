import type { IncludedFile, PhpNode, Span } from '../php/ast';
import type { LineIndex } from '../php/line-index';
import type { ParsedFile } from '../php/parse';
import type { MethodMask } from '../runtime/methods';
import type { RecordedSite, StatementAnchor } from '../runtime/call-site';
import type { LibraryHost, RouteLibrary } from '../library/route-library';
import type { BuiltinContext } from '../runtime/builtins';
import type { StaticClassModel } from '../runtime/class-model';
import type { WorkMeter } from '../runtime/work-meter';
import type { Includes } from './includes';
import type { ReplayCache } from './replay';
import type { InterpreterOptions } from './interpreter-options';
import type { EvalProblem, FunctionDeclaration, OrderGroup, ProblemCode, RecoveredFatal, RouteCall } from './interpreter-state';
import type { PhpArray, PhpClosure, Value } from '../runtime/values';
import type { Scope } from './scope';
import type { RecordedWrite } from './statement-effect';

/**
 * The interpreter as its handlers (statements, expressions, assignments, calls, the incremental
 * machinery) see it: its state, and the entry points they recurse through. The Interpreter class
 * is the one implementation; the handlers take it as their first parameter and never import it.
 */
export interface InterpreterCore extends LibraryHost, WorkMeter {
  readonly parsed: ParsedFile;
  readonly options: InterpreterOptions;
  readonly library: RouteLibrary;
  /** The classes `Class::method()` reaches, by lower-case name (the Route library's model). */
  readonly staticClasses: ReadonlyMap<string, StaticClassModel>;
  mask: MethodMask;
  readonly globals: Scope;
  scope: Scope;
  readonly constants: Map<string, Value>;
  functions: Map<string, FunctionDeclaration>;
  /** For closures with `use (&$x)`: the scope that owns each variable captured by reference. */
  readonly closureRefs: WeakMap<PhpClosure, Map<string, Scope>>;
  /** A declared function was called: a checkpoint then holds spans in the functions' bodies. */
  calledFunction: boolean;
  /** A closure captured a variable by reference: its scope cannot be copied into a checkpoint. */
  capturedByReference: boolean;
  readonly warnings: string[][];
  readonly problems: EvalProblem[];
  /** Problems reported so far, by start offset (see Interpreter.problemsAt). */
  readonly problemsAt: Map<number, EvalProblem[]>;
  readonly calls: RouteCall[];
  /** Calls of methods other than the declaring ones: the few most checks look at. */
  readonly otherCalls: RouteCall[];
  nestedClosure: boolean;
  readonly via: RecordedSite[];
  /** An immutable copy of `via`, shared by every call recorded until the stack changes. */
  viaSnapshot: readonly RecordedSite[];
  base: number;
  /** The included file running now; undefined while the evaluated file's own statements run. */
  source: IncludedFile | undefined;
  readonly includes: Includes;
  /** The top-level statement being evaluated, where limits are reported. */
  statementSpan: Span;
  /** Sets statementSpan to a replayed statement's recorded span moved by `delta`. */
  placeStatement(recorded: Span, delta: number): void;
  steps: number;
  /** When the time budget runs out (clock() reading), and the step count at which the clock is next read. */
  readonly deadline: number;
  nextClockReading: number;
  callDepth: number;
  conditionalDepth: number;
  /** Branch ids of the undecidable conditions being evaluated (`c<offset>:<branch>`). */
  readonly branchStack: string[];
  /** An immutable copy of the branch stack, shared until the stack changes. */
  branchSnapshot: readonly string[];
  /** Branches of undecidable conditions the rest of the statement list runs in (see Interpreter.continuations). */
  continuations: number;
  silenced: number;
  lines: LineIndex | undefined;
  /** While a replayable statement runs: where it is (the sites it makes are anchored to it). */
  recording: StatementAnchor | undefined;
  /** While a `$route[...] = ...;` statement is recorded: the entries it writes (see writeElement, RecordedWrite). */
  recordedWrites: RecordedWrite[] | undefined;
  /** Where the replayed statements that moved since they were recorded start now (see places.ts); written through noteMoved(). */
  readonly moved: ReadonlyMap<StatementAnchor, number>;
  /** A statement recorded at `anchor` starts at `start` now. */
  noteMoved(anchor: StatementAnchor, start: number): void;
  /** `moved` as it is now, for an outcome or a checkpoint to keep: later writes copy it first. */
  shareMoved(): ReadonlyMap<StatementAnchor, number>;
  /** Starts from a kept `moved` (a checkpoint's), copied when first written. */
  adoptMoved(moved: ReadonlyMap<StatementAnchor, number>): void;
  /** The top-level statement being run is the only one of its text (its nodes are its own: see ParsedFile.repeated). */
  readonly statementUnique: boolean;
  /** The top-level statement being run shares its text, and so its nodes, with another (see ParsedFile.repeated). */
  readonly statementRepeated: boolean;
  /** While an included file's statement runs: the replay cache of that file whose kept assignment origins it may take (see ReplayCache.keptOrigin). */
  readonly includedOrigins: ReplayCache | undefined;
  /** How many times each repeated statement node was met (see Interpreter.occurrences). */
  occurrences: Map<PhpNode, number>;
  /** The last top-level statement was replayed (the state is then clean: see isClean). */
  cleanAfterReplay: boolean;
  /** Route keys whose mutual order in the tables depends on an undecidable condition (see branchOrderVaries), by condition. */
  readonly orderVaries: Map<string, OrderGroup>;
  /** The namespace the running code is in ('' for the global one), and the classes the file imports (`use`), by lower-case alias. */
  namespace: string;
  readonly classAliases: Map<string, string>;
  /** Class names the file declares, lower case, once asked for (see declaresClass). */
  declaredClasses: Set<string> | undefined;
  /** The fatal errors recovered from (with `recover`), in order. */
  readonly recovered: RecoveredFatal[];
  /** `static $x` variables, per declaration: they keep their value from call to call. */
  readonly statics: Map<PhpNode, Scope>;
  /** `$_SERVER` under each method, made once per evaluation (shared: a write copies it). */
  serverArrays: PhpArray[] | undefined;
  serverWritten: boolean;
  readonly builtinContext: BuiltinContext;
  /** Top-level statements resumed past (from a checkpoint), replayed and evaluated, for the editor's timing log. */
  readonly replayStats: { resumed: number; replayed: number; evaluated: number };

  /** Evaluates an expression (a step; the nesting limit). */
  eval(node: PhpNode | null | undefined): Value;
  /** Runs a statement (a step; the nesting limit). */
  exec(node: PhpNode | null | undefined): Signal;
  /** A top-level statement, which a syntax error costs only itself (see Interpreter.execStatement). */
  execStatement(node: PhpNode, broken: boolean): Signal;
  /** One evaluation step, against the budgets. */
  tick(): void;
  readClock(): void;
  warn(message: string, mask?: MethodMask): void;
  problem(code: ProblemCode, message: string, span: Span, stops?: boolean, routingOnly?: boolean): void;
  /** A node's span in the running file (noted while a statement is recorded). */
  span(node: PhpNode): Span;
}

/** PHP warnings kept per request method; past them one line says that more were raised. */
export const MAX_WARNINGS = 1_000;

/** How a statement ends other than by running to its end. */
export type Signal = { kind: 'break' | 'continue'; levels: number } | { kind: 'return'; value: Value } | undefined;

/** `exit`, `die` and `__halt_compiler()`: nothing after them runs. */
export class ExitSignal extends Error {
  constructor(readonly span: Span) {
    super('exit');
  }
}

/** A node kind as messages name it. */
export function describeKind(kind: string): string {
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

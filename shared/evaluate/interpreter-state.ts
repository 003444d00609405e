import type { IncludedFile, PhpNode, Span } from '../php/ast';
import type { LibrarySnapshot } from '../library/library-snapshot';
import type { RecordedSite, StatementAnchor } from '../runtime/call-site';
import type { MethodMask } from '../runtime/methods';
import type { PhpFatal } from '../runtime/convert';
import type { Value } from '../runtime/values';

/**
 * What the interpreter records and hands out, as types: the interpreter, its checkpoints and its
 * replay all read them, so they live below the three.
 */

/** A function declaration and the offset base of the statement it was parsed from. */
export interface FunctionDeclaration {
  readonly node: PhpNode;
  readonly base: number;
  /** The included file that declared it; undefined for the evaluated file. */
  readonly source?: IncludedFile;
}

export type ProblemCode = 'evaluation-limit' | 'unknown-value' | 'unsupported' | 'exit';

export interface EvalProblem {
  code: ProblemCode;
  message: string;
  span: Span;
  /** An analysis limit stopped the evaluation here: what follows was not evaluated (PHP would go on). */
  stops?: true;
  /** A limit of what the router does with the routes (the file writes its state), not of the routes and names the file declares. */
  routingOnly?: true;
}

/** One evaluation of a `Route::` call. */
export interface RouteCall {
  site: RecordedSite;
  args: Value[];
  mask: MethodMask;
  conditional: boolean;
  /** The enclosing prefix()/nested calls when it ran. */
  via: readonly RecordedSite[];
}

/** Route keys whose mutual order, or whose presence, depends on which branch of `condition` runs (see branchOrderVaries). */
export interface OrderGroup {
  readonly keys: ReadonlySet<string>;
  /** Keys one branch sets and the other does not (nor did anything before): in the table only where that branch runs. */
  readonly onlySome: ReadonlySet<string>;
  readonly condition: Span;
  /** The methods whose tables it concerns. */
  readonly mask: MethodMask;
}

/** A fatal error the evaluation went on past (see InterpreterOptions.recover). */
export interface RecoveredFatal {
  readonly error: PhpFatal;
  /** The methods it stopped. */
  readonly mask: MethodMask;
  /** The top-level statement it failed in, which was skipped. */
  readonly statement: Span;
}

/**
 * The interpreter between two top-level statements, copied: what a later version of the document
 * resumes from (see evaluate/checkpoint.ts). Arrays are shared, so writes after it copy them.
 */
export interface InterpreterSnapshot {
  readonly library: LibrarySnapshot;
  readonly vars: ReadonlyMap<string, Value>;
  readonly globalNames: readonly string[];
  readonly constants: ReadonlyMap<string, Value>;
  readonly functions: ReadonlyMap<string, FunctionDeclaration>;
  readonly warnings: readonly (readonly string[])[];
  readonly problems: readonly EvalProblem[];
  readonly problemsAt: ReadonlyMap<number, readonly EvalProblem[]>;
  readonly calls: readonly RouteCall[];
  readonly otherCalls: readonly RouteCall[];
  readonly nestedClosure: boolean;
  readonly recovered: readonly RecoveredFatal[];
  readonly orderVaries: ReadonlyMap<string, OrderGroup>;
  /** The counted occurrences of the repeated nodes (`repeated`, as the run that took it had them). */
  readonly occurrences: ReadonlyMap<PhpNode, number>;
  readonly repeated: ReadonlySet<PhpNode>;
  /** Where the replayed statements above it that had moved since they were recorded start (see places.ts). */
  readonly moved: ReadonlyMap<StatementAnchor, number>;
  readonly steps: number;
}

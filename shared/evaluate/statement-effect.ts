import type { Span } from '../php/ast';
import type { RouteRecord } from '../library/records';
import type { EvalProblem, RouteCall } from './interpreter-state';

/**
 * What one top-level statement did, recorded so that a later evaluation can redo it cheaply.
 * Never changed: where the statement moved, the later evaluation replays a moved copy (see
 * moved-effect.ts), and the evaluations holding this one's objects keep them as they were.
 */
export interface StatementEffect {
  /** The statement's document offset: every span below is where it was at this offset. */
  readonly start: number;
  /** Records created, per request method, in creation order. */
  readonly records: readonly (readonly RouteRecord[])[];
  readonly calls: readonly RouteCall[];
  /** The calls of methods other than the declaring ones (see Interpreter). */
  readonly otherCalls: readonly RouteCall[];
  readonly warnings: readonly (readonly string[])[];
  readonly problems: readonly EvalProblem[];
  readonly steps: number;
  /** The statement's own span. */
  readonly statement: Span;
}

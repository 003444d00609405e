import type { Span } from '../php/ast';
import type { AssignmentOrigin, RouteRecord } from '../library/records';
import type { Key, Value } from '../runtime/values';
import type { BelowLookups } from '../library/record-table';
import type { StatementAnchor } from '../runtime/call-site';
import type { RouteCall } from './interpreter-state';

/**
 * What one top-level statement did, recorded so that a later evaluation can redo it cheaply.
 * Never changed: its records, calls and sites keep the place the statement had when it ran, and
 * an evaluation that replays it elsewhere lists where it is now (see places.ts). A statement that
 * reported a problem is not recorded.
 */
export interface StatementEffect {
  /** Where the statement started when recorded (every site below is placed there). */
  readonly anchor: StatementAnchor;
  /** Records created, per request method, in creation order. */
  readonly records: readonly (readonly RouteRecord[])[];
  /**
   * Per request method with records, what they found beneath them when last replayed: the
   * replay cache's memo (see BelowLookups), not part of what the statement did.
   */
  readonly lookups: readonly (BelowLookups | undefined)[];
  readonly calls: readonly RouteCall[];
  /** The calls of methods other than the declaring ones (see Interpreter). */
  readonly otherCalls: readonly RouteCall[];
  readonly warnings: readonly (readonly string[])[];
  readonly steps: number;
  /** The statement's own span, where it was recorded. */
  readonly statement: Span;
  /** For `$route['literal'] = literal;`: the entry it wrote (see replayRouteWrite). */
  readonly write?: RecordedWrite;
}

/** An entry a top-level `$route[...] = ...;` wrote into `$route`: its key as PHP cast it, the value stored, its origin. */
export interface RecordedWrite {
  readonly key: Key;
  readonly value: Value;
  readonly origin: AssignmentOrigin;
  /**
   * Written into `$route` holding one array per request method (after `$route = Route::map($route);`,
   * which makes each method's table): the same entry into each method's array.
   */
  readonly eachMethod?: true;
}

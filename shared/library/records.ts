import type { Span } from '../php/ast';
import type { RecordedSite, StatementAnchor } from '../runtime/call-site';
import type { Key, Value } from '../runtime/values';
import { shareValue } from '../runtime/values';
import { sameItems } from '../util/same-items';

export type { CallSite, RecordedSite, StatementAnchor } from '../runtime/call-site';
/**
 * The key a route whose path cannot be known statically stands under in its table: unique per
 * declaration, never equal to a real path, kept in its place so that what follows it is known
 * to follow an unknown route.
 */
export const DYNAMIC_KEY_PREFIX = '\u0000dynamic:';

export function isDynamicKey(key: unknown): boolean {
  return typeof key === 'string' && key.startsWith(DYNAMIC_KEY_PREFIX);
}

/** The last record id given: ids name records in table prints (see RecordTable), unique in the process. */
let recordIds = 0;

export function newRecordId(): number {
  return ++recordIds;
}

/** Why a route record's path is unknown (kept beside the record: most records have a known one). */
const unknownPaths = new WeakMap<RouteRecord, string>();

export function setUnknownPath(record: RouteRecord, reason: string): void {
  unknownPaths.set(record, reason);
}

export function unknownPathOf(record: RouteRecord): string | undefined {
  return unknownPaths.get(record);
}

/** A map() or reset() call under one request method, and when it ran (see MethodState.callTicks). */
export interface CallTick {
  readonly site: RecordedSite;
  readonly at: number;
}

/** Which row of an expansion a generated route is (resources, context, block). */
export type ExpansionRow =
  | 'index' | 'create_new' | 'edit' | 'show' | 'create' | 'update' | 'delete'
  | 'context-6' | 'context-5' | 'context-4' | 'context-3' | 'context-2' | 'context-1' | 'home'
  | `path-${number}`;

/**
 * A route the library stored under one or more request methods: one object for the same route a
 * call declared under several (any(), context(), block()), in each of their tables. Never changed
 * once made: an editor's successive evaluations share the records of the statements they replay
 * or resume past. What later statements do to it under each method (replace it, reset it, map()
 * it over an entry) is in that method's RecordMarks.
 */
export interface RouteRecord {
  readonly kind: 'route';
  readonly id: number;
  /** The key in the library's array: the full `$from`, prefixes included, cast as PHP casts keys. */
  readonly key: Key;
  readonly to: Value;
  /** `to` is a string without `{default_controller}`: map() stores it as it is. */
  readonly plainTarget: boolean;
  /** The `'as'` name stored with it, if any. */
  readonly name?: Key;
  /** The call that produced it (for generated routes, the resources()/context()/block() call). */
  readonly site: RecordedSite;
  readonly row?: ExpansionRow;
  /** Enclosing calls whose callbacks were running: prefix() and routes whose `$nested` ran. */
  readonly via: readonly RecordedSite[];
  /** The prefix and nested prefix that were put in front of `$from`. */
  readonly prefix: string;
  readonly nestedPrefix: string;
  /** Declared under a condition the evaluator could not decide. */
  readonly conditional: boolean;
  /** `$from` or `$to` could not be known statically. */
  readonly dynamic: boolean;
  /** Set when created while a `$nested` callable ran: what the nesting quirks did to it. */
  readonly nested?: NestingInfo;
  /** Which branches of undecidable conditions it was declared in (`condition:branch` ids). */
  readonly branches: readonly string[];
}

/** What a new record is made of (its id and plainTarget follow). */
export type RecordFields = Omit<RouteRecord, 'kind' | 'id' | 'plainTarget'>;

export function newRecord(f: RecordFields): RouteRecord {
  // Every field, in one order, from the start: all records share one hidden class, so the
  // loops replaying and mapping tens of thousands of them stay monomorphic.
  return {
    kind: 'route',
    id: newRecordId(),
    key: f.key,
    to: shareValue(f.to),
    plainTarget: typeof f.to === 'string' && !f.to.includes('{default_controller}'),
    name: f.name,
    site: f.site,
    row: f.row,
    via: f.via,
    prefix: f.prefix,
    nestedPrefix: f.nestedPrefix,
    conditional: f.conditional,
    dynamic: f.dynamic,
    branches: f.branches,
    nested: f.nested,
  };
}

/** Whether a record is what these fields would make (its own values: `to` the same string or object). */
export function sameRecordFields(r: RouteRecord, f: RecordFields): boolean {
  return (
    r.key === f.key &&
    r.to === f.to &&
    r.name === f.name &&
    r.site === f.site &&
    r.row === f.row &&
    r.prefix === f.prefix &&
    r.nestedPrefix === f.nestedPrefix &&
    r.conditional === f.conditional &&
    r.dynamic === f.dynamic &&
    (r.via === f.via || sameItems(r.via, f.via)) &&
    (r.branches === f.branches || sameItems(r.branches, f.branches)) &&
    (r.nested === f.nested ||
      (r.nested !== undefined && f.nested !== undefined && r.nested.parent === f.nested.parent && r.nested.depthSeen === f.nested.depthSeen && r.nested.nestOffset === f.nested.nestOffset))
  );
}

export interface NestingInfo {
  /** The route call whose `$nested` callable was running. */
  readonly parent: RecordedSite;
  /** `$nested_depth` when this route was created (only the first route inside sees 1). */
  readonly depthSeen: number;
  /** For resources(): whether the `/$1` nest offset was inserted into its targets. */
  readonly nestOffset?: boolean;
}

/** Where an entry written into an array is: the assignment, its key, its value. */
export interface EntryPlace {
  readonly span: Span;
  readonly keySpan?: Span;
  readonly valueSpan: Span;
}

/**
 * An entry written straight into an array, e.g. `$route['x'] = 'y';`. An editor's evaluations
 * keep one object per assignment while it does not change (see evaluate/replay.ts keptOrigin),
 * placed where it was made: read its place in an evaluation's text with `places.entry()`.
 */
export interface AssignmentOrigin {
  readonly kind: 'assignment';
  readonly placed: EntryPlace;
  /** Set for an assignment an editor's evaluations share: its statement may since have moved. */
  readonly anchor?: StatementAnchor;
  readonly conditional: boolean;
  readonly branches: readonly string[];
  /** The entry this assignment replaced in the same array, if any. */
  readonly replaced?: EntryOriginInfo;
}

/** An element of an array literal (`array('as' => 'x')`), so analyses can point at its key. */
export interface LiteralOrigin {
  readonly kind: 'literal';
  readonly span: Span;
  readonly keySpan?: Span;
  readonly valueSpan: Span;
  /** Set when made in a statement recorded for replay: read its spans placed with `places.literal()`. */
  readonly anchor?: StatementAnchor;
}

export type EntryOriginInfo = RouteRecord | AssignmentOrigin | LiteralOrigin;

/**
 * An assignment's origin, every field written in one order: the checks read the origins of tens of
 * thousands of entries per edit, which stays fast only while they share one hidden class (object
 * spreads made a new one every few hundred objects, and each read about six times slower).
 */
export function assignmentOrigin(o: Omit<AssignmentOrigin, 'kind'>): AssignmentOrigin {
  return { kind: 'assignment', placed: o.placed, anchor: o.anchor, conditional: o.conditional, branches: o.branches, replaced: o.replaced };
}

/** A literal's origin, every field written in one order (see assignmentOrigin). */
export function literalOrigin(o: Omit<LiteralOrigin, 'kind'>): LiteralOrigin {
  return { kind: 'literal', span: o.span, keySpan: o.keySpan, valueSpan: o.valueSpan, anchor: o.anchor };
}

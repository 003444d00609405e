import type { RecordedSite, CallTick, EntryOriginInfo, RouteRecord } from './records';

/** Marks as they were at one moment, shared by the states built on them and never changed (see RecordMarks.freeze). */
export interface FrozenMarks {
  readonly replacedBy: ReadonlyMap<RouteRecord, RouteRecord>;
  readonly reset: ReadonlyMap<RouteRecord, CallTick>;
  readonly overwrote: ReadonlyMap<RouteRecord, EntryOriginInfo>;
}

const NONE: FrozenMarks = { replacedBy: new Map(), reset: new Map(), overwrote: new Map() };

/**
 * What statements after a record's creation did to it under one request method: the record that
 * replaced it, the reset() that dropped it, the entry map() wrote
 * it over. Kept by the evaluation's library state, not in the record: an editor's successive
 * evaluations share the records of the statements they replay or resume past, and an evaluation
 * handed out must not change when the next one runs.
 *
 * Like RecordTable, marks may read beneath their own those of a checkpoint (frozen): resuming
 * from one costs nothing per record.
 */
export class RecordMarks {
  private below: FrozenMarks = NONE;
  private replacedByOwn: Map<RouteRecord, RouteRecord> | undefined;
  private resetOwn: Map<RouteRecord, CallTick> | undefined;
  private overwroteOwn: Map<RouteRecord, EntryOriginInfo> | undefined;

  /** Marks that start as the frozen ones. */
  static on(frozen: FrozenMarks): RecordMarks {
    const marks = new RecordMarks();
    marks.below = frozen;
    return marks;
  }

  replaced(record: RouteRecord, by: RouteRecord): void {
    (this.replacedByOwn ??= new Map()).set(record, by);
  }

  wasReset(record: RouteRecord, by: CallTick): void {
    (this.resetOwn ??= new Map()).set(record, by);
  }

  overwrites(record: RouteRecord, entry: EntryOriginInfo): void {
    (this.overwroteOwn ??= new Map()).set(record, entry);
  }

  /** The later declaration of the same key that replaced it in the library's table. */
  replacedBy(record: RouteRecord): RouteRecord | undefined {
    return this.replacedByOwn?.get(record) ?? this.below.replacedBy.get(record);
  }

  /** The `Route::reset()` call that dropped it. */
  resetBy(record: RouteRecord): CallTick | undefined {
    return this.resetOwn?.get(record) ?? this.below.reset.get(record);
  }

  /** Whether map() overwrote any entry with a route (most files: none, and nothing to look up). */
  get anyOverwrote(): boolean {
    return (this.overwroteOwn !== undefined && this.overwroteOwn.size > 0) || this.below.overwrote.size > 0;
  }

  /** An entry written straight into the array that map() overwrote in place with this route. */
  overwrote(record: RouteRecord): EntryOriginInfo | undefined {
    return this.overwroteOwn?.get(record) ?? this.below.overwrote.get(record);
  }

  /** The marks as they are now, leaving these as they are (see MethodState.copy). */
  merged(): FrozenMarks {
    return {
      replacedBy: merged(this.below.replacedBy, this.replacedByOwn),
      reset: merged(this.below.reset, this.resetOwn),
      overwrote: merged(this.below.overwrote, this.overwroteOwn),
    };
  }

  /** The marks as they are now, for states built later (RecordMarks.on); these go on marking beside them. */
  freeze(): FrozenMarks {
    const frozen = this.merged();
    this.below = frozen;
    this.replacedByOwn = this.resetOwn = this.overwroteOwn = undefined;
    return frozen;
  }
}

/** `below` with `own` over it: `below` itself when `own` adds nothing (never `own`, which goes on changing). */
function merged<V>(below: ReadonlyMap<RouteRecord, V>, own: Map<RouteRecord, V> | undefined): ReadonlyMap<RouteRecord, V> {
  if (!own || own.size === 0) return below;
  const all = new Map(below);
  own.forEach((v, k) => all.set(k, v));
  return all;
}

/**
 * The map() calls that copied a record into an array: those that ran while it was in the table
 * (after it was added, before it was replaced or reset). Derived rather than written into every
 * record by every map() call: on each edit of a large file that was tens of thousands of writes.
 */
export function mappedBy(record: RouteRecord, state: MarkedState): RecordedSite[] {
  return state.maps.filter(whileIn(record, state)).map((map) => map.site);
}

/** Whether a map() call copied the record (see mappedBy). */
export function wasMapped(record: RouteRecord, state: MarkedState): boolean {
  return state.maps.length > 0 && state.maps.some(whileIn(record, state));
}

/** What mappedBy reads of a method's library state. */
export interface MarkedState {
  readonly maps: readonly CallTick[];
  readonly marks: RecordMarks;
  /** The records created, in order: each add, map() and reset() is a tick. */
  readonly created: readonly RouteRecord[];
  /** The ticks of the map() and reset() calls, in order. */
  readonly callTicks: readonly number[];
}

/**
 * Each record's place in `created`, once a list is asked about often (a list handed out never
 * changes): most analyses ask about a few replaced records, found faster by a scan than by
 * indexing tens of thousands on every edit.
 */
const positions = new WeakMap<readonly RouteRecord[], { asked: number; at?: Map<RouteRecord, number> }>();
const SCANS_BEFORE_INDEX = 32;

/** The tick at which a record was added to its method's table; -1 for a record of another state. */
export function addedAt(record: RouteRecord, state: MarkedState): number {
  const created = state.created;
  let memo = positions.get(created);
  if (memo === undefined || (memo.at !== undefined && memo.at.size !== created.length)) positions.set(created, (memo = { asked: 0 }));
  let i: number | undefined;
  if (memo.at === undefined && ++memo.asked <= SCANS_BEFORE_INDEX) i = created.lastIndexOf(record);
  else {
    if (memo.at === undefined) {
      memo.at = new Map();
      for (let j = 0; j < created.length; j++) memo.at.set(created[j], j);
    }
    i = memo.at.get(record);
  }
  return i === undefined || i < 0 ? -1 : tickOfAdd(i, state.callTicks);
}

/**
 * The tick of the `i`-th add: `i` adds and every call whose tick came before it. The `j`-th call
 * came after `callTicks[j] - j` adds (a non-decreasing count): it came before the `i`-th add when
 * that count is at most `i`.
 */
function tickOfAdd(i: number, callTicks: readonly number[]): number {
  let lo = 0;
  let hi = callTicks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (callTicks[mid] - mid <= i) lo = mid + 1;
    else hi = mid;
  }
  return i + lo;
}

/** Whether a map() call ran while the record was in the table. */
function whileIn(record: RouteRecord, state: MarkedState): (map: CallTick) => boolean {
  const marks = state.marks;
  const replacedBy = marks.replacedBy(record);
  const left = Math.min(replacedBy ? addedAt(replacedBy, state) : Infinity, marks.resetBy(record)?.at ?? Infinity);
  const added = addedAt(record, state);
  return (map) => map.at > added && map.at < left;
}

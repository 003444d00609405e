import type { Key, Value } from '../runtime/values';
import type { RouteRecord } from './records';
import { printPart, StorePrint, type PrintPart } from '../util/running-hash';

/** A table's routes at one moment, shared by the tables built on it and never changed (see RecordTable.freeze). */
export interface FrozenTable {
  readonly routes: ReadonlyMap<Key, RouteRecord>;
  readonly unplain: number;
  /** Names these routes (see BelowLookups.find) without holding them. */
  readonly id: number;
  /** What they hold (see TablePrint): a table built on them goes on from it. */
  readonly print: TablePrint;
}

/**
 * What the records of one replayed statement found beneath them in the frozen routes of one
 * table (null: nothing), by their index: an edit replays the statements below a checkpoint over
 * the same frozen routes, and the lookups are then the same. A memo of a pure function of the
 * frozen routes' id and the record, kept by the replay cache beside the statement's effect; a
 * field compare and an array read where a lookup in a large map misses the processor's caches.
 */
export class BelowLookups {
  private frozenId = 0;
  private found: (RouteRecord | null | undefined)[] = [];
  /** The table's print before the statement's records were stored when `previous` was recorded (see RecordTable.store). */
  private startN = -1;
  private startH1 = 0;
  private startH2 = 0;
  /** What each record replaced then, by index; undefined: none replaced anything. */
  private previous: (RouteRecord | undefined)[] | undefined;
  /** What the stores changed then: routes added (keys new to the table), targets to convert. */
  private added = 0;
  private unplainAdded = 0;
  /** The records' ids as a table's print takes them (see StorePrint). */
  private part: PrintPart | undefined;
  /** Whether a record was made while a `$nested` callable ran. */
  private nested = false;

  /** The route under `key` in `frozen` (id `frozenId`), for the record at `index`. */
  find(frozen: ReadonlyMap<Key, RouteRecord>, frozenId: number, key: Key, index: number): RouteRecord | undefined {
    if (this.frozenId !== frozenId) {
      // Emptied in place: thousands of these are asked again after each edit below a new checkpoint.
      this.frozenId = frozenId;
      this.found.fill(undefined);
    }
    let below = this.found[index];
    if (below === undefined) this.found[index] = below = frozen.get(key) ?? null;
    return below ?? undefined;
  }

  /** Whether the records are stored again on a table that holds what it held when `previous` was recorded. */
  startsAt(stored: StorePrint): boolean {
    return stored.is(this.startN, this.startH1, this.startH2);
  }

  /** Records are stored on a table holding this (what each replaces follows, by recordPrevious). */
  recordStart(stored: StorePrint): void {
    this.startN = stored.n;
    this.startH1 = stored.h1;
    this.startH2 = stored.h2;
    this.previous = undefined;
    this.added = 0;
    this.unplainAdded = 0;
    this.nested = false;
  }

  /** What storing the record at `index` replaced (every index, in order, after recordStart). */
  recordPrevious(index: number, record: RouteRecord, previous: RouteRecord | undefined): void {
    if (record.nested) this.nested = true;
    if (previous) {
      (this.previous ??= [])[index] = previous;
      if (!previous.plainTarget) this.unplainAdded--;
    } else this.added++;
    if (!record.plainTarget) this.unplainAdded++;
  }

  /** What storing the records changes in a table's counts (see RecordTable.replayAll). */
  get routesAdded(): number {
    return this.added;
  }

  get unplainTargetsAdded(): number {
    return this.unplainAdded;
  }

  /** The records' part of a table's print (they are the same records every time). */
  printPartOf(records: readonly RouteRecord[]): PrintPart {
    return (this.part ??= printPart(records.map((r) => r.id)));
  }

  /** Whether any of the records replaced a route when last stored one by one. */
  get replacedAny(): boolean {
    return this.previous !== undefined;
  }

  /** Whether any of the records was made while a `$nested` callable ran (recorded with what they replaced). */
  get madeNested(): boolean {
    return this.nested;
  }

  previousAt(index: number): RouteRecord | undefined {
    return this.previous?.[index];
  }
}

/**
 * Route tables of a document's last evaluations, by what they hold (their print): a table whose
 * records wait unstored (see RecordTable.replayAll) reads the routes of an earlier table with the
 * same print instead of storing them one by one. A document's (its DocumentState's); the tables
 * it gives are those of evaluations handed out (never written again): not the running one's,
 * whose tables of two methods may hold the same records (one record for a route declared under
 * both) while one of them is still being written.
 */
export class RecentTables {
  private readonly tables: RecordTable[] = [];

  /** The last tables settled: two versions' eight methods. */
  static readonly KEPT = 16;

  /** A settled table holding what one with this print holds. */
  find(stored: StorePrint): RecordTable | undefined {
    for (const table of this.tables) if (table.handedOut && table.holdsPrint(stored)) return table;
    return undefined;
  }

  remember(table: RecordTable): void {
    if (this.tables.includes(table)) return;
    this.tables.push(table);
    if (this.tables.length > RecentTables.KEPT) this.tables.shift();
  }
}

/** The last id given to frozen routes (0 names none). */
let lastFrozenId = 0;

/**
 * What a table holds, comparable in constant time between evaluations: a running hash of every
 * record stored since the table was empty, in order, whatever frozen routes it reads beneath its
 * own (each record is one object with one id, kept by replay, in the tables of every method it was made for). Equal
 * prints mean the same records stored in the same order, so the same routes, short of a 64-bit
 * collision (see StorePrint): two versions' tables compare equal wherever their checkpoints lie.
 */
export interface TablePrint {
  readonly stores: number;
  readonly h1: number;
  readonly h2: number;
}

/** The same table content (see TablePrint). */
export function samePrint(a: TablePrint, b: TablePrint): boolean {
  return a.stores === b.stores && a.h1 === b.h1 && a.h2 === b.h2;
}

function printOf(stored: StorePrint): TablePrint {
  return { stores: stored.n, h1: stored.h1, h2: stored.h2 };
}

/**
 * The library's array of routes under one request method: each `$from` with the record stored
 * under it (the PHP value is the record's `$to`). One map from key to record, where a PhpArray
 * keeps values and origins in two: an editor stores every record of a large file into these
 * tables on every edit.
 *
 * A table may read beneath its own routes a frozen one it was built on (an evaluation resumed
 * from a checkpoint starts from the routes above the edit without copying them): a key of the
 * frozen routes keeps its place when stored again, other keys follow in the order stored.
 */
export class RecordTable {
  private base: ReadonlyMap<Key, RouteRecord> | undefined;
  private baseId = 0;
  private own = new Map<Key, RouteRecord>();
  /** Keys of `own` that `base` holds too: routes stored over a frozen one, in its place. */
  private over: Set<Key> | undefined;
  /** Views reading the table as it is (see MappedRoutes), told once before it next changes. */
  private readers: (() => void)[] | undefined;
  /** Routes whose target map() must convert (see RouteRecord.plainTarget). */
  private unplain = 0;
  /** The records stored since the table was empty, by id in store order, `base`'s included (see TablePrint). */
  private stored = new StorePrint();
  /** How many routes it holds (kept as stored: `pending` records are not in `own` yet). */
  private count = 0;
  /**
   * Replayed statements' records stored where they found what they found last time (see
   * replayAll()), not yet in `own`: read, the table first takes an earlier table's routes with
   * the same print, or stores them.
   */
  private pending: (readonly RouteRecord[])[] | undefined;
  /** `own` and `over` are another table's too (see RecentTables): copied before a write. */
  private ownShared = false;
  /** The document's recent tables, when it has them. */
  recall: RecentTables | undefined;
  /** Settled with the evaluation it belongs to, which is handed out: never written again (see RecentTables). */
  handedOut = false;

  /** A table whose routes are, until stored over, the frozen ones. */
  static on(frozen: FrozenTable, recall?: RecentTables): RecordTable {
    const table = new RecordTable();
    table.base = frozen.routes;
    table.baseId = frozen.id;
    table.unplain = frozen.unplain;
    table.count = frozen.routes.size;
    table.stored = StorePrint.of(frozen.print.stores, frozen.print.h1, frozen.print.h2);
    table.recall = recall;
    return table;
  }

  /**
   * The routes as they are now, for tables built later (RecordTable.on); this table goes on
   * storing beside them. Costs a copy only when the table itself reads frozen routes beneath new ones.
   */
  freeze(): FrozenTable {
    this.settle();
    if (this.base === undefined || this.own.size > 0) {
      let routes = this.own;
      if (this.base) {
        routes = new Map();
        this.forEachRecord((record, key) => routes.set(key, record));
      }
      this.base = routes;
      this.baseId = ++lastFrozenId;
      this.own = new Map();
      this.over = undefined;
      this.ownShared = false;
    }
    return { routes: this.base, unplain: this.unplain, id: this.baseId, print: printOf(this.stored) };
  }

  /** The routes as they are now, as freeze() gives them, leaving this table as it is (a table handed out with an evaluation). */
  frozenCopy(): FrozenTable {
    this.settle();
    if (this.base !== undefined && this.own.size === 0) return { routes: this.base, unplain: this.unplain, id: this.baseId, print: printOf(this.stored) };
    const routes = new Map<Key, RouteRecord>();
    this.forEachRecord((record, key) => routes.set(key, record));
    return { routes, unplain: this.unplain, id: ++lastFrozenId, print: printOf(this.stored) };
  }

  print(): TablePrint {
    return printOf(this.stored);
  }

  get size(): number {
    return this.count;
  }

  /** The PHP value under `key`: the route's `$to`. */
  get(key: Key): Value | undefined {
    return this.originOf(key)?.to;
  }

  has(key: Key): boolean {
    if (this.pending) this.settle();
    return this.own.has(key) || (this.base?.has(key) ?? false);
  }

  originOf(key: Key): RouteRecord | undefined {
    if (this.pending) this.settle();
    return this.own.get(key) ?? this.base?.get(key);
  }

  /** Whether it holds, settled, what a table with this print holds (see RecentTables). */
  holdsPrint(stored: StorePrint): boolean {
    return this.pending === undefined && this.stored.is(stored.n, stored.h1, stored.h2);
  }

  /**
   * Puts the records stored without a lookup into `own`: the routes of an earlier table with the
   * same print (shared, copied before a write), or each stored. Then remembered, for the next
   * version's tables. Evaluations hand out settled tables only (they never change afterwards).
   */
  settle(): void {
    const pending = this.pending;
    if (pending) {
      // Found before `pending` is emptied: this table is not yet the one it seeks.
      const same = this.recall?.find(this.stored);
      this.pending = undefined;
      if (same) {
        // The same routes, read as that table reads them: beneath its own, the frozen ones it was
        // built on (another checkpoint's when the last version resumed from another place).
        this.base = same.base;
        this.baseId = same.baseId;
        this.own = same.own;
        this.over = same.over;
        this.ownShared = true;
      } else {
        if (this.ownShared) this.unshare();
        const { own, base } = this;
        for (const records of pending) {
          for (let i = 0; i < records.length; i++) {
            const record = records[i];
            const key = record.key;
            if (base && !own.has(key) && base.has(key)) (this.over ??= new Set()).add(key);
            own.set(key, record);
          }
        }
      }
    }
    this.recall?.remember(this);
  }

  private unshare(): void {
    this.own = new Map(this.own);
    if (this.over) this.over = new Set(this.over);
    this.ownShared = false;
  }

  /**
   * `$routes[$key] = $to` for a record; returns the record it replaces (an existing key keeps its
   * position). A replayed record passes its statement's lookups and its index among them.
   */
  store(record: RouteRecord, lookups?: BelowLookups, index = 0): RouteRecord | undefined {
    if (this.readers) this.notifyReaders();
    if (this.pending) this.settle();
    if (this.ownShared) this.unshare();
    // A replayed statement's records not stored by replayAll(): what they replace is recorded for next time.
    if (lookups && index === 0) lookups.recordStart(this.stored);
    const key = record.key;
    let previous = this.own.get(key);
    const base = this.base;
    if (previous === undefined && base) {
      previous = lookups ? lookups.find(base, this.baseId, key, index) : base.get(key);
      if (previous) (this.over ??= new Set()).add(key);
    }
    this.own.set(key, record);
    lookups?.recordPrevious(index, record, previous);
    this.noteStored(record, previous);
    return previous;
  }

  /**
   * A replayed statement's records stored on a table holding what it held when they were last
   * stored one by one (store() with the same lookups): they replace what they replaced then
   * (`lookups.previousAt`), and wait in `pending`, the table's print and counts moved on at once.
   * An edit leaves most methods' tables as they were, and each would otherwise be built again
   * record by record. False, doing nothing, when the table holds something else.
   */
  replayAll(records: readonly RouteRecord[], lookups: BelowLookups): boolean {
    if (!lookups.startsAt(this.stored)) return false;
    if (this.readers) this.notifyReaders();
    (this.pending ??= []).push(records);
    this.stored.append(lookups.printPartOf(records));
    this.count += lookups.routesAdded;
    this.unplain += lookups.unplainTargetsAdded;
    return true;
  }

  private noteStored(record: RouteRecord, previous: RouteRecord | undefined): void {
    this.stored.add(record.id);
    if (!previous) this.count++;
    else if (!previous.plainTarget) this.unplain--;
    if (!record.plainTarget) this.unplain++;
  }

  /** Every route's target is a plain string map() stores as it is. */
  get allTargetsPlain(): boolean {
    return this.unplain === 0;
  }

  /** Whether a view reads the table as it is (it must then be settled before a copy of it is taken). */
  get hasReaders(): boolean {
    return this.readers !== undefined;
  }

  /** Calls `settle` once, before the table next changes. */
  beforeNextChange(settle: () => void): void {
    (this.readers ??= []).push(settle);
  }

  private notifyReaders(): void {
    const readers = this.readers!;
    this.readers = undefined;
    for (const settle of readers) settle();
  }

  *keys(): IterableIterator<Key> {
    for (const [key] of this.entries()) yield key;
  }

  /** [key, `$to`] pairs in PHP order. */
  *entries(): IterableIterator<[Key, Value]> {
    const entries: [Key, Value][] = [];
    this.forEachRecord((record, key) => entries.push([key, record.to]));
    yield* entries;
  }

  /** Each route in order with its record, as PhpArray.forEachEntry gives entries. */
  forEachEntry(fn: (to: Value, key: Key, record: RouteRecord) => void): void {
    this.forEachRecord((record, key) => fn(record.to, key, record));
  }

  private forEachRecord(fn: (record: RouteRecord, key: Key) => void): void {
    if (this.pending) this.settle();
    const { base, own, over } = this;
    if (!base) {
      own.forEach(fn);
    } else if (!over) {
      base.forEach(fn);
      own.forEach(fn);
    } else {
      base.forEach((record, key) => fn(over.has(key) ? own.get(key)! : record, key));
      own.forEach((record, key) => {
        if (!over.has(key)) fn(record, key);
      });
    }
  }
}

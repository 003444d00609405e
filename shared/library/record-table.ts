import type { Key, Value } from '../evaluate/values';
import type { RouteRecord } from './records';

/**
 * The library's array of routes under one request method: each `$from` with the record stored
 * under it (the PHP value is the record's `$to`). One map from key to record, where a PhpArray
 * keeps values and origins in two: an editor replays every record of a large file into these
 * tables on every edit.
 */
export class RecordTable {
  private byKey = new Map<Key, RouteRecord>();
  /** Views reading the table as it is (see MappedRoutes), told once before it next changes. */
  private readers: (() => void)[] | undefined;
  /** Routes whose target map() must convert (see RouteRecord.plainTarget). */
  private unplain = 0;

  get size(): number {
    return this.byKey.size;
  }

  /** The PHP value under `key`: the route's `$to`. */
  get(key: Key): Value | undefined {
    return this.byKey.get(key)?.to;
  }

  has(key: Key): boolean {
    return this.byKey.has(key);
  }

  originOf(key: Key): RouteRecord | undefined {
    return this.byKey.get(key);
  }

  /** `$routes[$key] = $to` for a record; returns the record it replaces (an existing key keeps its position). */
  store(record: RouteRecord): RouteRecord | undefined {
    if (this.readers) this.notifyReaders();
    const previous = this.byKey.get(record.key);
    this.byKey.set(record.key, record);
    if (previous && !previous.plainTarget) this.unplain--;
    if (!record.plainTarget) this.unplain++;
    return previous;
  }

  /** A table with the same routes, changed apart from this one (see RouteLibrary.snapshot). */
  copy(): RecordTable {
    const copy = new RecordTable();
    copy.byKey = new Map(this.byKey);
    copy.unplain = this.unplain;
    return copy;
  }

  /** Whether a view reads the table as it is (a copy would not be read by it). */
  get hasReaders(): boolean {
    return this.readers !== undefined;
  }

  /** Every route's target is a plain string map() stores as it is. */
  get allTargetsPlain(): boolean {
    return this.unplain === 0;
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

  keys(): IterableIterator<Key> {
    return this.byKey.keys();
  }

  /** [key, `$to`] pairs in PHP order. */
  *entries(): IterableIterator<[Key, Value]> {
    for (const [key, record] of this.byKey) yield [key, record.to];
  }

  /** Each route in order with its record, as PhpArray.forEachEntry gives entries. */
  forEachEntry(fn: (to: Value, key: Key, record: RouteRecord) => void): void {
    this.byKey.forEach((record, key) => fn(record.to, key, record));
  }
}

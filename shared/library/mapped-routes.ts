import { PhpArray, type ArraySource, type EntryOrigin, type Key, type Value } from '../evaluate/values';
import type { RecordTable } from './record-table';

/**
 * `$route` as `Route::map()` returns it when every target is stored as it is: the input array
 * with the library's routes written over it (keys already present keep their place, the others
 * follow in the table's order), read from both instead of copied. A large file's map() would
 * otherwise copy every route into a new array on every edit. The input is shared with its other
 * owners (their writes copy it); the table settles the view before it next changes.
 */
export class MappedRoutes implements ArraySource {
  private constructor(
    private readonly input: PhpArray,
    private readonly table: RecordTable,
    /** Keys of the table the input holds too: their entries stay in the input's place. */
    private readonly overlap: ReadonlySet<Key> | undefined,
  ) {}

  /** The view, and which of the table's keys the input already held. */
  static over(input: PhpArray, table: RecordTable): PhpArray {
    let overlap: Set<Key> | undefined;
    input.forEachEntry((value, key) => {
      // Nested arrays are now held by the view too (as by a copy).
      if (value instanceof PhpArray) value.share();
      if (table.has(key)) (overlap ??= new Set()).add(key);
    });
    const view = PhpArray.view(new MappedRoutes(input.share(), table, overlap));
    table.beforeNextChange(() => view.settle());
    return view;
  }

  get size(): number {
    return this.input.size + this.table.size - (this.overlap?.size ?? 0);
  }

  get(key: Key): Value | undefined {
    const record = this.table.originOf(key);
    return record ? record.to : this.input.get(key);
  }

  has(key: Key): boolean {
    return this.table.has(key) || this.input.has(key);
  }

  originOf(key: Key): EntryOrigin | undefined {
    return this.table.originOf(key) ?? this.input.originOf(key);
  }

  forEachEntry(fn: (value: Value, key: Key, origin: EntryOrigin | undefined) => void): void {
    const { table, overlap } = this;
    if (!overlap) {
      this.input.forEachEntry(fn);
      table.forEachEntry(fn);
      return;
    }
    this.input.forEachEntry((value, key, origin) => {
      const record = overlap.has(key) ? table.originOf(key) : undefined;
      if (record) fn(record.to, key, record);
      else fn(value, key, origin);
    });
    table.forEachEntry((to, key, record) => {
      if (!overlap.has(key)) fn(to, key, record);
    });
  }

  *entries(): IterableIterator<[Key, Value]> {
    const entries: [Key, Value][] = [];
    this.forEachEntry((value, key) => entries.push([key, value]));
    yield* entries;
  }

  copyInto(target: PhpArray): void {
    target.copyEntriesOf(this.input);
    this.table.forEachEntry((to, key, record) => target.set(key, to, record));
  }
}

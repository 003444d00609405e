import { PhpArray, type ArraySource, type EntryOrigin, type Key, type Value } from '../runtime/values';
import { samePrint, type RecordTable, type TablePrint } from './record-table';
import type { RouteRecord } from './records';

/**
 * `$route` as `Route::map()` returns it when every target is stored as it is: the input array
 * with the library's routes written over it (keys already present keep their place, the others
 * follow in the table's order), read from both instead of copied. A large file's map() would
 * otherwise copy every route into a new array on every edit. The input is shared with its other
 * owners (their writes copy it); the table settles the view before it next changes. Writes into
 * the view (`$route['translate_uri_dashes'] = FALSE;`) are kept beside it.
 */
export class MappedRoutes implements ArraySource {
  /** Entries of the input or the table written since, in place. */
  private replaced: Map<Key, { value: Value; origin: EntryOrigin | undefined }> | undefined;
  /** Keys neither held, written since, in order after them. */
  private added: PhpArray | undefined;

  private constructor(
    private readonly input: PhpArray,
    private readonly table: RecordTable,
    /** Keys of the table the input holds too: their entries stay in the input's place. */
    private readonly overlap: ReadonlySet<Key> | undefined,
  ) {}

  /**
   * The view. `onOverwrite` is told of each input entry a route is written over, with the
   * entry's origin (in the same pass that finds them); `known` is the document's overlaps of
   * earlier map() calls.
   */
  static over(input: PhpArray, table: RecordTable, known: RecentOverlaps, onOverwrite: (record: RouteRecord, origin: EntryOrigin | undefined) => void): PhpArray {
    const { keys, values, origins } = input.entryArrays();
    // Nested arrays are now held by the view too (as by a copy).
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value instanceof PhpArray) value.share();
    }
    let overlap: Set<Key> | undefined;
    for (const { at, record } of known.of(table, keys)) {
      (overlap ??= new Set()).add(keys[at]);
      onOverwrite(record, origins[at]);
    }
    const view = PhpArray.view(new MappedRoutes(input.share(), table, overlap));
    table.beforeNextChange(() => view.settle());
    return view;
  }

  get size(): number {
    return this.input.size + this.table.size - (this.overlap?.size ?? 0) + (this.added?.size ?? 0);
  }

  get(key: Key): Value | undefined {
    const written = this.replaced?.get(key);
    if (written) return written.value;
    const record = this.table.originOf(key);
    if (record) return record.to;
    // An input entry may hold null: only a key the input lacks is looked up in `added`.
    return this.input.has(key) ? this.input.get(key) : this.added?.get(key);
  }

  has(key: Key): boolean {
    return this.held(key) || (this.added?.has(key) ?? false);
  }

  originOf(key: Key): EntryOrigin | undefined {
    const written = this.replaced?.get(key);
    if (written) return written.origin;
    return this.table.originOf(key) ?? this.input.originOf(key) ?? this.added?.originOf(key);
  }

  write(key: Key, value: Value, origin: EntryOrigin | undefined): void {
    if (this.held(key)) (this.replaced ??= new Map()).set(key, { value, origin });
    else (this.added ??= new PhpArray()).set(key, value, origin);
  }

  forEachEntry(fn: (value: Value, key: Key, origin: EntryOrigin | undefined) => void): void {
    const { table, overlap, replaced } = this;
    if (!overlap && !replaced) {
      this.input.forEachEntry(fn);
      table.forEachEntry(fn);
    } else {
      const emit = (value: Value, key: Key, origin: EntryOrigin | undefined) => {
        const written = replaced?.get(key);
        if (written) fn(written.value, key, written.origin);
        else fn(value, key, origin);
      };
      this.input.forEachEntry((value, key, origin) => {
        const record = overlap?.has(key) ? table.originOf(key) : undefined;
        if (record) emit(record.to, key, record);
        else emit(value, key, origin);
      });
      table.forEachEntry((to, key, record) => {
        if (!overlap?.has(key)) emit(to, key, record);
      });
    }
    this.added?.forEachEntry(fn);
  }

  *entries(): IterableIterator<[Key, Value]> {
    const entries: [Key, Value][] = [];
    this.forEachEntry((value, key) => entries.push([key, value]));
    yield* entries;
  }

  copyInto(target: PhpArray): void {
    target.copyEntriesOf(this.input);
    this.table.forEachEntry((to, key, record) => target.set(key, to, record));
    this.replaced?.forEach(({ value, origin }, key) => target.set(key, value, origin));
    this.added?.forEachEntry((value, key, origin) => target.set(key, value, origin));
  }

  /**
   * The parts the view reads, when it reads them in order without patching any entry (the usual
   * case): the input's entries, then the table's (see TablePrint), then the keys written since.
   */
  layout(): { input: PhpArray; table: TablePrint; added: PhpArray | undefined } | undefined {
    if (this.overlap || this.replaced) return undefined;
    return { input: this.input, table: this.table.print(), added: this.added };
  }

  /** Keys of `table` written over since map(), when this view reads `table`; undefined for another table. */
  displacedFrom(table: RecordTable): Key[] | undefined {
    if (table !== this.table) return undefined;
    const keys: Key[] = [];
    this.replaced?.forEach((_entry, key) => table.has(key) && keys.push(key));
    return keys;
  }

  /** Whether the input or the table holds the key. */
  private held(key: Key): boolean {
    return this.table.has(key) || this.input.has(key);
  }
}

/**
 * When `routes` is still the view map() made over `table` (the table has not changed since, or
 * the view would have taken its own copy), the keys of `table` whose route `routes` no longer
 * shows (written over since): every other route of `table` is in `routes` as its record. Lets a
 * check look at those few keys instead of every route. Undefined when `routes` is anything else.
 */
export function displacedRoutes(routes: PhpArray | undefined, table: RecordTable): readonly Key[] | undefined {
  const source = routes?.viewSource;
  return source instanceof MappedRoutes ? source.displacedFrom(table) : undefined;
}

type Overlaps = readonly { at: number; record: RouteRecord }[];

/**
 * The input entries (by index) that a table holds a route for, in input order, for the last few
 * map() calls of one document's evaluations (a field of its DocumentState): found once per table
 * content (its TablePrint) and input keys. Every method's map() reads the same `$route`, and an
 * edit leaves most tables and `$route` as they were, so the lookups (two per input entry and
 * method, in large maps) are mostly done already.
 */
export class RecentOverlaps {
  private readonly recent: { print: TablePrint; keys: readonly Key[]; hits: Overlaps }[] = [];

  of(table: RecordTable, keys: readonly Key[]): Overlaps {
    const print = table.print();
    const recent = this.recent;
    for (let r = recent.length - 1; r >= 0; r--) {
      const known = recent[r];
      if (samePrint(known.print, print) && sameKeys(known.keys, keys)) return known.hits;
    }
    const hits: { at: number; record: RouteRecord }[] = [];
    for (let i = 0; i < keys.length; i++) {
      const record = table.originOf(keys[i]);
      if (record) hits.push({ at: i, record });
    }
    recent.push({ print, keys, hits });
    if (recent.length > RECENT_OVERLAPS) recent.shift();
    return hits;
  }
}

const RECENT_OVERLAPS = 32;

function sameKeys(a: readonly Key[], b: readonly Key[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

import { PhpArray, type Key, type Value } from '../runtime/values';
import type { RouteRecord } from './records';

/**
 * The library's `$named` array under one request method (route name → `$from`), read from the
 * records created since it was last emptied (Route::reset()) instead of written for every named
 * route: an editor replays thousands of them on every edit, and a route file seldom reads the
 * array (`Route::named()`). Built when the file first reads it, then brought up to date with the
 * records created since. Analyses read it with entries() and forEachNamed(), which leave it as it
 * is: an evaluation handed out never changes.
 */
export class NamedRoutes {
  private readonly array = new PhpArray();
  private upTo: number;

  /**
   * @param records the method's records as created (read live: the array grows)
   * @param from the index in `records` of the first record after the last reset
   */
  constructor(
    private readonly records: () => readonly RouteRecord[],
    readonly from: number,
  ) {
    this.upTo = from;
  }

  /** `$named[$key]` for the running file (Route::named()). */
  get(key: Key): Value | undefined {
    return this.current().get(key);
  }

  /** The array's entries, read without bringing it up to date (for analyses). */
  entries(): IterableIterator<[Key, Value]> {
    const array = new PhpArray();
    this.forEachNamed((record) => array.set(record.name, String(record.key), record));
    return array.entries();
  }

  /** Each named record, in order (a name given twice, twice), read without building the array. */
  forEachNamed(fn: (record: RouteRecord & { name: Key }) => void): void {
    const created = this.records();
    for (let i = this.from; i < created.length; i++) {
      const record = created[i];
      if (record.name !== undefined) fn(record as RouteRecord & { name: Key });
    }
  }

  private current(): PhpArray {
    const created = this.records();
    for (let i = this.upTo; i < created.length; i++) {
      const record = created[i];
      // The library stores `$from` under the name: the record's key as a string.
      if (record.name !== undefined) this.array.set(record.name, String(record.key), record);
    }
    if (this.upTo !== created.length) this.upTo = created.length;
    return this.array;
  }
}

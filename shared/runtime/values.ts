import type { IncludedFile, PhpNode, Span } from '../php/ast';

/**
 * PHP values as the evaluator models them. JS primitives stand for PHP's scalars
 * (`number` is always a PHP int; floats are wrapped so `1.0` and `1` stay distinct).
 */
export type Value = string | number | boolean | null | PhpFloat | PhpArray | PhpClosure | Unknown | PerMethod;

/** A PHP array key: canonical integer strings are stored as numbers, as PHP does. */
export type Key = string | number;

export class PhpFloat {
  constructor(readonly value: number) {}
}

/** A value the evaluator cannot know statically, with the reason why. */
export class Unknown {
  constructor(
    readonly reason: string,
    readonly span?: Span,
    /** Known to be set, whatever it is (`$_SERVER['HTTP_HOST']` of a web request): isset() is true. */
    readonly isSet = false,
  ) {}
}

/**
 * A value that differs between request methods (e.g. what `Route::map()` returns). Index i holds
 * the value under method i; only methods of the evaluation's mask are meaningful.
 */
export class PerMethod {
  constructor(readonly byMethod: Value[]) {}
}

let closureIds = 0;

/** A closure or arrow function together with what it captured. */
export class PhpClosure {
  readonly id = ++closureIds;
  constructor(
    readonly node: PhpNode,
    /** Offset base of the statement the node was parsed from (moved when a replayed statement moves). */
    public base: number,
    readonly captured: Map<string, Value>,
    /** For arrow functions: the scope they read by value at creation. */
    readonly arrowScope?: Map<string, Value>,
    /** The included file it was written in; undefined for the evaluated file. */
    readonly source?: IncludedFile,
  ) {}
}

/** Where an array entry came from; opaque to this layer (the library stores route records here). */
export type EntryOrigin = object;

/**
 * Entries an array reads from elsewhere until it is first written (see PhpArray.view): `$route`
 * after `Route::map()` reads the library's table instead of copying tens of thousands of routes
 * on every evaluation. A source changes only through its view's writes (`write`).
 */
export interface ArraySource {
  readonly size: number;
  get(key: Key): Value | undefined;
  has(key: Key): boolean;
  originOf(key: Key): EntryOrigin | undefined;
  forEachEntry(fn: (value: Value, key: Key, origin: EntryOrigin | undefined) => void): void;
  entries(): IterableIterator<[Key, Value]>;
  /** `$view[$key] = $value`, kept by the source (the view is its only owner). */
  write(key: Key, value: Value, origin: EntryOrigin | undefined): void;
  /** Writes every entry, in order, into an empty array (the view taking its own copy). */
  copyInto(target: PhpArray): void;
}

/** Arrays below this size are read as they are (see PhpArray.forEachEntry). */
const SNAPSHOT_SIZE = 64;

/**
 * An ordered PHP array with PHP's key casting. Copy-on-write: `share()` marks an array held in
 * two places, and writers call `writable()` to get an unshared copy first.
 */
/** Where `$a[] = …` starts in an array made by the empty literal `[]` or `array()` (PHP 8.2's shared empty array). */
export const EMPTY_LITERAL_NEXT = 0;

export class PhpArray {
  private map: Map<Key, Value>;
  private origins: Map<Key, EntryOrigin> | undefined;
  /**
   * The key `$a[] = …` takes. PHP 8.2 starts it at ZEND_LONG_MIN (`noIntegerKey` here: the
   * next key after -5 is -4, and an append to nothing is 0), except for the empty array literal
   * `[]` / `array()`, which starts at 0 (see EMPTY_LITERAL_NEXT). A small integer, so that V8
   * keeps the field unboxed. Meaningless while the array is a view: read only after settle().
   */
  private nextIndex: number;
  /** No integer key was ever set and the array did not start at a given next index (ZEND_LONG_MIN). */
  private noIntegerKey: boolean;
  private shared = 0;
  /** Where a view's entries are until it settles (then undefined). */
  private source: ArraySource | undefined;
  /** The entries as arrays, kept while the array is shared and unchanged (see forEachEntry). */
  private snapshot: { keys: Key[]; values: Value[]; origins: (EntryOrigin | undefined)[] } | undefined;
  /** Bumped by every change, so that a snapshot taken while a reader changed the array is dropped. */
  private changes = 0;

  constructor(map?: Map<Key, Value>, nextIndex?: number, origins?: Map<Key, EntryOrigin>) {
    this.map = map ?? new Map();
    this.nextIndex = nextIndex ?? 0;
    this.noIntegerKey = nextIndex === undefined;
    this.origins = origins;
  }

  /** An array whose entries are read from `source` until it is settled (`source` belongs to it alone). */
  static view(source: ArraySource): PhpArray {
    const a = new PhpArray();
    a.source = source;
    return a;
  }

  static fromList(values: Value[]): PhpArray {
    const a = new PhpArray();
    for (const v of values) a.append(v);
    return a;
  }

  static fromEntries(entries: [Key, Value][]): PhpArray {
    const a = new PhpArray();
    for (const [k, v] of entries) a.set(k, v);
    return a;
  }

  /** Where this view reads its entries, until it settles (undefined for an array with its own). */
  get viewSource(): ArraySource | undefined {
    return this.source;
  }

  /** A view takes its own copy of its source's entries (before a write, or before the source changes). */
  settle(): void {
    const source = this.source;
    if (!source) return;
    this.snapshot = undefined;
    this.changes++;
    this.source = undefined;
    source.copyInto(this);
  }

  /** Makes this (empty) array a copy of `other`'s entries, origins and next index; nested arrays are not shared again. */
  copyEntriesOf(other: PhpArray): void {
    other.settle();
    this.snapshot = undefined;
    this.changes++;
    this.map = new Map(other.map);
    this.origins = other.origins && new Map(other.origins);
    this.nextIndex = other.nextIndex;
    this.noIntegerKey = other.noIntegerKey;
  }

  get size(): number {
    return this.source ? this.source.size : this.map.size;
  }

  get(key: Key): Value | undefined {
    return this.source ? this.source.get(key) : this.map.get(key);
  }

  has(key: Key): boolean {
    return this.source ? this.source.has(key) : this.map.has(key);
  }

  originOf(key: Key): EntryOrigin | undefined {
    return this.source ? this.source.originOf(key) : this.origins?.get(key);
  }

  /** PHP `$a[$key] = $value`: an existing key keeps its position. */
  set(key: Key, value: Value, origin?: EntryOrigin): void {
    this.snapshot = undefined;
    this.changes++;
    if (this.source) {
      // `$route['translate_uri_dashes'] = FALSE;` after map(): kept beside the view, not a copy.
      this.source.write(key, value, origin);
      return;
    }
    this.map.set(key, value);
    if (typeof key === 'number' && (key >= this.nextIndex || this.noIntegerKey)) {
      this.nextIndex = key + 1;
      this.noIntegerKey = false;
    }
    if (origin !== undefined) (this.origins ??= new Map()).set(key, origin);
    else this.origins?.delete(key);
  }

  /** PHP `$a[] = $value`. */
  append(value: Value, origin?: EntryOrigin): number {
    if (this.source) this.settle();
    const k = this.nextIndex;
    this.set(k, value, origin);
    return k;
  }

  delete(key: Key): void {
    this.snapshot = undefined;
    this.changes++;
    if (this.source) this.settle();
    this.map.delete(key);
    this.origins?.delete(key);
  }

  /**
   * Each entry in order, with its origin, without the [key, value] pairs an iterator allocates.
   * Origins are nearly always kept in the entries' order: they are read alongside, not looked up
   * per entry (a lookup in a large table is a cache miss or two, for every entry of every table).
   */
  forEachEntry(fn: (value: Value, key: Key, origin: EntryOrigin | undefined) => void): void {
    if (this.source) {
      this.source.forEachEntry(fn);
      return;
    }
    // A shared array no longer changes in place (writers copy it) and is read by its owners again
    // and again (`$route`, read by every method's map() and the checks): kept as arrays.
    if (this.snapshot || (this.shared > 0 && this.map.size >= SNAPSHOT_SIZE)) {
      const { keys, values, origins } = this.entryArrays();
      for (let i = 0; i < keys.length; i++) fn(values[i], keys[i], origins[i]);
      return;
    }
    this.forEachStored(fn);
  }

  /** The entries as arrays, in order (kept until the array changes; a view's are read anew). */
  entryArrays(): { readonly keys: readonly Key[]; readonly values: readonly Value[]; readonly origins: readonly (EntryOrigin | undefined)[] } {
    if (this.snapshot) return this.snapshot;
    const taken: NonNullable<PhpArray['snapshot']> = { keys: [], values: [], origins: [] };
    const changes = this.changes;
    const fill = (value: Value, key: Key, origin: EntryOrigin | undefined) => {
      taken.keys.push(key);
      taken.values.push(value);
      taken.origins.push(origin);
    };
    if (this.source) this.source.forEachEntry(fill);
    else this.forEachStored(fill);
    if (!this.source && this.changes === changes) this.snapshot = taken;
    return taken;
  }

  private forEachStored(fn: (value: Value, key: Key, origin: EntryOrigin | undefined) => void): void {
    const origins = this.origins;
    if (!origins) {
      this.map.forEach((value, key) => fn(value, key, undefined));
      return;
    }
    const originKeys = origins.keys();
    const originValues = origins.values();
    let nextKey = originKeys.next();
    let inStep = true;
    this.map.forEach((value, key) => {
      if (inStep && !nextKey.done && nextKey.value === key) {
        const origin = originValues.next().value;
        nextKey = originKeys.next();
        fn(value, key, origin);
        return;
      }
      const origin = origins.get(key);
      // An entry given its origin after a later one: the orders differ from here on.
      if (origin !== undefined) inStep = false;
      fn(value, key, origin);
    });
  }

  keys(): IterableIterator<Key> {
    if (this.source) this.settle();
    return this.map.keys();
  }

  values(): IterableIterator<Value> {
    if (this.source) this.settle();
    return this.map.values();
  }

  entries(): IterableIterator<[Key, Value]> {
    return this.source ? this.source.entries() : this.map.entries();
  }

  /**
   * A new, unshared array with the same keys in the same order and the same next index, each
   * value and origin passed through the given functions (a replayed statement's literal arrays,
   * moved with it: see evaluate/replay.ts).
   */
  mapped(value: (v: Value) => Value, origin: (o: EntryOrigin) => EntryOrigin): PhpArray {
    if (this.source) this.settle();
    const map = new Map<Key, Value>();
    this.map.forEach((v, k) => map.set(k, value(v)));
    let origins: Map<Key, EntryOrigin> | undefined;
    if (this.origins) {
      origins = new Map();
      this.origins.forEach((o, k) => origins!.set(k, origin(o)));
    }
    const copy = new PhpArray(map, this.nextIndex, origins);
    copy.noIntegerKey = this.noIntegerKey;
    return copy;
  }

  clone(): PhpArray {
    if (this.source) this.settle();
    // Nested arrays are now held by both copies.
    for (const v of this.map.values()) if (v instanceof PhpArray) v.share();
    const copy = new PhpArray();
    copy.copyEntriesOf(this);
    return copy;
  }

  /** Held by more than one owner: the next write copies it. */
  get isShared(): boolean {
    return this.shared > 0;
  }

  /** Marks the array as held by one more owner; the next write through any owner copies it. */
  share(): this {
    this.shared++;
    return this;
  }

  /** The array to write into: this one if unshared, else a private copy. */
  writable(): PhpArray {
    if (this.shared === 0) return this;
    this.shared--;
    return this.clone();
  }
}

export function isUnknown(v: Value | undefined): v is Unknown {
  return v instanceof Unknown;
}

/** Shares an array value when it is stored in a second place (variable, element, argument). */
export function shareValue<V extends Value>(v: V): V {
  if (v instanceof PhpArray) v.share();
  // A value per method (e.g. `$route` after map()) holds one array per method: each is shared.
  else if (v instanceof PerMethod) for (const x of v.byMethod) if (x instanceof PhpArray) x.share();
  return v;
}

/** Canonical integer strings become int keys; everything else stays a string. */
export function normalizeStringKey(s: string): Key {
  const n = s.length;
  if (n === 0 || n > 20) return s;
  const c0 = s.charCodeAt(0);
  let i = 0;
  if (c0 === 45 /* - */) {
    if (n === 1) return s;
    i = 1;
  }
  const first = s.charCodeAt(i);
  if (first === 48 /* 0 */) return n === 1 ? 0 : s;
  for (let j = i; j < n; j++) {
    const c = s.charCodeAt(j);
    if (c < 48 || c > 57) return s;
  }
  const v = Number(s);
  // Beyond 2^53 a JS number would round; PHP would still cast, but order and text are what matter.
  return Number.isSafeInteger(v) ? v : s;
}

export function keyToString(k: Key): string {
  return typeof k === 'number' ? String(k) : k;
}

export function typeName(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'int';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof PhpFloat) return 'float';
  if (v instanceof PhpArray) return 'array';
  if (v instanceof PhpClosure) return 'Closure';
  return 'unknown';
}

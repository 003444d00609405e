import type { IncludedFile, Span } from '../../php/ast';
import { describeIncludedPlace, includedLines } from './included-places';
import { LineIndex } from '../../php/line-index';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { Places } from '../../evaluate/places';
import { REQUEST_METHODS, type MethodIndex, type RequestMethod } from '../../runtime/methods';
import type { CallSite, EntryOriginInfo, RouteRecord } from '../../library/records';

import { ROUTE_METHODS_FROM_TO } from '../../library/route-api';

export function isRouteMethod(method: string): boolean {
  return ROUTE_METHODS_FROM_TO.has(method);
}

/** Where a route's `$from` is written, placed in the evaluation's text: the argument, the block() path, the assignment's key. */
export function fromSpan(origin: EntryOriginInfo, places: Places): Span {
  if (origin.kind !== 'route') {
    const placed = places.entry(origin);
    return placed.keySpan ?? placed.span;
  }
  const site = origin.site;
  if (origin.row?.startsWith('path-')) return places.argSpan(site, Number(origin.row.slice(5))) ?? places.span(site);
  return places.argSpan(site, 0) ?? places.nameSpan(site);
}

/** Where a route's `$to` comes from: the target argument, or for generated routes the call. */
export function toSpan(origin: EntryOriginInfo, places: Places): Span {
  if (origin.kind !== 'route') return places.entry(origin).valueSpan;
  const site = origin.site;
  if (ROUTE_METHODS_FROM_TO.has(site.method)) return places.argSpan(site, 1) ?? places.span(site);
  return places.span(site);
}

/** A short human reference to a declaration: `line 12`. */
export class Describer {
  private linesMemo: LineIndex | undefined;
  constructor(private readonly text: string) {}

  /** The text's lines, indexed when a message first names one: an edit of a large file whose findings name none pays nothing. */
  get lines(): LineIndex {
    return (this.linesMemo ??= LineIndex.of(this.text));
  }

  private static last: { text: string; describer: Describer } | undefined;

  /** The describer of a text, reused while the text stays the same (hovers between edits). */
  static of(text: string): Describer {
    const last = Describer.last;
    if (last && last.text === text) return last.describer;
    const describer = new Describer(text);
    Describer.last = { text, describer };
    return describer;
  }

  /** The line of a place, in the file it lies in (the route file, or one it included). */
  line(span: Span | number): number {
    if (typeof span !== 'number' && span.file) return includedLines(span.file).lineOf(span.start) + 1;
    return this.lines.lineOf(typeof span === 'number' ? span : span.start) + 1;
  }

  /** `line 12`, or `admin.php line 4` for a place in an included file. */
  at(span: Span): string {
    return span.file ? describeIncludedPlace(span as Span & { file: IncludedFile }) : `line ${this.line(span)}`;
  }

  /** `Route::get() at line 12`, `$route['x'] at line 3`. */
  declaration(origin: EntryOriginInfo, places: Places): string {
    if (origin.kind === 'route') return `Route::${origin.site.written}() at ${this.at(places.site(origin.site).span)}`;
    if (origin.kind === 'assignment') return `the $route entry at ${this.at(places.entry(origin).span)}`;
    return `the array entry at ${this.at(places.entry(origin).span)}`;
  }
}

/** Methods listed compactly: all eight become "every request method". */
export function describeMethods(methods: readonly RequestMethod[]): string {
  if (methods.length === REQUEST_METHODS.length) return 'every request method';
  if (methods.length === 1) return methods[0];
  return `${methods.slice(0, -1).join(', ')} and ${methods[methods.length - 1]}`;
}

export function sortMethods(methods: Iterable<RequestMethod>): RequestMethod[] {
  const set = new Set(methods);
  return REQUEST_METHODS.filter((m) => set.has(m));
}

/** Every record the library created, per method (replaced and reset ones included). */
export function allRecords(evaluation: FileEvaluation): { m: MethodIndex; record: RouteRecord }[] {
  const out: { m: MethodIndex; record: RouteRecord }[] = [];
  evaluation.methods.forEach((r, m) => {
    for (const record of r.library.created) out.push({ m, record });
  });
  return out;
}

/** Two declarations can both run only if they are not in different branches of one condition. */
export function compatibleBranches(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return true;
  const seen = new Map<string, string>();
  for (const id of a) {
    const [cond, branch] = id.split(':');
    seen.set(cond, branch);
  }
  for (const id of b) {
    const [cond, branch] = id.split(':');
    const other = seen.get(cond);
    if (other !== undefined && other !== branch) return false;
  }
  return true;
}

export function branchesOf(origin: EntryOriginInfo): readonly string[] {
  return origin.kind === 'literal' ? [] : origin.branches;
}

/** Groups findings keyed by a string, collecting the methods each concerns. */
export class MethodGroups<T> {
  private readonly groups = new Map<string, { value: T; methods: Set<RequestMethod> }>();

  /** Adds a method to the group `key` (made on first use); returns the group's value. */
  add(key: string, method: RequestMethod, make: () => T): T {
    let g = this.groups.get(key);
    if (!g) {
      g = { value: make(), methods: new Set() };
      this.groups.set(key, g);
    }
    g.methods.add(method);
    return g.value;
  }

  has(key: string): boolean {
    return this.groups.has(key);
  }

  entries(): { value: T; methods: RequestMethod[] }[] {
    return [...this.groups.values()].map((g) => ({ value: g.value, methods: sortMethods(g.methods) }));
  }
}

export function siteKey(site: CallSite): string {
  return `${site.span.start}:${site.span.end}`;
}

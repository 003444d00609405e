import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { Span } from '../../php/ast';
import { compileRouteKey } from '../../router/pattern';
import { REQUEST_METHODS, type MethodIndex, type RequestMethod } from '../../runtime/methods';
import { hasTargetFor, routeRows, UNKNOWN_PATH } from './route-table';

/** A route of the main table that did not take a request, and why. */
export interface RouteMiss {
  key: string;
  /**
   * `pattern`: its key does not match the URI; `later`: it matches too, but an earlier route took
   * the request; `verbs`: its target has no entry for the request's method; `method`: it is in
   * other methods' tables only; `invalid`: PCRE refuses its pattern, so it never matches.
   */
  kind: 'pattern' | 'later' | 'verbs' | 'method' | 'invalid';
  reason: string;
  /** For `method`: the methods whose tables hold it. */
  methods?: RequestMethod[];
  span?: Span;
}

export interface RouteMisses {
  /** The routes worth saying why: the URI's near misses (see isNear), the routes matching later and under other methods. */
  misses: RouteMiss[];
  /** Routes of the method's table CodeIgniter tried: those before the match, or all when none matched. */
  tried: number;
  /** Misses left out past the limit. */
  more: number;
}

/** The wildcards CodeIgniter replaces, as a segment of their own. */
const WILDCARD_SEGMENT: Record<string, RegExp> = { '(:num)': /^[0-9]+$/, '(:any)': /^[^/]+$/ };
/** Characters that make a key segment a regular expression rather than text. */
const REGEX_CHARACTERS = /[\\^$.|?*+()[\]{}]/;

function isPlainSegment(s: string): boolean {
  return !REGEX_CHARACTERS.test(s) && !s.includes(':any') && !s.includes(':num');
}

/**
 * Why `key` does not match `path`, segment by segment when the key is text and whole-segment
 * wildcards; else that its pattern does not match.
 */
export function whyPatternMisses(key: string, path: string): string {
  const keySegments = key.split('/');
  const segments = path.split('/');
  if (!keySegments.every((s) => isPlainSegment(s) || s in WILDCARD_SEGMENT)) {
    return `its pattern #^${compileRouteKey(key).regex}$# does not match '${path}'`;
  }
  for (let i = 0; i < Math.max(keySegments.length, segments.length); i++) {
    const want = keySegments[i];
    const got = segments[i];
    if (want === undefined) return `the URI has ${segments.length} segments, the route ${keySegments.length}`;
    if (got === undefined) return `the URI has ${segments.length} segment${segments.length === 1 ? '' : 's'}, the route ${keySegments.length}`;
    const wildcard = WILDCARD_SEGMENT[want];
    if (wildcard) {
      if (!wildcard.test(got)) return `segment ${i + 1}: '${got}' is not a number (${want})`;
    } else if (want !== got) {
      return `segment ${i + 1}: '${got}' is not '${want}'${want.toLowerCase() === got.toLowerCase() ? ' (routes are case-sensitive)' : ''}`;
    }
  }
  return `its pattern #^${compileRouteKey(key).regex}$# does not match '${path}'`;
}

/**
 * A route the reader may have meant: its first segment is the URI's, or is a pattern (which may
 * match it). A key whose first segment is other text cannot match the URI (CodeIgniter matches
 * case-sensitively, from the start): such routes are not listed, only counted in `tried`.
 */
function isNear(key: string, path: string): boolean {
  const first = key.split('/')[0]!;
  return first.toLowerCase() === path.split('/')[0]!.toLowerCase() || !isPlainSegment(first);
}

/**
 * Why the routes of the main table under method `m` other than `matchedKey` did not take `path`
 * (the URI's segments joined with `/`, as CodeIgniter matches them): the near misses before the
 * match, the routes that match too but come later, those whose verb array has no entry for the
 * method, those PCRE refuses, and the routes matching the URI under other methods only.
 */
export function routeMisses(evaluation: FileEvaluation, m: MethodIndex, path: string, matchedKey: string | null, limit = 20): RouteMisses {
  const method = REQUEST_METHODS[m]!;
  const rows = routeRows(evaluation, m).filter((r) => !r.reserved && r.key !== UNKNOWN_PATH);
  const matchedAt = matchedKey === null ? -1 : rows.findIndex((r) => r.key === matchedKey);
  const misses: RouteMiss[] = [];
  let tried = 0;
  rows.forEach((row, i) => {
    if (i === matchedAt) return;
    const before = matchedAt < 0 || i < matchedAt;
    if (before) tried++;
    // A key whose first segment is other text cannot match: nothing to say, nothing to match.
    if (!isNear(row.key, path)) return;
    const pattern = compileRouteKey(row.key);
    const span = row.span ? { span: row.span } : {};
    if (pattern.error !== undefined) {
      misses.push({ key: row.key, kind: 'invalid', reason: `it never matches: ${pattern.error}`, ...span });
      return;
    }
    if (!pattern.match(path)) {
      if (before) misses.push({ key: row.key, kind: 'pattern', reason: whyPatternMisses(row.key, path), ...span });
      return;
    }
    // Matching before the match, it was skipped: its verb array has no entry for the method.
    if (before) misses.push({ key: row.key, kind: 'verbs', reason: `its target has no entry for ${method}: CodeIgniter skips it`, ...span });
    else misses.push({ key: row.key, kind: 'later', reason: `it matches too, but '${matchedKey}' comes first in the table (the first match wins)`, ...span });
  });
  // The URI's routes under other methods only: a request of this method never sees them.
  const own = new Set(rows.map((r) => r.key));
  const elsewhere = new Map<string, RouteMiss>();
  REQUEST_METHODS.forEach((other, o) => {
    if (o === m) return;
    for (const row of routeRows(evaluation, o)) {
      if (row.reserved || row.key === UNKNOWN_PATH || own.has(row.key) || !isNear(row.key, path) || !hasTargetFor(row, other) || !compileRouteKey(row.key).match(path)) continue;
      const id = `${row.key}\u0000${row.span?.file?.path ?? ''}\u0000${row.span?.start ?? -1}`;
      const known = elsewhere.get(id);
      if (known) known.methods!.push(other);
      else elsewhere.set(id, { key: row.key, kind: 'method', reason: '', methods: [other], ...(row.span ? { span: row.span } : {}) });
    }
  });
  for (const miss of elsewhere.values()) {
    miss.reason = `it is declared for ${miss.methods!.join(', ')} only: a ${method} request never sees it`;
    misses.push(miss);
  }
  // The few routes that match the URI first (they answer "why not that one?"), then the near misses, in table order.
  const sorted = [...misses.filter((x) => x.kind !== 'pattern'), ...misses.filter((x) => x.kind === 'pattern')];
  return { misses: sorted.slice(0, limit), tried, more: Math.max(0, sorted.length - limit) };
}

import type { Span } from '../../php/ast';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import { PhpArray, Unknown, keyToString, type Value } from '../../runtime/values';
import { REQUEST_METHODS, type RequestMethod } from '../../runtime/methods';
import { isDynamicKey, type EntryOriginInfo } from '../../library/records';
import { matchRouteTable, uriSegments, ROUTER_SETTING_KEYS, type RouterTable } from '../../router/ci-router';
import { matchModuleRoutes } from '../../router/hmvc/module-routes';
import { requestUriPath } from '../../router/request-uri';
import { literalStart } from '../../router/pattern';
import { refusedSegment, type UriFilter } from '../../router/uri-filter';
import { methodsLabel } from '../model/declarations';
import { fromSpan } from '../model/origins';
import { describeTarget } from '../model/route-table';

/**
 * Two searches of the workspace's routes beyond the text of their patterns: the routes that route
 * a concrete URL (`articles/12`), matched as the router matches it, and the routes whose target
 * reaches a controller method (`Posts::show`).
 */

/** A route file as the searches read it. */
export interface SearchedFile {
  file: string;
  evaluation: FileEvaluation;
  /** The module whose routes file this is: its keys are matched as Modules::parse_routes() matches them (`:any` is `.+`), against the whole URI. */
  module?: string;
  /**
   * Where a target of this file dispatches, as its application's router locates it (the host
   * knows the controllers); without it, the target's segments are read as `…/class/method/…`.
   */
  dispatch?: (target: string) => DispatchedMethod | undefined;
  /** Its application's URI filter (`permitted_uri_chars`): a URL it refuses is routed by none of the file's routes. CodeIgniter's default when absent. */
  uriFilter?: UriFilter;
}

/** The controller class a target dispatches to, and which method names it can reach. */
export interface DispatchedMethod {
  class: string;
  methodMatches(name: string): boolean;
}

/** A route a search found. */
export interface FoundRoute {
  /** The route's key. */
  name: string;
  detail: string;
  span: Span;
}

/**
 * A query such as `articles/12`, `/articles/12` or `https://site/index.php/articles/12?x`: the URI
 * CodeIgniter routes, or undefined when the query cannot be one. Whether the application's URI
 * filter lets it through is each file's (routesRouting).
 */
export function queryUrl(query: string): string | undefined {
  const q = query.trim();
  if (q === '' || /\s/.test(q) || q.includes('::')) return undefined;
  const segments = uriSegments(requestUriPath(q));
  return segments.length === 0 ? undefined : segments.join('/');
}

/** A query such as `Posts::show`, `posts::show`, `Posts.show` or `Posts::`: the class and method it names. */
export function queryControllerMethod(query: string): { class: string; method?: string } | undefined {
  const m = /^\s*([A-Za-z_\x80-\uffff][\w\x80-\uffff]*)\s*(?:::|\.)\s*([A-Za-z_\x80-\uffff][\w\x80-\uffff]*)?\s*(?:\(\s*\))?\s*$/u.exec(query);
  if (!m) return undefined;
  return m[2] === undefined ? { class: m[1] } : { class: m[1], method: m[2] };
}

function spanOf(evaluation: FileEvaluation, key: string, m: number): Span {
  const origin = evaluation.methods[m]?.routes?.originOf(key) as EntryOriginInfo | undefined;
  return origin ? fromSpan(origin, evaluation.places) : { start: 0, end: 0 };
}

/**
 * The routes of a file that route a URI: under each request method, the first key of the file's
 * final `$route` that matches it (CodeIgniter's matching: patterns in order, `(:num)`/`(:any)`),
 * with the target it rewrites the URI to. A module's routes file is matched as its router
 * matches it, for a URI whose first segment is the module. One entry per route and rewritten
 * target, with the methods it routes the URI under.
 */
export function routesRouting(file: SearchedFile, uri: string): FoundRoute[] {
  const { evaluation } = file;
  const found = new Map<string, { key: string; target: string; methods: RequestMethod[]; span: Span }>();
  const add = (m: number, key: string, target: string) => {
    const identity = `${key}\u0000${target}`;
    const hit = found.get(identity);
    if (hit) hit.methods.push(REQUEST_METHODS[m]);
    else found.set(identity, { key, target, methods: [REQUEST_METHODS[m]], span: spanOf(evaluation, key, m) });
  };
  // CodeIgniter answers 400 before routing a URI its filter refuses (not known: routed as if let through).
  const refused = refusedSegment(file.uriFilter, uri.split('/'));
  if (refused && 'segment' in refused) return [];
  try {
    if (file.module !== undefined) {
      // The HMVC routers read a module's routes file for a URI whose first segment names the module.
      if (uri.split('/')[0] !== file.module) return [];
      (evaluation.methods ?? []).forEach((result, m) => {
        const routes = result?.routes;
        if (!routes) return;
        let hit;
        try {
          hit = matchModuleRoutes(file.module!, withoutUnknownKeys(routes), uri);
        } catch {
          return; // the router stops there (a non-string value): nothing routes the URI from this file
        }
        if (hit) add(m, hit.key, hit.segments.slice(1).join('/'));
      });
    } else {
      const starts = new Map<string, string>();
      (evaluation.methods ?? []).forEach((result, m) => {
        if (!result?.routes) return;
        const hit = matchRouteTable(candidates(result.routes, uri, starts), uri, { method: REQUEST_METHODS[m] });
        if (hit) add(m, hit.key, hit.target instanceof Unknown ? describeTarget(hit.target) : hit.target);
      });
    }
  } catch {
    return [];
  }
  return [...found.values()].map((f) => ({ name: f.key, detail: `${methodsLabel(f.methods)} ${uri} → ${f.target}`, span: f.span }));
}

/** The keys the router matches: an unknown route's key stands for no URI of its own. */
function withoutUnknownKeys(routes: PhpArray): PhpArray {
  let unknown = false;
  for (const k of routes.keys()) if (isDynamicKey(k)) unknown = true;
  if (!unknown) return routes;
  const copy = new PhpArray();
  for (const [k, v] of routes.entries()) if (!isDynamicKey(k)) copy.set(k, v);
  return copy;
}

/**
 * A method's `$route` as the router reads it (readRouteTable), with only the patterns that can
 * match the URI, in order, and without the router's settings (404_override is matched as a
 * pattern by CodeIgniter, but nobody requests it) or unknown keys: a key whose literal start the
 * URI does not begin with cannot match it, so the router's first match among the others is its
 * first match (a large table is then matched in string comparisons, not one regular expression
 * per key). `starts` memoizes literalStart() across the methods' tables.
 */
function candidates(routes: PhpArray, uri: string, starts: Map<string, string>): RouterTable {
  const patterns: RouterTable['patterns'] = [];
  let index = 0;
  for (const [k, value] of routes.entries()) {
    const at = index++;
    if (isDynamicKey(k)) continue;
    const key = keyToString(k);
    if (ROUTER_SETTING_KEYS.has(key)) continue;
    let start = starts.get(key);
    if (start === undefined) starts.set(key, (start = literalStart(key)));
    if (uri.startsWith(start)) patterns.push({ key: k, value, index: at });
  }
  return { defaultController: undefined, translateUriDashes: false, patterns };
}

/** A target's segments read without the router: the class is the segment before the method (`blog/posts/show/$1`: any `posts` followed by `show`). */
function readsAs(target: string, cls: string, method: string | undefined): boolean {
  const segments = target.toLowerCase().split('/').filter((s) => s !== '');
  const c = cls.toLowerCase();
  for (let i = 0; i < segments.length; i++) {
    if (segments[i] !== c) continue;
    if (method === undefined) return true;
    const next = segments[i + 1];
    if (next === undefined ? method.toLowerCase() === 'index' : next === method.toLowerCase()) return true;
  }
  return false;
}

/** The string targets of a route's value (a verb array's each). */
export function targetsOf(value: Value): string[] {
  if (typeof value === 'string') return [value];
  if (value instanceof PhpArray) return [...value.values()].filter((v): v is string => typeof v === 'string');
  return [];
}

/**
 * Whether a target of a file reaches a controller's method (`Posts::show`; any method of the class
 * when none is named): class and method compared as PHP compares them, case ignored. A target
 * whose method comes from the URI (`posts/$1`) counts when it can name the method. Each target is
 * decided once; only those that write the class's segment (dashes as CodeIgniter may translate
 * them) are asked about, so a large file asks the router about a few: a target that reaches a
 * folder's default controller without naming it is not found.
 */
export function reachesMethod(file: SearchedFile, cls: string, method: string | undefined): (target: string) => boolean {
  const written = (t: string) => t.toLowerCase().replace(/-/g, '_');
  const name = written(cls);
  const decided = new Map<string, boolean>();
  return (target) => {
    let answer = decided.get(target);
    if (answer !== undefined) return answer;
    if (!written(target).includes(name)) answer = false;
    else if (file.dispatch) {
      let d: DispatchedMethod | undefined;
      try {
        d = file.dispatch(target);
      } catch {
        d = undefined;
      }
      answer = !!d && d.class.toLowerCase() === cls.toLowerCase() && (method === undefined || d.methodMatches(method));
    } else answer = readsAs(target, cls, method);
    decided.set(target, answer);
    return answer;
  };
}

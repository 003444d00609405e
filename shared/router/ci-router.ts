import { refusedSegment, type UriFilter } from './uri-filter';
import { toPhpString } from '../runtime/convert';
import { utf8Bytes } from '../util/utf8-bytes';
import { PhpArray, PhpClosure, Unknown, keyToString, type Key, type Value } from '../runtime/values';
import type { RequestMethod } from '../runtime/methods';
import type { AppTree } from './app-tree';
import { compileRouteKey } from './pattern';
import { scanSlashParts } from './sscanf';

/** Where CodeIgniter 3's router sends a request: the fields of `conformance/url/`. */
/**
 * Keys of `$route` the router reads as settings. `404_override` is also matched as a pattern
 * (of the URI `404_override`, which nobody means): where any of them stands changes nothing, so
 * they are never unreachable, duplicate or outside a module.
 */
export const ROUTER_SETTING_KEYS: ReadonlySet<string> = new Set(['default_controller', '404_override', 'translate_uri_dashes']);

export interface Dispatch {
  directory: string | null;
  class: string;
  method: string;
  rsegments: string[];
  default_controller_used: boolean;
}

export interface UrlMatch {
  uri: string;
  /** The route key that matched first, or null when none did. */
  matched_key: string | null;
  /** The target after back-reference substitution, split on `/` (null when no route ran). */
  target_segments: string[] | null;
  dispatch: Dispatch;
  /** True when the URI was empty and the default controller answered directly. */
  default_controller_route: boolean;
  /** Position of the matched entry in the route table. */
  matchedIndex?: number;
  /** A request CodeIgniter refuses before routing (show_error), if any. */
  rejected?: string;
  /** When a closure route's result or a target could not be known statically. */
  unknown?: string;
}

export interface RouterOptions {
  method: RequestMethod;
  tree: AppTree;
  /** Evaluates a closure route with the matched groups (the evaluator provides it). */
  callClosure?: (closure: PhpClosure, args: string[]) => Value;
  /** CodeIgniter's URI filter (`$config['permitted_uri_chars']`); CodeIgniter's default when absent. */
  uriFilter?: UriFilter;
}
export const noWarnings = { warn: () => undefined };

/** `$route` as CodeIgniter's router reads it: reserved keys split off, patterns in order. */
export interface RouterTable {
  defaultController: Value | undefined;
  translateUriDashes: boolean;
  patterns: { key: Key; value: Value; index: number }[];
}

export function readRouteTable(routes: PhpArray): RouterTable {
  const patterns: RouterTable['patterns'] = [];
  let index = 0;
  for (const [key, value] of routes.entries()) {
    if (key !== 'default_controller' && key !== 'translate_uri_dashes') patterns.push({ key, value, index });
    index++;
  }
  return {
    defaultController: routes.get('default_controller'),
    translateUriDashes: routes.get('translate_uri_dashes') === true,
    patterns,
  };
}

/** URI segments as CodeIgniter's URI class makes them: trimmed, empty ones dropped. */
export function uriSegments(uri: string): string[] {
  const trimmed = uri.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return [];
  return trimmed.split('/').map(phpTrim).filter((s) => s !== '');
}

/** PHP's trim(): spaces, tabs, line ends, NUL and vertical tabs only (JavaScript's trim() takes Unicode's spaces too). */
function phpTrim(s: string): string {
  return s.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');
}

/** show_error()'s message when `$route['default_controller']` is empty. */
export const NO_DEFAULT_ROUTE = 'Unable to determine what should be displayed. A default route has not been specified in the routing file.';

/** PHP's ucfirst(): the first byte upper-cased, ASCII only. */
export function ucfirst(s: string): string {
  const c = s.charCodeAt(0);
  return c >= 97 && c <= 122 ? String.fromCharCode(c - 32) + s.slice(1) : s;
}

/**
 * The state CI_Router builds up while it routes one request, and its methods that resolve the
 * routed segments (`_set_request`, `_validate_request`, `_set_default_controller`). The HMVC
 * routers extend it as their PHP classes extend CI_Router (see hmvc/).
 */
export class CiRouter {
  directory: string | null = null;
  klass = '';
  method = 'index';
  rsegments: string[] = [];
  defaultUsed = false;
  /** `$this->default_controller`: the HMVC routers rewrite it in place. */
  defaultController: Value | undefined;

  /** @param tree the application folder (paths such as `controllers/Home.php`) */
  constructor(
    protected readonly table: RouterTable,
    protected readonly tree: AppTree,
  ) {
    this.defaultController = table.defaultController;
  }

  setDirectory(dir: string, append: boolean): void {
    const clean = dir.replace(/^\/+|\/+$/g, '').split('.').join('') + '/';
    if (!append || !this.directory) this.directory = clean;
    else this.directory += clean;
  }

  setClass(c: string): void {
    this.klass = c.replace(/[/.]/g, '');
  }

  protected validateRequest(segments: string[]): string[] {
    let c = segments.length;
    const directoryOverride = this.directory !== null;
    while (c-- > 0) {
      const first = segments[0];
      const test = (this.directory ?? '') + ucfirst(this.table.translateUriDashes ? first.replace(/-/g, '_') : first);
      if (!this.tree.isFile(`controllers/${test}.php`) && !directoryOverride && this.tree.isDir(`controllers/${this.directory ?? ''}${first}`)) {
        this.setDirectory(segments.shift() as string, true);
        continue;
      }
      return segments;
    }
    return segments;
  }

  /** CI_Router::_set_default_controller(); returns show_error()'s message when there is no default route. */
  setDefaultController(): string | undefined {
    this.defaultUsed = true;
    const dc = this.defaultController;
    if (dc === undefined || dc === null || dc === '' || dc === '0' || dc === false || dc === 0) {
      return NO_DEFAULT_ROUTE;
    }
    const text = toPhpString(dc, noWarnings);
    if (text instanceof Unknown) return `the default controller is not known statically (${text.reason})`;
    // sscanf($default_controller, '%[^/]/%s', $class, $method) !== 2: method 'index'
    const [klass = '', scanned] = scanSlashParts(text, 2);
    const method = scanned ?? 'index';
    if (!this.tree.isFile(`controllers/${this.directory ?? ''}${ucfirst(klass)}.php`)) return undefined;
    this.setClass(klass);
    this.method = method;
    this.rsegments = [klass, method];
    return undefined;
  }

  /** CI_Router::_set_request(). */
  setRequest(input: string[]): string | undefined {
    const segments = this.validateRequest(input.slice());
    if (segments.length === 0) return this.setDefaultController();
    if (this.table.translateUriDashes) {
      segments[0] = segments[0].replace(/-/g, '_');
      if (segments.length > 1) segments[1] = segments[1].replace(/-/g, '_');
    }
    this.setClass(segments[0]);
    if (segments.length > 1) this.method = segments[1];
    else segments[1] = 'index';
    this.rsegments = segments;
    return undefined;
  }

  dispatch(): Dispatch {
    return { directory: this.directory, class: this.klass, method: this.method, rsegments: this.rsegments, default_controller_used: this.defaultUsed };
  }
}

/** The target of a route value for a request method: verb arrays pick their entry or skip. */
function targetFor(value: Value, method: RequestMethod): Value | undefined {
  if (!(value instanceof PhpArray)) return value;
  const verb = method === 'CLI' ? 'cli' : method.toLowerCase();
  for (const [k, v] of value.entries()) if (keyToString(k).toLowerCase() === verb) return v;
  return undefined;
}

/** The first route of a table that matches a URI, and the target it rewrites the URI to. */
export interface TableMatch {
  key: string;
  /** Position of the matched entry in the route table. */
  index: number;
  /** The target after back-reference substitution (or the closure's result), or why it is not known statically. */
  target: string | Unknown;
}

/**
 * CI_Router::_parse_routes() without what follows it: the first key of the table that matches the
 * URI (segments joined with `/`), its target for the request method, back-references substituted
 * only when the key has a group; undefined when no key matches.
 */
export function matchRouteTable(
  table: RouterTable,
  path: string,
  options: Pick<RouterOptions, 'method' | 'callClosure'>,
): TableMatch | undefined {
  const bytes = utf8Bytes(path);
  for (const { key, value, index } of table.patterns) {
    const target = targetFor(value, options.method);
    if (target === undefined) continue;
    const pattern = compileRouteKey(keyToString(key));
    const groups = pattern.matchBytes(bytes);
    if (!groups) continue;
    let val: Value = target;
    if (val instanceof PhpClosure) {
      val = options.callClosure ? options.callClosure(val, groups.slice(1)) : new Unknown('closure routes are evaluated by the host');
    } else if (typeof val === 'string' && val.includes('$') && pattern.substitutes) {
      val = pattern.replace(path, val);
    }
    const text = val instanceof PhpArray ? 'Array' : toPhpString(val, noWarnings);
    return { key: keyToString(key), index, target: text };
  }
  return undefined;
}

export const DISALLOWED_CHARACTERS = 'The URI you submitted has disallowed characters.';

/**
 * Routes one URI exactly as CodeIgniter 3.1's CI_Router does: patterns in order, the first match
 * wins, back-references substituted only when the key has a group, then directory/class/method
 * resolution against the controllers that exist.
 */
export function routeUri(routes: PhpArray | RouterTable, uri: string, options: RouterOptions): UrlMatch {
  const table = routes instanceof PhpArray ? readRouteTable(routes) : routes;
  const run = new CiRouter(table, options.tree);
  const segments = uriSegments(uri);
  const base = { uri, matched_key: null as string | null, target_segments: null as string[] | null };
  if (segments.length === 0) {
    const rejected = run.setDefaultController();
    return { ...base, dispatch: run.dispatch(), default_controller_route: true, ...(rejected ? { rejected } : {}) };
  }
  const refused = refusedSegment(options.uriFilter, segments);
  if (refused && 'segment' in refused) {
    return { ...base, dispatch: run.dispatch(), default_controller_route: false, rejected: DISALLOWED_CHARACTERS };
  }
  if (refused) return { ...base, dispatch: run.dispatch(), default_controller_route: false, unknown: refused.unknown };
  const hit = matchRouteTable(table, segments.join('/'), options);
  if (hit) {
    if (hit.target instanceof Unknown) {
      return { ...base, matched_key: hit.key, matchedIndex: hit.index, dispatch: run.dispatch(), default_controller_route: false, unknown: hit.target.reason };
    }
    const targetSegments = hit.target.split('/');
    const rejected = run.setRequest(targetSegments);
    return {
      uri,
      matched_key: hit.key,
      target_segments: targetSegments,
      dispatch: run.dispatch(),
      default_controller_route: false,
      matchedIndex: hit.index,
      ...(rejected ? { rejected } : {}),
    };
  }
  const rejected = run.setRequest(segments);
  return { ...base, target_segments: segments, dispatch: run.dispatch(), default_controller_route: false, ...(rejected ? { rejected } : {}) };
}

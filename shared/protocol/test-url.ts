import type { RoutedRequest } from '../analysis/model/request-routing';
import type { ProtocolLocation } from './route-table';

/**
 * What `ciRoutes/testUrl` answers: the request routed as the application's router routes it (the
 * HMVC vectors' fields: `method` is the controller's method), and where its routes are declared.
 */
export interface TestUrlResult extends Omit<RoutedRequest, 'main_span' | 'module_declaration' | 'order_unsure' | 'conditional'> {
  /** The request method asked for. */
  request_method: string;
  /** How the router was chosen (`detected from …`, `given`, `default: …`). */
  router_source: string;
  /** As RouteTableResult's: the answer may not be what PHP does. */
  limits?: string[];
  /** Routes of the table whose path or target cannot be known statically (`line 4: reason`): one may take the URI first. */
  unknownRoutes?: string[];
  /** Another route matches too and may come first (their order depends on an undecidable condition). */
  orderUnsure?: string;
  /** Entries the answer rests on (the route, 404_override, the default controller) set only under a condition that cannot be decided. */
  conditional?: string[];
  /** The controller file, when one serves the request. */
  controllerUri?: string;
  /** The declaration of the main route that matched. */
  location?: ProtocolLocation;
  /** The declaration of the module route that matched. */
  moduleLocation?: ProtocolLocation;
  /**
   * Routes of the main table that did not take the request, and why: those that match too (later
   * in the table, under other methods, or with no target for the method), then the near misses
   * (same first segment, or a pattern there). At most MAX_NOT_MATCHED.
   */
  notMatched?: NotMatchedRoute[];
  /** Misses left out past MAX_NOT_MATCHED. */
  notMatchedMore?: number;
  /** Routes of the main table CodeIgniter tried before the match (all of them when none matched). */
  tried?: number;
}

/** A route of the main table that did not take the request (see TestUrlResult.notMatched). */
export interface NotMatchedRoute {
  key: string;
  kind: 'pattern' | 'later' | 'verbs' | 'method' | 'invalid';
  reason: string;
  /** For `method`: the methods whose tables hold it. */
  methods?: string[];
  location?: ProtocolLocation;
}

/** Routes that did not match listed at most in a Test URL answer. */
export const MAX_NOT_MATCHED = 20;


/** What `ciRoutes/testUrl` answers when the file gives no table to route with (PHP stops, or no `$route`). */
export interface TestUrlError {
  request_method: string;
  uri: string;
  error: string;
  limits?: string[];
  unknownRoutes?: string[];
}

/** Either answer, as the extension reads it: every field of both, each maybe absent. */
export type TestUrlAnswer = Partial<TestUrlResult> & Partial<Omit<TestUrlError, 'error'>>;

/**
 * The call CodeIgniter.php makes for a routed request: `Class::method(args)`, or, when the
 * controller has `_remap()`, `Class::_remap('method', [args])`, which it calls instead.
 */
export function controllerCall(r: { class?: string | null; method?: string | null; rsegments?: readonly string[] | null; via_remap?: true }): string {
  const args = (r.rsegments ?? []).slice(2);
  const method = r.method ?? 'index';
  return r.via_remap ? `${r.class}::_remap('${method}', [${args.map((a) => `'${a}'`).join(', ')}])` : `${r.class}::${method}(${args.join(', ')})`;
}

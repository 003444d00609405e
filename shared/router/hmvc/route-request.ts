import { PhpArray, Unknown, type PhpClosure, type Value } from '../../runtime/values';
import type { RequestMethod } from '../../runtime/methods';
import type { AppTree } from '../app-tree';
import { CiRouter, DISALLOWED_CHARACTERS, matchRouteTable, readRouteTable, uriSegments, type RouterTable } from '../ci-router';
import { applicationFolder } from './app-paths';
import { dispatch, type MethodCheck } from './dispatch';
import type { RouterFlavour } from './flavour';
import { HmvcRouter } from './hmvc-router';
import type { LocateCall } from './locate';
import type { ModuleRouteMatch, ModuleRoutesFile } from './module-routes';
import { RouterStop, rejectionStop, showError } from './router-stop';
import { settingText } from './settings';
import { refusedSegment, type UriFilter } from '../uri-filter';

/** One request to route. */
export interface RouteRequestInput {
  flavour: RouterFlavour;
  /** The application root: `application/` below it (and Bonfire's `bonfire/`). */
  root: AppTree;
  /** The request path, without a leading slash (`''` is the site root). */
  uri: string;
  method: RequestMethod;
  /** `$route` as `application/config/routes.php` left it under the request's method; undefined when it left no array. */
  routes: PhpArray | undefined;
  /**
   * A module's `config/routes.php` (path from the application root) evaluated for this request:
   * the router asks for each at most once, in the order PHP includes them (see
   * ModuleRouteFiles.forRequest). Unused by `ci`.
   */
  moduleRoutes?: (path: string) => ModuleRoutesFile;
  /** Evaluates a closure route of the main file with the matched groups (the evaluator provides it). */
  callClosure?: (closure: PhpClosure, args: string[]) => Value;
  /** CodeIgniter's URI filter (`$config['permitted_uri_chars']`); CodeIgniter's default when absent. */
  uriFilter?: UriFilter;
  /** Whether a controller has the method, when the host knows; any method is accepted otherwise. */
  accepts?: MethodCheck;
}

/** Where one request goes: the fields of the HMVC conformance vectors (see conformance/hmvc/README.md). */
export interface HmvcRouting {
  uri: string;
  /** What CodeIgniter's URI class made of the URI. */
  segments: string[];
  /** The URI was empty: the main routes were not consulted. */
  default_controller_route: boolean;
  main_matched_key: string | null;
  /** What the router received: the main route's target, or the URI's segments; null for an empty URI. */
  main_target_segments: string[] | null;
  /** The module route of the request's first look-up, if one matched. */
  module_route: ModuleRouteMatch | null;
  /** The router's `module` (the last module folder found). */
  module: string | null;
  /** These five are null unless a controller serves the request (`404` false). */
  directory: string | null;
  class: string | null;
  method: string | null;
  rsegments: string[] | null;
  controller_file: string | null;
  /** True for the 404 page, null when the request ends in an error (see `error`) or is not known statically. */
  '404': boolean | null;
  stage_404: 'router' | 'dispatch' | null;
  show_404: string | null;
  used_default_controller: boolean;
  used_404_override: boolean;
  dispatch_404_override: boolean;
  /** The router's own state before dispatch. */
  router: { directory: string | null; class: string; method: string; rsegments: string[]; routes_404_override: string | null };
  locate_calls: LocateCall[];
  /** Each module's `$route` loaded in this request, in load order. */
  module_route_tables: { module: string; routes: PhpArray }[];
  /** An error page or uncaught PHP error (`OracleShowError: show_error(500): …`, `TypeError: …`). */
  error: string | null;
  /** Why the outcome is not known statically (the other fields are then as far as routing got). */
  unknown?: string;
  /**
   * The URI segment CodeIgniter's URI filter refused (its 400, "disallowed characters"), and why:
   * which `permitted_uri_chars` does not permit it, or that PHP fails on the setting's pattern.
   */
  uri_refused?: { segment: string; why: string };
}

/** A request's fields while no controller serves it and no 404 is decided (the look-up's outcome unknown). */
export const NOT_DISPATCHED = {
  directory: null,
  class: null,
  method: null,
  rsegments: null,
  controller_file: null,
  '404': null,
  stage_404: null,
  show_404: null,
} as const satisfies Partial<HmvcRouting>;

const noModuleFiles = (): ModuleRoutesFile => ({ routes: undefined, unknown: 'module route files were not provided' });

/**
 * Routes one request as CodeIgniter 3 with the given router does: CI_Router's main table (first
 * match, back-references), then the flavour's request handling (Bonfire: BF_Router's module
 * look-up in `_validate_request`; MX: MX_Router's `_set_request`), module routes files, default
 * controller and 404_override module paths, and CodeIgniter.php's dispatch. A pure function of
 * its input: files are known through `root`, module routes through `moduleRoutes`.
 */
export function routeRequest(input: RouteRequestInput): HmvcRouting {
  const routes = input.routes ?? new PhpArray();
  const table = readRouteTable(routes);
  const override404 = routes.get('404_override');
  const hmvc = input.flavour === 'ci' ? undefined : new HmvcRouter(table, input.flavour, input.root, override404, input.moduleRoutes ?? noModuleFiles);
  const router = hmvc ?? new CiRouter(table, applicationFolder(input.root));
  const segments = uriSegments(input.uri);
  const result: HmvcRouting = {
    uri: input.uri,
    segments,
    default_controller_route: segments.length === 0,
    main_matched_key: null,
    main_target_segments: null,
    module_route: null,
    module: null,
    ...NOT_DISPATCHED,
    used_default_controller: false,
    used_404_override: false,
    dispatch_404_override: false,
    router: { directory: null, class: '', method: 'index', rsegments: [], routes_404_override: null },
    locate_calls: [],
    module_route_tables: [],
    error: null,
  };
  let stop: RouterStop | undefined;
  try {
    const rejected = segments.length === 0 ? router.setDefaultController() : setRequestFromUri(router, table, segments, input, result);
    if (rejected !== undefined) throw rejectionStop(rejected);
  } catch (e) {
    if (!(e instanceof RouterStop)) throw e;
    stop = e;
  }
  result.module = hmvc?.module ?? null;
  result.module_route = hmvc?.firstModuleRoute ?? null;
  result.locate_calls = hmvc?.calls ?? [];
  result.module_route_tables = hmvc?.loadedTables ?? [];
  result.used_default_controller = router.defaultUsed;
  result.used_404_override = hmvc?.used404Override ?? false;
  const finalOverride = hmvc ? hmvc.override404 : override404;
  result.router = {
    directory: router.directory,
    class: router.klass,
    method: router.method,
    rsegments: router.rsegments,
    routes_404_override: finalOverride === undefined || finalOverride === null || finalOverride instanceof Unknown ? null : settingText(finalOverride),
  };
  if (stop) return stopped(result, stop);
  try {
    const outcome = dispatch({ directory: router.directory, klass: router.klass, method: router.method, rsegments: router.rsegments }, finalOverride, input.flavour, input.root, input.accepts);
    result['404'] = outcome.notFound;
    result.dispatch_404_override = outcome.viaOverride;
    if (outcome.notFound) {
      result.stage_404 = 'dispatch';
      result.show_404 = outcome.shown ?? null;
      return result;
    }
    result.directory = outcome.directory;
    result.class = outcome.class;
    result.method = outcome.method;
    result.rsegments = outcome.rsegments;
    result.controller_file = outcome.file;
    return result;
  } catch (e) {
    if (!(e instanceof RouterStop)) throw e;
    return stopped(result, e);
  }
}

/** CI_Router::_parse_routes(): the main table's first match (or the URI itself) handed to the flavour's `_set_request`. */
function setRequestFromUri(router: CiRouter, table: RouterTable, segments: string[], input: RouteRequestInput, result: HmvcRouting): string | undefined {
  const refused = refusedSegment(input.uriFilter, segments);
  if (refused && 'segment' in refused) {
    result.uri_refused = refused;
    throw showError(DISALLOWED_CHARACTERS, 400);
  }
  if (refused) throw new RouterStop('unknown', refused.unknown);
  const hit = matchRouteTable(table, segments.join('/'), input);
  let target = segments;
  if (hit) {
    result.main_matched_key = hit.key;
    if (hit.target instanceof Unknown) throw new RouterStop('unknown', hit.target.reason);
    target = hit.target.split('/');
  }
  result.main_target_segments = target;
  return router.setRequest(target);
}

function stopped(result: HmvcRouting, stop: RouterStop): HmvcRouting {
  if (stop.kind === 'show_404') {
    result['404'] = true;
    result.stage_404 = 'router';
    result.show_404 = stop.detail;
  } else if (stop.kind === 'error') {
    result.error = stop.detail;
  } else {
    result.unknown = stop.detail;
  }
  return result;
}

import { orderVariesBetween, type EvaluateOptions, type FileEvaluation } from '../../evaluate/evaluate-file';
import { keyToString } from '../../runtime/values';
import { isDynamicKey } from '../../library/records';
import { compileRouteKey } from '../../router/pattern';
import { REQUEST_METHODS, type MethodIndex, type RequestMethod } from '../../runtime/methods';
import type { Span } from '../../php/ast';
import type { AppTree } from '../../router/app-tree';
import type { Dispatch } from '../../router/ci-router';
import { fromApplicationFolder, moduleOfControllerPath, type ControllerResolution } from '../../router/controller-target';
import type { RouterFlavour } from '../../router/hmvc/flavour';
import { evaluatedModuleRouteFiles } from '../../router/hmvc/module-route-files';
import { NOT_DISPATCHED, routeRequest, type HmvcRouting } from '../../router/hmvc/route-request';
import { routeRows } from './route-table';
import { ucfirst } from '../../router/ci-router';
import type { ControllerMethods } from '../../workspace/controller-catalog';
import { phpOwnClassOfFile } from '../../runtime/builtin-classes';
import type { PhpVersion } from '../../runtime/php-version';
import { shownError } from '../../router/hmvc/router-stop';
import type { UriFilter } from '../../router/uri-filter';

export interface RequestRoutingOptions {
  flavour: RouterFlavour;
  /** The application root (`application/` below it, and Bonfire's `bonfire/`), as the router sees it. */
  root: AppTree;
  /** The evaluation of `application/config/routes.php`. */
  main: FileEvaluation;
  /** A module routes file's text by path from the root (hosts give an open document's first); undefined when unreadable. */
  read(path: string): string | undefined;
  /** How module route files are evaluated (the main file's dialect, the budgets, the includes reader). */
  evaluate?: Omit<EvaluateOptions, 'libraryStart' | 'constants' | 'file'>;
  /** The name a module routes file is evaluated under, from its path from the root (see ModuleRouteFilesOptions.fileName). */
  fileName?: (path: string) => string;
  /**
   * Why the application's controllers cannot be looked up as its router looks them up (see
   * TargetRouting.controllersUnknown): the main and module routes are followed, and what the
   * controller look-up decides (the controller, the 404 page) is left unknown with this reason.
   */
  controllersUnknown?: string;
  /**
   * Why the route table is not read or matched as the stock router does (the application's own
   * router redefines it): nothing past the URI's segments is answered, and the outcome is unknown
   * with this reason.
   */
  routingUnknown?: string;
  /**
   * Why the module route files the router consults are not known (Modular Extensions' modules kept
   * elsewhere than `application/modules/`): the main route is followed, the rest is unknown.
   */
  moduleRoutesUnknown?: string;
  /**
   * A controller file's routable methods (path from the application folder), when the host reads
   * them: CodeIgniter.php answers 404 for a method the controller lacks (no `_remap()`), or serves
   * 404_override. Without it, a controller file found serves the request.
   */
  methodsOf?: (file: string) => ControllerMethods | undefined;
  /** CodeIgniter's URI filter under the environment in force (Application.uriFilter); CodeIgniter's default when absent. */
  uriFilter?: UriFilter;
}

/** A route's declaration in a module routes file. */
export interface ModuleRouteDeclaration {
  /** The file's path from the application root. */
  file: string;
  /** The file's text as evaluated, for positions. */
  text: string;
  span: Span;
}

/** One request routed as the application's router does, with the fields earlier answers had. */
export interface RoutedRequest extends Omit<HmvcRouting, 'module_route_tables'> {
  flavour: RouterFlavour;
  /** CI_Router's view, kept for earlier readers: the main route key, its target, the router's state. */
  matched_key: string | null;
  target_segments: string[] | null;
  dispatch: Dispatch;
  /** The controller that serves the request (paths from the application folder), or why none does. */
  controller: ControllerResolution | null;
  /** Where the main route that matched is declared, in the main file. */
  main_span?: Span;
  /** The module routes file consulted by the first look-up (path from the root), when a key of it matched. */
  module_route_file: string | null;
  module_declaration?: ModuleRouteDeclaration;
  /**
   * Another main route that matches the URI too and may come first: which of the two does
   * depends on a condition that cannot be decided (see FileEvaluation.orderVaries).
   */
  order_unsure?: { other_key: string; condition: Span };
  /**
   * Entries of the main `$route` the answer rests on (the route that matched, the 404_override
   * that served it, the default controller) declared under a condition that cannot be decided:
   * where it does not hold, the request is routed otherwise.
   */
  conditional?: { key: string; condition: Span }[];
  /** The controller has `_remap()` (its own or inherited): CodeIgniter.php calls it with the method's name and arguments instead. */
  via_remap?: true;
}

/** Routes requests of one application: module route files are evaluated once per sequence of files, across requests. */
export interface RequestRouter {
  route(uri: string, method: RequestMethod): RoutedRequest;
}

/** The `controllersUnknown` and `routingUnknown` options for reasons that may be absent. */
export function unknownsOf(controllers: string | undefined, routing: string | undefined, moduleRoutes?: string): Pick<RequestRoutingOptions, 'controllersUnknown' | 'routingUnknown' | 'moduleRoutesUnknown'> {
  return { ...(controllers === undefined ? {} : { controllersUnknown: controllers }), ...(routing === undefined ? {} : { routingUnknown: routing }), ...(moduleRoutes === undefined ? {} : { moduleRoutesUnknown: moduleRoutes }) };
}

export function requestRouter(options: RequestRoutingOptions): RequestRouter {
  const texts = new Map<string, string | undefined>();
  const read = (path: string): string | undefined => {
    if (!texts.has(path)) texts.set(path, options.read(path));
    return texts.get(path);
  };
  const modules = evaluatedModuleRouteFiles({ main: options.main, read, shareRouteLibrary: options.flavour === 'bonfire', evaluate: options.evaluate, fileName: options.fileName });
  return {
    route(uri, method) {
      const m = REQUEST_METHODS.indexOf(method) as MethodIndex;
      const loaded: { path: string; evaluation: FileEvaluation | null }[] = [];
      const routing = routeRequest({
        flavour: options.flavour,
        root: options.root,
        uri,
        method,
        routes: options.main.methods[m].routes,
        moduleRoutes: modules.forRequest(method, (path, evaluation) => loaded.push({ path, evaluation })),
        callClosure: (closure, args) => options.main.callClosure(m, closure, args),
        ...(options.uriFilter ? { uriFilter: options.uriFilter } : {}),
      });
      const { module_route_tables: _tables, ...looked } = routing;
      let fields: Omit<HmvcRouting, 'module_route_tables'> =
        options.routingUnknown !== undefined
          ? { ...withoutLookUp(looked, options.routingUnknown), main_matched_key: null, main_target_segments: null, module_route: null, module: null, locate_calls: [] }
          : options.moduleRoutesUnknown !== undefined && !looked.default_controller_route
            ? { ...withoutLookUp(looked, options.moduleRoutesUnknown), module_route: null, module: null, locate_calls: [] }
          : options.controllersUnknown === undefined || looked.unknown !== undefined
            ? looked
            : withoutLookUp(looked, options.controllersUnknown);
      fields = phpClassClash(fields, options.evaluate?.phpVersion);
      if (options.methodsOf) fields = dispatchedMethod(fields, options.methodsOf);
      const first = fields.module_route ? loaded[0] : undefined;
      const mainSpan = fields.main_matched_key === null ? undefined : declarationSpan(options.main, m, fields.main_matched_key);
      const moduleSpan = first?.evaluation && fields.module_route ? declarationSpan(first.evaluation, m, fields.module_route.key) : undefined;
      const moduleText = first ? read(first.path) : undefined;
      const unsure = fields.main_matched_key === null ? undefined : orderUnsure(options.main, m, routing.uri, fields.main_matched_key);
      return {
        ...fields,
        flavour: options.flavour,
        matched_key: fields.main_matched_key,
        target_segments: fields.main_target_segments,
        dispatch: {
          directory: routing.router.directory,
          class: routing.router.class,
          method: routing.router.method,
          rsegments: routing.router.rsegments,
          default_controller_used: routing.used_default_controller,
        },
        controller: controllerOf(fields),
        ...(mainSpan ? { main_span: mainSpan } : {}),
        module_route_file: first?.path ?? null,
        ...(first && moduleSpan && moduleText !== undefined ? { module_declaration: { file: first.path, text: moduleText, span: moduleSpan } } : {}),
        ...(unsure ? { order_unsure: unsure } : {}),
        ...conditionalOf(options.main, m, fields),
      };
    },
  };
}

/**
 * What CodeIgniter.php does when the controller file lacks the routed method (and `_remap()`):
 * the 404 page, or, when `404_override` is set, that controller, which is not followed here.
 * A controller whose methods cannot all be read (an inherited class or a trait not read) leaves it unknown.
 */
function dispatchedMethod<T extends Omit<HmvcRouting, 'module_route_tables'>>(r: T, methodsOf: (file: string) => ControllerMethods | undefined): T {
  if (r.controller_file === null || r.class === null || r.method === null) return r;
  const methods = methodsOf(fromApplicationFolder(r.controller_file));
  if (methods?.hasRemap) return { ...r, via_remap: true };
  if (!methods || methods.names.has(r.method.toLowerCase())) return r;
  // Methods it may inherit are not all read: whether it has this one is not known.
  if (methods.open !== undefined) return withoutLookUp(r, `whether ${fromApplicationFolder(r.controller_file)} has a public method ${r.method}() is not known: ${methods.open}`);
  const missing = `${r.directory ?? ''}${ucfirst(r.class)}/${r.method}`;
  if (r.router.routes_404_override) {
    return withoutLookUp(r, `${fromApplicationFolder(r.controller_file)} has no public method ${r.method}(): CodeIgniter then serves 404_override ('${r.router.routes_404_override}'), which is not followed here`);
  }
  return { ...r, ...NOT_DISPATCHED, '404': true, stage_404: 'dispatch', show_404: missing };
}

/**
 * A controller whose class is one of PHP's own (`Error` since PHP 7): CodeIgniter.php's
 * require_once() of its file declares the class again, a fatal error; as 404_override, class_exists()
 * finds PHP's, which CodeIgniter then instantiates and calls a method it does not have.
 */
function phpClassClash<T extends Omit<HmvcRouting, 'module_route_tables'>>(r: T, php: PhpVersion | undefined): T {
  if (r.controller_file === null || r.class === null) return r;
  const own = phpOwnClassOfFile(r.controller_file, php);
  if (!own) return r;
  const error = r.dispatch_404_override
    ? `the 404_override controller ${own.name} is PHP's own class (since PHP ${own.since}): CodeIgniter finds PHP's with class_exists(), never loads ${r.controller_file}, and calls ${own.name}::${r.method ?? 'index'}(), which PHP's class does not have (an Error)`
    : `PHP Fatal error: Cannot declare class ${own.name}, because the name is already in use: ${r.controller_file} declares PHP's own class ${own.name} (since PHP ${own.since})`;
  return { ...r, ...NOT_DISPATCHED, error };
}

/** A request's routing up to the controller look-up, what that decides unknown for `why`. */
function withoutLookUp<T extends Omit<HmvcRouting, 'module_route_tables'>>(r: T, why: string): T {
  return {
    ...r,
    ...NOT_DISPATCHED,
    used_404_override: false,
    dispatch_404_override: false,
    error: null,
    unknown: why,
  };
}

/** A key of the method's table that matches `uri` too and whose order with `matched` depends on an undecidable condition. */
function orderUnsure(main: FileEvaluation, m: MethodIndex, uri: string, matched: string): { other_key: string; condition: Span } | undefined {
  const routes = main.methods[m].routes;
  if (main.orderVaries.length === 0 || !routes) return undefined;
  for (const k of routes.keys()) {
    const key = keyToString(k);
    if (key === matched || isDynamicKey(k)) continue;
    const condition = orderVariesBetween(main, matched, key, m);
    if (condition && compileRouteKey(key).match(uri)) return { other_key: key, condition };
  }
  return undefined;
}

/** The main `$route` entries an answer used (see RoutedRequest.conditional) that only one branch of an undecidable condition sets. */
function conditionalOf(main: FileEvaluation, m: MethodIndex, r: Omit<HmvcRouting, 'module_route_tables'>): Pick<RoutedRequest, 'conditional'> {
  if (main.orderVaries.length === 0) return {};
  const used: string[] = [];
  if (r.main_matched_key !== null) used.push(r.main_matched_key);
  if (r.used_404_override || r.dispatch_404_override) used.push('404_override');
  if (r.default_controller_route || r.used_default_controller) used.push('default_controller');
  const out: { key: string; condition: Span }[] = [];
  for (const key of used) {
    const group = main.orderVaries.find((g) => (g.mask & (1 << m)) !== 0 && g.onlySome.has(key));
    if (group) out.push({ key, condition: group.condition });
  }
  return out.length ? { conditional: out } : {};
}

/** The declaration of a key of a file's final `$route` under a method (keys are unique: the first row of that key). */
function declarationSpan(evaluation: FileEvaluation, m: MethodIndex, key: string): Span | undefined {
  return routeRows(evaluation, m).find((r) => r.key === key)?.span;
}

/** The controller as earlier answers gave it: its file from the application folder, class as routed, method, arguments. */
function controllerOf(r: Omit<HmvcRouting, 'module_route_tables'>): ControllerResolution | null {
  if (r.controller_file !== null && r.rsegments) {
    const file = fromApplicationFolder(r.controller_file);
    const module = moduleOfControllerPath(r.controller_file);
    return { found: true, target: { file, ...(module ? { module } : {}), class: r.rsegments[0] ?? '', method: r.rsegments[1] ?? r.method ?? 'index', args: r.rsegments.slice(2) } };
  }
  return { found: false, reason: whyNoController(r), tried: [] };
}

function whyNoController(r: Omit<HmvcRouting, 'module_route_tables'>): string {
  if (r.error !== null) return `the request ends in an error: ${shownError(r.error)}`;
  if (r.unknown !== undefined) return `not known statically: ${r.unknown}`;
  const what = r.show_404 ? ` (show_404('${r.show_404}'))` : '';
  return r.stage_404 === 'router' ? `the router shows the 404 page${what}` : `no controller serves it: the 404 page${what}`;
}

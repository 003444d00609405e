import type { Span } from '../../php/ast';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { EntryOriginInfo } from '../../library/records';
import { REQUEST_METHODS, type RequestMethod } from '../../runtime/methods';
import type { AppTree } from '../../router/app-tree';
import type { TargetRouting } from '../../router/hmvc/locate-target';
import type { PhpFileIndex } from '../../workspace/php-index';
import { displayKey } from '../model/produced';
import { DECLARING_METHODS, declarationSummary, methodsLabel, summaryTitle, uniqueCalls, type DeclarationSummary } from '../model/declarations';
import { fromSpan } from '../model/origins';
import { dispatchTarget, routingOf, targetUnder, translatesDashes, type TargetDispatch } from '../model/target-dispatch';

export interface DeclarationLens {
  /** The whole call; editors show the lens above its first line. */
  span: Span;
  title: string;
  summary: DeclarationSummary;
}

/**
 * A lens above each route declaration (any()/verbs, resources(), context(), block(), prefix()):
 * how many routes it really leaves in `$route` and under which methods, counted as
 * declarationSummary() counts them (the hover's header says the same); routes lost everywhere
 * are counted apart by why (replaced, after map()...).
 */
export function declarationLenses(_text: string, evaluation: FileEvaluation): DeclarationLens[] {
  const out: DeclarationLens[] = [];
  for (const call of uniqueCalls(evaluation)) {
    if (!DECLARING_METHODS.has(call.site.method)) continue;
    const site = evaluation.places.site(call.site);
    const summary = declarationSummary(evaluation, site);
    out.push({ span: site.span, title: summaryTitle(summary), summary });
  }
  return out;
}

/** A route that dispatches to a controller, with the methods it exists under. */
export interface ReachingRoute {
  /** Index of its route file in the list given. */
  fileIndex: number;
  key: string;
  target: string;
  methods: RequestMethod[];
  /** Where its path is written in that route file. */
  span?: Span;
  /** False when a back-reference chooses the controller method (`pages/$1`): it may reach it. */
  certain: boolean;
}

export interface ControllerLens {
  /** The method name in the controller file. */
  span: Span;
  methodName: string;
  title: string;
  routes: ReachingRoute[];
}

export interface DispatchedRoute {
  route: ReachingRoute;
  dispatch: TargetDispatch;
}

/** Routes by the controller file they dispatch to (relative to the application folder). */
export type ControllerReach = Map<string, DispatchedRoute[]>;

/** A route file of the application, with the module whose `config/routes.php` it is (its targets are relative to it). */
export interface ModuleRouteFile {
  evaluation: FileEvaluation;
  module?: string;
}

/**
 * Every route of the given route files, grouped by the controller file it dispatches to
 * (relative to the application folder), located as `routing`'s router does (a module file's
 * targets relative to its module). Each distinct target is resolved once per file; hosts may keep
 * the result while the route files and the tree do not change.
 */
export function controllerReach(routeFiles: Iterable<FileEvaluation | ModuleRouteFile>, routing: TargetRouting | AppTree): ControllerReach {
  const byFile: ControllerReach = new Map();
  const base = routingOf(routing);
  // Read one at a time: a caller may evaluate each file as it is read and let it go after.
  let fileIndex = -1;
  for (const file of routeFiles) {
    fileIndex++;
    if (!file) continue;
    const evaluation = 'evaluation' in file ? file.evaluation : file;
    if (!evaluation) continue;
    const module = 'evaluation' in file ? file.module : undefined;
    const fileRouting: TargetRouting = module === undefined ? base : { ...base, module };
    const translate = translatesDashes(evaluation);
    const cache = new Map<string, TargetDispatch | undefined>();
    const merged = new Map<string, DispatchedRoute>();
    (evaluation.methods ?? []).forEach((result, m) => {
      const routes = result?.routes;
      if (!routes) return;
      const method = REQUEST_METHODS[m];
      for (const [k, value] of routes.entries()) {
        if (k === 'translate_uri_dashes') continue;
        const target = targetUnder(value, method);
        if (!target) continue;
        const key = displayKey(k);
        const identity = `${key}\u0000${target}`;
        const seen = merged.get(identity);
        if (seen) {
          if (!seen.route.methods.includes(method)) seen.route.methods.push(method);
          continue;
        }
        if (!cache.has(target)) cache.set(target, dispatchTarget(target, fileRouting, translate));
        const dispatch = cache.get(target);
        if (!dispatch) continue;
        const origin = routes.originOf(k) as EntryOriginInfo | undefined;
        const route: ReachingRoute = { fileIndex, key, target, methods: [method], span: origin ? fromSpan(origin, evaluation.places) : undefined, certain: !dispatch.methodVaries };
        const d = { route, dispatch };
        merged.set(identity, d);
        const list = byFile.get(dispatch.target.file);
        if (list) list.push(d);
        else byFile.set(dispatch.target.file, [d]);
      }
    });
  }
  return byFile;
}

const LISTED = 3;
const MAX_KEY = 40;

function routeLabel(r: ReachingRoute): string {
  const key = r.key.length > MAX_KEY ? `${r.key.slice(0, MAX_KEY - 1)}…` : r.key;
  return `${methodsLabel(r.methods)} ${key}`;
}

function listed(routes: ReachingRoute[]): string {
  const shown = routes.slice(0, LISTED).map(routeLabel).join(', ');
  return routes.length > LISTED ? `${shown}, +${routes.length - LISTED} more` : shown;
}

/** `2 routes: GET photos, PUT photos/(:num)`, `0 routes · 1 may reach: ANY pages/(:any)`. */
export function controllerLensTitle(routes: ReachingRoute[]): string {
  const sure = routes.filter((r) => r.certain);
  const maybe = routes.filter((r) => !r.certain);
  let title = `${sure.length} route${sure.length === 1 ? '' : 's'}`;
  if (sure.length) title += `: ${listed(sure)}`;
  if (maybe.length) title += ` · ${maybe.length} may reach: ${listed(maybe)}`;
  return title;
}

function baseName(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  return name.replace(/\.php$/i, '').toLowerCase();
}

/**
 * A lens on each public method of a controller file: the routes of the route files that
 * dispatch to it (located as the router does, see controllerReach). Targets whose controller is
 * chosen by a back-reference are ignored; a back-reference in the method segment counts as
 * "may reach" for the methods it can name. Pass `reach` from controllerReach() to reuse it.
 */
export function controllerLenses(
  controllerFileRel: string,
  controllerIndex: PhpFileIndex,
  routeFiles: Iterable<FileEvaluation | ModuleRouteFile>,
  routing: TargetRouting | AppTree,
  reach: ControllerReach = controllerReach(routeFiles, routing),
): ControllerLens[] {
  const classes = controllerIndex?.controllers ?? [];
  // The file's controller is the class named like the file; fall back to every class in it.
  const own = classes.filter((c) => c.className.toLowerCase() === baseName(controllerFileRel));
  // Routes naming their method go in buckets by name; only `pages/$1`-like ones are tested per method.
  const byMethod = new Map<string, ReachingRoute[]>();
  const varying: DispatchedRoute[] = [];
  for (const d of reach.get(controllerFileRel) ?? []) {
    if (d.dispatch.methodVaries) {
      varying.push(d);
      continue;
    }
    const name = d.dispatch.target.method.toLowerCase();
    const list = byMethod.get(name);
    if (list) list.push(d.route);
    else byMethod.set(name, [d.route]);
  }
  const out: ControllerLens[] = [];
  for (const cls of own.length ? own : classes) {
    for (const method of cls.methods) {
      const routes = [...(byMethod.get(method.name.toLowerCase()) ?? [])];
      for (const d of varying) if (d.dispatch.methodMatches(method.name)) routes.push(d.route);
      out.push({ span: method.span, methodName: method.name, title: controllerLensTitle(routes), routes });
    }
  }
  return out;
}

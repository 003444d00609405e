import type { RouterFlavour } from '../../router/hmvc/flavour';
import type { TargetRouting } from '../../router/hmvc/locate-target';
import type { ControllerCatalog } from '../../workspace/controller-catalog';
import { guessedRouting } from './target-dispatch';

/** What the host tells of a route file's router: its flavour, and the module whose `config/routes.php` the file is. */
export interface RouteFileRouting {
  flavour: RouterFlavour;
  module?: string;
  /** See TargetRouting.moduleRouteKeys. */
  moduleRouteKeys?: (module: string) => readonly string[] | undefined;
  /** Changes whenever what `moduleRouteKeys` answers changes: the scope is then kept while it does not. */
  moduleRouteKeysVersion?: number;
}

/** A route file's controllers and how its targets are read. */
export interface TargetScope {
  readonly catalog: ControllerCatalog;
  readonly routing: TargetRouting;
}

const scopes = new WeakMap<ControllerCatalog, Map<string, TargetScope>>();

/**
 * The scope of a route file's targets; the same object while the catalog, flavour, module and
 * module route keys' version stay the same (checks remember their verdicts on it); module route
 * keys given without a version make a new one. Without `routing`, the router is guessed (guessedRouting).
 */
export function targetScope(catalog: ControllerCatalog, routing?: RouteFileRouting): TargetScope {
  const resolved: TargetRouting = routing ? { flavour: routing.flavour, root: catalog.root, ...(routing.module !== undefined ? { module: routing.module } : {}), ...(routing.moduleRouteKeys ? { moduleRouteKeys: routing.moduleRouteKeys } : {}) } : guessedRouting(catalog.tree, catalog.root);
  if (routing?.moduleRouteKeys && routing.moduleRouteKeysVersion === undefined) return { catalog, routing: resolved };
  let known = scopes.get(catalog);
  if (!known) scopes.set(catalog, (known = new Map()));
  const keys = routing?.moduleRouteKeys ? `keys ${routing.moduleRouteKeysVersion}` : 'no keys';
  const key = `${resolved.flavour}\u0000${resolved.module ?? ''}\u0000${resolved.module === undefined ? 'main' : 'module'}\u0000${keys}`;
  let scope = known.get(key);
  if (!scope) known.set(key, (scope = { catalog, routing: resolved }));
  return scope;
}

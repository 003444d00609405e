import type { RouterFlavour } from '../../router/hmvc/flavour';
import type { TargetRouting } from '../../router/hmvc/locate-target';
import type { ControllerCatalog } from '../../workspace/controller-catalog';
import { guessedRouting } from './target-dispatch';
import { formatPhpVersion, type PhpVersion } from '../../runtime/php-version';

/** What the host tells of a route file's router: its flavour, and the module whose `config/routes.php` the file is. */
export interface RouteFileRouting {
  flavour: RouterFlavour;
  module?: string;
  /** See TargetRouting.moduleRouteKeys. */
  moduleRouteKeys?: (module: string) => readonly string[] | undefined;
  /** Changes whenever what `moduleRouteKeys` answers changes: the scope is then kept while it does not. */
  moduleRouteKeysVersion?: number;
  /** See TargetRouting.controllersUnknown (for the editor's answers; checks are given no controllers then). */
  controllersUnknown?: string;
  /** The PHP version the application runs on: a controller named as one of PHP's own classes cannot be loaded. */
  php?: PhpVersion;
  /** The file is the application's `config/routes.php` (its environment's runs within it): what it leaves is the whole table the router reads. */
  mainFile?: boolean;
}

/** A route file's controllers and how its targets are read. */
export interface TargetScope {
  readonly catalog: ControllerCatalog;
  readonly routing: TargetRouting;
  /**
   * The same object for every scope of one catalog, flavour and module, whatever the module route
   * keys' version: what was decided without reading those keys holds in all of them.
   */
  readonly family: TargetScopeFamily;
}

/** What the scopes of one catalog, flavour and module share whatever the module route keys' version (see TargetScope.family). */
export class TargetScopeFamily {
  readonly kind = 'target-scope-family';
}

/** Per catalog, by flavour, module and whether module route keys are given: the scope of the newest keys' version. */
const scopes = new WeakMap<ControllerCatalog, Map<string, { version: number | undefined; scope: TargetScope }>>();

/**
 * The scope of a route file's targets; the same object while the catalog, flavour, module and
 * module route keys' version stay the same (checks remember their verdicts on it), and of the same
 * family while only that version changes; module route keys given without a version make a new one. Without `routing`, the router is guessed (guessedRouting).
 */
export function targetScope(catalog: ControllerCatalog, routing?: RouteFileRouting): TargetScope {
  const resolved: TargetRouting = routing
    ? {
        flavour: routing.flavour,
        root: catalog.root,
        ...(routing.module !== undefined ? { module: routing.module } : {}),
        ...(routing.moduleRouteKeys ? { moduleRouteKeys: routing.moduleRouteKeys } : {}),
        ...(routing.controllersUnknown !== undefined ? { controllersUnknown: routing.controllersUnknown } : {}),
        ...(routing.php ? { php: routing.php } : {}),
      }
    : guessedRouting(catalog.tree, catalog.root);
  if (routing?.moduleRouteKeys && routing.moduleRouteKeysVersion === undefined) return { catalog, routing: resolved, family: new TargetScopeFamily() };
  let known = scopes.get(catalog);
  if (!known) scopes.set(catalog, (known = new Map()));
  const familyKey = `${resolved.flavour}\u0000${resolved.module ?? ''}\u0000${resolved.module === undefined ? 'main' : 'module'}\u0000${routing?.moduleRouteKeys ? 'keys' : 'no keys'}\u0000${resolved.controllersUnknown ?? ''}\u0000${routing?.php ? formatPhpVersion(routing.php) : ''}`;
  const version = routing?.moduleRouteKeys ? routing.moduleRouteKeysVersion : undefined;
  const kept = known.get(familyKey);
  if (kept && kept.version === version) return kept.scope;
  // Only the newest version's scope is asked for again: it replaces the one before, in the same family.
  const scope: TargetScope = { catalog, routing: resolved, family: kept?.scope.family ?? new TargetScopeFamily() };
  known.set(familyKey, { version, scope });
  return scope;
}

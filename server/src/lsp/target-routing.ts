import type { RouterFlavour } from '../../../shared/router/hmvc/flavour';
import type { TargetRouting } from '../../../shared/router/hmvc/locate-target';
import { AppRoot } from '../host/app-root';
import { moduleOfRouteFile } from '../host/module-route-file';
import type { FeatureDeps } from './feature-deps';

/**
 * How the application's router reads a route file's targets, for the editor's requests (hover,
 * definition, links, lenses), as for its diagnostics (RouteService.routingOf): the flavour, the
 * application root, the module of a module routes file, and for the main file the module files'
 * keys the index recorded (none under Bonfire, whose module tables hold the main file's routes too).
 */
export function targetRoutingFor(deps: FeatureDeps, appDir: string, flavour: RouterFlavour, file?: string): TargetRouting {
  const module = file === undefined ? undefined : moduleOfRouteFile(file);
  const root = deps.service.controllersOf(appDir)?.root ?? new AppRoot(appDir).tree;
  if (module !== undefined) return { flavour, root, module };
  if (flavour === 'bonfire') return { flavour, root };
  const keys = deps.index.moduleKeys;
  return { flavour, root, moduleRouteKeys: (name) => keys.of(appDir, name) };
}

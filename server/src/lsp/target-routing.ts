import type { RouterFlavour } from '../../../shared/router/hmvc/flavour';
import type { TargetRouting } from '../../../shared/router/hmvc/locate-target';
import { moduleOfRouteFile } from '../../../shared/app/layout';
import type { AppTree } from '../../../shared/router/app-tree';
import type { FeatureDeps } from './feature-deps';

/** The root of an application that cannot be read: nothing is there. */
const EMPTY_ROOT: AppTree = { isFile: () => false, isDir: () => false };

/**
 * How the application's router reads a route file's targets, for the editor's requests (hover,
 * definition, links, lenses), as for its diagnostics (RouteService.routingOf): the flavour, the
 * application root, the module of a module routes file, and for the main file the module files'
 * keys the index recorded (none under Bonfire, whose module tables hold the main file's routes too).
 */
export function targetRoutingFor(deps: FeatureDeps, appDir: string, flavour: RouterFlavour, file?: string): TargetRouting {
  const module = file === undefined ? undefined : moduleOfRouteFile(file);
  const root = deps.service.controllersOf(appDir)?.root ?? EMPTY_ROOT;
  const unknown = deps.service.application(appDir)?.controllerLookUpUnknown(flavour);
  const lookUp = unknown === undefined ? {} : { controllersUnknown: unknown };
  if (module !== undefined) return { flavour, root, module, ...lookUp };
  if (flavour === 'bonfire') return { flavour, root, ...lookUp };
  const keys = deps.index.moduleKeys;
  return { flavour, root, moduleRouteKeys: (name) => keys.of(appDir, name), ...lookUp };
}

import { routeKeysOf } from '../../../shared/analysis/route-file-keys';
import type { RouterFlavour } from '../../../shared/router/hmvc/flavour';
import type { TargetRouting } from '../../../shared/router/hmvc/locate-target';
import { AppRoot } from '../host/app-root';
import { moduleOfRouteFile } from '../host/module-route-file';
import { applicationDirOf } from '../host/route-file';
import { routeInputs, type FeatureDeps } from './feature-deps';

/**
 * How the application's router reads a route file's targets, for the editor's requests (hover,
 * definition, links, lenses): the flavour, the application root, the module of a module routes
 * file, and the keys of the application's module routes files (each evaluated when first asked
 * for, as the index holds it), so that a main-file target into a module is decided.
 */
export function targetRoutingFor(deps: FeatureDeps, appDir: string, flavour: RouterFlavour, file?: string): TargetRouting {
  const module = file === undefined ? undefined : moduleOfRouteFile(file);
  const root = deps.service.controllersOf(appDir)?.root ?? new AppRoot(appDir).tree;
  if (module !== undefined) return { flavour, root, module };
  const keys = new Map<string, readonly string[] | undefined>();
  return {
    flavour,
    root,
    moduleRouteKeys: (name) => {
      if (!keys.has(name)) keys.set(name, moduleKeys(deps, appDir, name, flavour, file));
      return keys.get(name);
    },
  };
}

function moduleKeys(deps: FeatureDeps, appDir: string, module: string, flavour: RouterFlavour, mainFile: string | undefined): readonly string[] | undefined {
  const inputs = routeInputs(deps, deps.index.routeFileInputs((f) => moduleOfRouteFile(f) === module && applicationDirOf(f) === appDir));
  const input = inputs[0];
  const own = input && routeKeysOf(input.evaluation);
  if (!own) return undefined;
  if (flavour !== 'bonfire') return own;
  // Bonfire's module files add to the main file's Route tables: Route::map() there returns the main file's routes too.
  const main = mainFile === undefined ? undefined : routeInputs(deps, deps.index.routeFileInputs((f) => f === mainFile))[0];
  const mainKeys = main && routeKeysOf(main.evaluation);
  return mainKeys ? [...own, ...mainKeys] : undefined;
}

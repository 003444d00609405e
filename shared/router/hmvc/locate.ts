import type { AppTree } from '../app-tree';
import { ucfirst } from '../ci-router';
import { isDirAt, isFileAt } from './app-paths';
import { controllerRoots, moduleLocations } from './flavour';
import type { ModuleRouteMatch } from './module-routes';

/** A routed segment; `null` where the router pads a missing one (`array_pad($segments, 3, null)`, sscanf's unassigned parts). */
export type Segment = string | null;

/** The `located` levels of the HMVC routers. */
export const LOCATED = { none: 0, module: 1, subController: 2, subDirectory: 3, miss: -1 } as const;

/** What locate() reads and writes of the router's state. */
export interface LocateHost {
  readonly flavour: 'bonfire' | 'mx';
  /** The application root (`application/`, `bonfire/`…). */
  readonly root: AppTree;
  module: string | null;
  directory: string | null;
  located: number;
  /** `$this->default_controller` as a string (Bonfire's application sub-directory fallback reads it). */
  defaultControllerText(): string;
  /** Modules::parse_routes(): the module's table, loaded once per request, matched against the URI. */
  parseRoutes(module: string, uri: string): { consulted: boolean; match?: ModuleRouteMatch };
}

/** One look-up, as the vectors' `locate_calls` record it. */
export interface LocateCall {
  caller: string;
  input: Segment[];
  /** The module whose routes table was consulted, if one was. */
  module_routes_consulted: string | null;
  module_route: ModuleRouteMatch | null;
  returned: Segment[] | null;
  located: number;
  module: string | null;
  directory: string | null;
}

/** PHP truthiness of a segment: null, '' and '0' are false. */
export function present(s: Segment | undefined): s is string {
  return s !== null && s !== undefined && s !== '' && s !== '0';
}

const text = (s: Segment): string => s ?? '';

/**
 * MX_Router::locate() / BF_Router::locate(): the module's routes first, then each module location
 * (module controller, sub-controller, sub-directory controller; the two flavours try sub-controller
 * and sub-directory in opposite orders), then, if no module folder was ever found in this request,
 * the application's controllers (and Bonfire's). Returns the segments from the controller on, or
 * undefined (`located` -1 for a miss).
 */
export function locate(host: LocateHost, input: Segment[], caller: string, calls: LocateCall[]): Segment[] | undefined {
  const call: LocateCall = { caller, input: input.slice(), module_routes_consulted: null, module_route: null, returned: null, located: 0, module: null, directory: null };
  const returned = locateSegments(host, input, call);
  call.returned = returned ? returned.slice() : null;
  call.located = host.located;
  call.module = host.module;
  call.directory = host.directory;
  calls.push(call);
  return returned;
}

function locateSegments(host: LocateHost, input: Segment[], call: LocateCall): Segment[] | undefined {
  host.located = LOCATED.none;
  let segments = input;
  if (input.length > 0 && input[0] !== null) {
    const parsed = host.parseRoutes(input[0], input.map(text).join('/'));
    if (parsed.consulted) call.module_routes_consulted = input[0];
    if (parsed.match) {
      call.module_route = parsed.match;
      segments = parsed.match.segments;
    }
  }
  const [module = null, directory = null, controller = null] = segments;
  const tree = host.root;
  for (const { folder, offset } of moduleLocations(host.flavour)) {
    let source = `${folder}${text(module)}/controllers/`;
    if (!isDirAt(tree, source)) continue;
    host.module = module;
    host.directory = `${offset}${text(module)}/controllers/`;
    if (present(directory)) {
      const subController = `${source}${ucfirst(directory)}.php`;
      // Bonfire tries the sub-controller before a sub-directory of the same name; MX after.
      if (host.flavour === 'bonfire' && isFileAt(tree, subController)) {
        host.located = LOCATED.subController;
        return segments.slice(1);
      }
      if (isDirAt(tree, `${source}${directory}/`)) {
        source += `${directory}/`;
        host.directory += `${directory}/`;
        if (present(controller)) {
          if (isFileAt(tree, `${source}${ucfirst(controller)}.php`)) {
            host.located = LOCATED.subDirectory;
            return segments.slice(2);
          }
          host.located = LOCATED.miss;
        }
      } else if (isFileAt(tree, subController)) {
        host.located = LOCATED.subController;
        return segments.slice(1);
      } else {
        host.located = LOCATED.miss;
      }
    }
    if (isFileAt(tree, `${source}${ucfirst(text(module))}.php`)) {
      host.located = LOCATED.module;
      return segments;
    }
  }
  // A module folder found in this request (now or in an earlier look-up) hides the application's controllers.
  if (host.directory !== null && host.directory !== '' && host.directory !== '0') return undefined;
  const found = host.flavour === 'bonfire' ? bonfireApplicationLevel(host, segments, module, directory, controller) : mxApplicationLevel(host, segments, module, directory, controller);
  if (found) return found;
  host.located = LOCATED.miss;
  return undefined;
}

/**
 * Both flavours' application-level steps 2 and 3: `controllers/<module>/<Dir>.php`, then
 * `controllers/<module>/<dir>/<Ctrl>.php`, with the directory they leave set.
 */
function inApplicationFolder(host: LocateHost, controllers: string, segments: Segment[], m: string, directory: Segment, controller: Segment): Segment[] | undefined {
  if (!present(directory)) return undefined;
  if (isFileAt(host.root, `${controllers}${m}/${ucfirst(directory)}.php`)) {
    host.directory = `${m}/`;
    return segments.slice(1);
  }
  if (present(controller) && isFileAt(host.root, `${controllers}${m}/${directory}/${ucfirst(controller)}.php`)) {
    host.directory = `${m}/${directory}/`;
    return segments.slice(2);
  }
  return undefined;
}

function bonfireApplicationLevel(host: LocateHost, segments: Segment[], module: Segment, directory: Segment, controller: Segment): Segment[] | undefined {
  const m = text(module);
  for (const root of controllerRoots('bonfire')) {
    const controllers = `${root}controllers/`;
    if (isFileAt(host.root, `${controllers}${ucfirst(m)}.php`)) return segments;
    const sub = inApplicationFolder(host, controllers, segments, m, directory, controller);
    if (sub) return sub;
    const defaultController = host.defaultControllerText();
    if (isFileAt(host.root, `${controllers}${m}/${ucfirst(defaultController)}.php`)) {
      host.directory = `${m}/`;
      return [defaultController];
    }
  }
  return undefined;
}

function mxApplicationLevel(host: LocateHost, segments: Segment[], module: Segment, directory: Segment, controller: Segment): Segment[] | undefined {
  const m = text(module);
  const controllers = 'application/controllers/';
  const sub = inApplicationFolder(host, controllers, segments, m, directory, controller);
  if (sub) return sub;
  // The folder itself: the remaining segments may be empty (its default controller).
  if (isDirAt(host.root, `${controllers}${m}/`)) {
    host.directory = `${m}/`;
    return segments.slice(1);
  }
  if (isFileAt(host.root, `${controllers}${ucfirst(m)}.php`)) return segments;
  return undefined;
}

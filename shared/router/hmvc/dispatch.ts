import type { Value } from '../../runtime/values';
import type { AppTree } from '../app-tree';
import { ucfirst } from '../ci-router';
import { scanSlashParts } from '../sscanf';
import { isFileAt, resolveAppPath } from './app-paths';
import type { RouterFlavour } from './flavour';
import { phpEmpty, settingText } from './settings';

/** The router's state when CodeIgniter's front controller takes over. */
export interface RoutedState {
  directory: string | null;
  /** `$RTR->class` as the router set it. */
  klass: string;
  method: string;
  rsegments: string[];
}

/** What CodeIgniter.php does with the router's state. */
export interface DispatchOutcome {
  /** True when the request ends in show_404(). */
  notFound: boolean;
  /** show_404()'s argument. */
  shown?: string;
  directory: string | null;
  class: string;
  method: string;
  rsegments: string[];
  /** The controller file serving the request, from the application root. */
  file: string | null;
  /** Served through the dispatcher's own 404_override rule. */
  viaOverride: boolean;
}

/** Methods of CI_Controller itself, which the dispatcher refuses (PHP method names are case-insensitive). */
const CI_CONTROLLER_METHODS = new Set(['__construct', 'get_instance']);

/** Classes loaded before dispatch that a 404_override may name (class_exists() without autoload). */
const LOADED_BEFORE_DISPATCH: Record<RouterFlavour, readonly string[]> = {
  ci: [],
  mx: ['modules', 'mx_router'],
  bonfire: ['modules', 'route', 'bf_router'],
};

/**
 * Whether the controller accepts the method, when the host knows (controller files read); every
 * method is accepted otherwise, as a controller with `_remap()` does.
 */
export type MethodCheck = (file: string, klass: string, method: string) => boolean | undefined;

/**
 * The class file dispatch loads for a routed directory and class (from the application root):
 * `application/controllers/<directory><Class>.php`, in Bonfire also under `bonfire/controllers/`.
 */
export function controllerFileAt(directory: string, klass: string, flavour: RouterFlavour, root: AppTree): string | undefined {
  const candidates = [`application/controllers/${directory}${klass}.php`];
  if (flavour === 'bonfire') candidates.push(`bonfire/controllers/${directory}${klass}.php`);
  const found = candidates.find((c) => isFileAt(root, c));
  return found === undefined ? undefined : (resolveAppPath(root, found) ?? found);
}

/**
 * CodeIgniter.php's dispatch: the class file under `application/controllers/<directory>` (Bonfire
 * also `bonfire/controllers/`), the refused method names, then its own 404_override rule (a class
 * already loaded, the current directory, then `application/controllers/`, which resets the directory).
 */
export function dispatch(routed: RoutedState, override404: Value | undefined, flavour: RouterFlavour, root: AppTree, accepts?: MethodCheck): DispatchOutcome {
  const loaded = new Map<string, string | null>(LOADED_BEFORE_DISPATCH[flavour].map((c) => [c, null]));
  const directory = routed.directory ?? '';
  const klass = ucfirst(routed.klass);
  const method = routed.method;
  let notFound = false;
  let file: string | null = null;
  if (phpEmpty(klass)) {
    notFound = true;
  } else {
    const found = controllerFileAt(directory, klass, flavour, root);
    if (found === undefined) {
      notFound = true;
    } else {
      file = found;
      loaded.set(klass.toLowerCase(), file);
      notFound = method.startsWith('_') || CI_CONTROLLER_METHODS.has(method.toLowerCase()) || accepts?.(file, klass, method) === false;
    }
  }
  if (!notFound) return { notFound, directory: routed.directory, class: klass, method, rsegments: routed.rsegments, file, viaOverride: false };

  if (!phpEmpty(override404)) {
    const [scannedClass = '', scannedMethod] = scanSlashParts(settingText(override404), 2);
    const errorClass = ucfirst(scannedClass);
    const errorMethod = scannedMethod ?? 'index';
    const served = (f: string | null, dir: string | null): DispatchOutcome => ({
      notFound: false,
      directory: dir,
      class: errorClass,
      method: errorMethod,
      rsegments: [errorClass, errorMethod],
      file: f,
      viaOverride: true,
    });
    const already = loaded.get(errorClass.toLowerCase());
    if (already !== undefined) return served(already, routed.directory);
    const here = `application/controllers/${directory}${errorClass}.php`;
    if (isFileAt(root, here)) return served(resolveAppPath(root, here) ?? here, routed.directory);
    const global = `application/controllers/${errorClass}.php`;
    if (!phpEmpty(routed.directory) && isFileAt(root, global)) return served(resolveAppPath(root, global) ?? global, '');
  }
  return { notFound: true, shown: `${directory}${klass}/${method}`, directory: routed.directory, class: klass, method, rsegments: routed.rsegments, file: null, viaOverride: false };
}

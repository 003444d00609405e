import { toPhpString } from '../../runtime/convert';
import { utf8Bytes } from '../../util/utf8-bytes';
import { PhpArray, PhpClosure, Unknown, keyToString, type Value } from '../../runtime/values';
import type { AppTree } from '../app-tree';
import { compileModuleRouteKey } from '../pattern';
import { isFileAt } from './app-paths';
import { moduleLocations, type RouterFlavour } from './flavour';
import { RouterStop, phpError, showError } from './router-stop';

/** The key of a module's routes file that matched, and the module-relative segments it gives. */
export interface ModuleRouteMatch {
  module: string;
  key: string;
  /** The value as written in the file (a string for every value that can match without an error). */
  value: string;
  /** The module name, then the target split on `/`. */
  segments: string[];
}

/** What a module's `config/routes.php` left for the request: `$route`, or why there is none. */
export interface ModuleRoutesFile {
  /** `$route` when the file ended; undefined when it never held an array. */
  routes: PhpArray | undefined;
  /** The uncaught PHP error that stopped the file (the request stops there too). */
  error?: { class: string; message: string };
  /** Why the table is not known statically, if it is not. */
  unknown?: string;
}

/** Where Modules::find() looks for a module's routes file: each location's `<module>/config/`, and in Bonfire `Routes.php` too. */
export function findModuleRoutesFile(tree: AppTree, flavour: RouterFlavour, module: string): { path: string; included: string } | undefined {
  // `$module ? … : array()`: an empty or "0" module name has no routes file.
  if (module === '' || module === '0') return undefined;
  for (const { folder } of moduleLocations(flavour)) {
    const base = `${folder}${module}/config/`;
    if (isFileAt(tree, `${base}routes.php`)) return { path: `${base}routes.php`, included: `${base}routes.php` };
    // Bonfire finds `Routes.php` but load_file() then includes `routes.php`, which is missing.
    if (flavour === 'bonfire' && isFileAt(tree, `${base}Routes.php`)) return { path: `${base}Routes.php`, included: `${base}routes.php` };
  }
  return undefined;
}

/** The table Modules::load_file() returns, or the error page it shows. */
export function moduleRouteTable(file: ModuleRoutesFile | undefined, includedPath: string): PhpArray {
  if (file?.unknown !== undefined) throw new RouterStop('unknown', file.unknown);
  if (file?.error) throw phpError(file.error.class, file.error.message);
  if (!file?.routes) throw showError(`<app>/${includedPath} does not contain a valid route array`);
  return file.routes;
}

/**
 * Modules::parse_routes() once the table is loaded: the first key (`:any` → `.+`, anchored,
 * case-sensitive) that matches the whole URI, its value with back-references substituted when
 * the key has a group and the value a `$`, prefixed with the module name.
 */
export function matchModuleRoutes(module: string, routes: PhpArray, uri: string): ModuleRouteMatch | undefined {
  const bytes = utf8Bytes(uri);
  for (const [k, value] of routes.entries()) {
    const key = keyToString(k);
    const pattern = compileModuleRouteKey(key);
    if (!pattern.matchBytes(bytes)) continue;
    const text = moduleRouteValue(value);
    const target = text.includes('$') && pattern.substitutes ? pattern.replace(uri, text) : text;
    return { module, key, value: text, segments: `${module}/${target}`.split('/') };
  }
  return undefined;
}

/** The value as strpos() takes it on PHP 8: scalars converted, arrays and closures a TypeError. */
function moduleRouteValue(value: Value): string {
  if (value instanceof PhpArray || value instanceof PhpClosure) {
    throw phpError('TypeError', `strpos(): Argument #1 ($haystack) must be of type string, ${value instanceof PhpArray ? 'array' : 'Closure'} given`);
  }
  const text = toPhpString(value, { warn: () => undefined });
  if (text instanceof Unknown) throw new RouterStop('unknown', text.reason);
  return text;
}

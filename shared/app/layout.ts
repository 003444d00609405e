import * as path from 'node:path';
import type { FileKind } from './project-files';
import { literalSetting } from './front-controller-text';

/**
 * Where a CodeIgniter application keeps its route files, as paths: `<app>/config/routes.php`, an
 * environment's `<app>/config/<environment>/routes.php`, a module's
 * `<app>/modules/<m>/config/routes.php`, and Bonfire's own modules beside the application folder,
 * `bonfire/modules/<m>/config/routes.php`.
 */

/**
 * The application folder of a route file. A module under Bonfire's `bonfire/modules/` belongs to
 * the application folder beside `bonfire/` (BF_Router and Bonfire's Modules look there for modules
 * of the application), when `kind` finds one.
 */
export function applicationDirOf(file: string, kind?: (p: string) => FileKind | undefined): string | undefined {
  const folder = path.dirname(path.resolve(file));
  const configDir = isEnvironmentRouteFile(file) ? path.dirname(folder) : folder;
  if (path.basename(configDir) !== 'config') return undefined;
  const owner = path.dirname(configDir);
  const parent = path.dirname(owner);
  if (path.basename(parent) !== 'modules') return owner;
  const modulesOwner = path.dirname(parent);
  if (path.basename(modulesOwner) === 'bonfire' && kind) {
    const application = path.join(path.dirname(modulesOwner), 'application');
    if (kind(application) === 'dir') return application;
  }
  return modulesOwner;
}

/**
 * Whether a file is an environment's route file, `config/<environment>/routes.php`: CodeIgniter's
 * router runs it after `config/routes.php`, in the same scope, so it is evaluated there.
 */
export function isEnvironmentRouteFile(file: string): boolean {
  const folder = path.dirname(path.resolve(file));
  return path.basename(file) === 'routes.php' && path.basename(folder) !== 'config' && path.basename(path.dirname(folder)) === 'config';
}

/**
 * The module whose routes file this is, when it is one: `<…>/modules/<module>/config/routes.php`
 * (under `application/` or Bonfire's `bonfire/`). Modules::parse_routes() reads its targets
 * relative to that module.
 */
export function moduleOfRouteFile(file: string): string | undefined {
  const configDir = path.dirname(path.resolve(file));
  if (path.basename(configDir) !== 'config' || path.basename(file) !== 'routes.php') return undefined;
  const moduleDir = path.dirname(configDir);
  return path.basename(path.dirname(moduleDir)) === 'modules' ? path.basename(moduleDir) : undefined;
}

/** Whether a route file is its application's main one, `<app>/config/routes.php`, which CodeIgniter's router includes first. */
export function isMainRouteFile(file: string, appDir: string | undefined): boolean {
  return appDir !== undefined && path.resolve(file) === path.join(path.resolve(appDir), 'config', 'routes.php');
}

/**
 * `<app>/config/<environment>/routes.php`, which CodeIgniter's router includes after
 * config/routes.php when it exists; undefined for a name that is not one folder's name.
 */
export function environmentRouteFileOf(appDir: string, environment: string): string | undefined {
  if (environment === '' || environment === '.' || environment === '..' || /[/\\\0]/.test(environment)) return undefined;
  return path.join(appDir, 'config', environment, 'routes.php');
}

/**
 * The folder include/require may read from for a route file: its project (the folder above the
 * application, where CodeIgniter's index.php and system/ lie), else the route file's own folder.
 */
export function includeRootOf(file: string, appDir: string | undefined): string {
  return appDir ? path.dirname(appDir) : path.dirname(path.resolve(file));
}

/** Where `findApplicationDir` looked: from the folder given up to the last one looked at. */
/** The environments CodeIgniter's index.php names (an application may define others). */
const STANDARD_ENVIRONMENTS = ['development', 'testing', 'production'];

export interface ApplicationSearch {
  /** The application folder found. */
  appDir: string | undefined;
  /** The folder the search started from, and the last one it looked at (a repository's root, or the file system's). */
  from: string;
  upTo: string;
  /** The search stopped at a repository's root (a folder holding `.git`). */
  repositoryRoot: boolean;
}

/**
 * The application a command run in `from` means: the nearest folder, `from` or one above it,
 * that holds `config/routes.php` (a module's folder leads to the application it belongs to, as
 * applicationDirOf says) or is a project root holding `application/config/routes.php`; or, as
 * CodeIgniter 3 needs no `config/routes.php`, only a standard environment's
 * `config/<environment>/routes.php` (development, testing, production). The search
 * ends at a repository's root (a folder holding `.git`), so an application above the project is
 * never taken, else at the file system's root. A folder's front controller (`index.php`, read with
 * `read` when given) that names its application folder with a literal `$application_folder`
 * (`cms/application`) leads there too. Asks `kind` whether paths exist.
 */
export function findApplicationDir(from: string, kind: (p: string) => FileKind | undefined, read?: (file: string) => string | undefined): ApplicationSearch {
  let dir = path.resolve(from);
  for (;;) {
    const named = read && kind(path.join(dir, 'index.php')) === 'file' ? literalSetting(read(path.join(dir, 'index.php')) ?? '', 'application_folder') : undefined;
    const configs = [path.join(dir, 'config'), path.join(dir, 'application', 'config'), ...(named ? [path.join(path.resolve(dir, named), 'config')] : [])];
    for (const config of configs) {
      const routes = [path.join(config, 'routes.php'), ...STANDARD_ENVIRONMENTS.map((e) => path.join(config, e, 'routes.php'))].find((f) => kind(f) === 'file');
      if (routes) return { appDir: applicationDirOf(routes, kind), from: path.resolve(from), upTo: dir, repositoryRoot: false };
    }
    const parent = path.dirname(dir);
    const atRepositoryRoot = kind(path.join(dir, '.git')) !== undefined;
    if (atRepositoryRoot || parent === dir) return { appDir: undefined, from: path.resolve(from), upTo: dir, repositoryRoot: atRepositoryRoot };
    dir = parent;
  }
}

import * as path from 'node:path';
import { RE2JS } from 're2js';
import type { EnvironmentRoutes } from '../evaluate/includes';
import type { Value } from '../runtime/values';
import type { IncludedFile } from '../php/ast';
import { environmentRouteFileOf, isMainRouteFile } from './layout';
import { literalSetting } from './front-controller-text';
import type { ProjectFiles } from './project-files';

/** CodeIgniter's shipped index.php runs in 'development' unless the server sets CI_ENV. */
export const DEFAULT_ENVIRONMENT = 'development';
/** The largest front controller read for its ENVIRONMENT line (CodeIgniter's index.php is about 10 KB). */
export const MAX_FRONT_CONTROLLER_BYTES = 256 * 1024;

// RE2 matches in time linear in the text: index.php is the workspace's, read as data. The define
// must start its line (a commented-out one does not), as CodeIgniter's index.php writes it.
const DEFINE_ENVIRONMENT = RE2JS.compile(`(?m)^[ \\t]*define\\s*\\(\\s*['"]ENVIRONMENT['"]\\s*,([^;]*)\\)\\s*;`);
/**
 * The literal default when CI_ENV is unset: `'production'`, `isset($_SERVER['CI_ENV']) ?
 * $_SERVER['CI_ENV'] : 'development'` (the stock line), `$_SERVER['CI_ENV'] ?? 'development'`,
 * `getenv('CI_ENV') ?: 'production'`, `! empty($_ENV['CI_ENV']) ? $_ENV['CI_ENV'] : 'x'`, each
 * also in parentheses.
 */
const CI_ENV = `(?:\\$_(?:SERVER|ENV)\\s*\\[\\s*['"]CI_ENV['"]\\s*\\]|getenv\\s*\\(\\s*['"]CI_ENV['"]\\s*\\))`;
const WHEN_SET = `(?:(?:isset|!\\s*empty)\\s*\\(\\s*${CI_ENV}\\s*\\)\\s*\\?\\s*${CI_ENV}\\s*:|${CI_ENV}\\s*\\?\\s*${CI_ENV}\\s*:|${CI_ENV}\\s*\\?\\?|${CI_ENV}\\s*\\?:)`;
const DEFAULT_VALUE = RE2JS.compile(`^\\s*\\(?\\s*${WHEN_SET}?\\s*['"]([A-Za-z0-9_.-]*)['"]\\s*\\)?\\s*$`);

/** The environment the route files are evaluated for, and how it was chosen (for the route table's header). */
export interface EnvironmentChoice {
  /** ENVIRONMENT's value; undefined when it is given but not a string (no environment file is then run). */
  name: string | undefined;
  source: string;
}

/**
 * Where applications keep their front controller, relative to the folder above the application
 * folder: beside it (CodeIgniter's layout) or in the web root (`public/index.php`, Bonfire's).
 */
export const FRONT_CONTROLLERS = ['index.php', 'public/index.php'];

/**
 * The application's front controller, relative to the folder above the application folder. One
 * whose `$application_folder` names this folder wins (an application may keep its own index.php
 * inside it, `$application_folder = '.'`, beside another application's, or one folder further up,
 * `'cms/application'`); one that names another folder is not this application's. Else the first of FRONT_CONTROLLERS that defines ENVIRONMENT
 * (a root index.php may be a page of its own, as Bonfire's is), else the first that can be read;
 * undefined when none can.
 */
export function frontControllerOf(appDir: string, files: ProjectFiles): { rel: string; text: string; definesEnvironment: boolean } | undefined {
  const above = path.dirname(appDir);
  let first: { rel: string; text: string; definesEnvironment: boolean } | undefined;
  let definer: typeof first;
  // Also inside the application folder, and one folder further up (`$application_folder = 'cms/application'`): those serve it only when they name it.
  for (const rel of [...FRONT_CONTROLLERS, path.join(path.basename(appDir), 'index.php'), path.join('..', 'index.php')]) {
    const file = path.join(above, rel);
    const text = files.read(file, MAX_FRONT_CONTROLLER_BYTES);
    if (text === undefined) continue; // not there, or not readable: the next place
    const named = literalSetting(text, 'application_folder');
    const definesEnvironment = DEFINE_ENVIRONMENT.matcher(text).find();
    if (named !== undefined) {
      if (path.resolve(path.dirname(file), named) === path.resolve(appDir)) return { rel, text, definesEnvironment };
      continue; // another application's front controller
    }
    // Only the places beside the application folder serve it without naming it.
    if (!FRONT_CONTROLLERS.includes(rel)) continue;
    if (definesEnvironment) definer ??= { rel, text, definesEnvironment };
    first ??= { rel, text, definesEnvironment };
  }
  return definer ?? first;
}

/** The system folder the application's front controller names (`$system_path`, from the front controller's folder), when it is a literal. */
export function systemFolderOf(appDir: string, files: ProjectFiles): string | undefined {
  const front = frontControllerOf(appDir, files);
  const named = front && literalSetting(front.text, 'system_path');
  return named === undefined || named === '' ? undefined : path.resolve(path.dirname(path.join(path.dirname(appDir), front!.rel)), named);
}

/** The front controller's folder (FCPATH, and PHP's working directory while routes load), when one is found. */
export function frontControllerDirOf(appDir: string, files: ProjectFiles): string | undefined {
  const controller = frontControllerOf(appDir, files);
  return controller && path.dirname(path.join(path.dirname(appDir), controller.rel));
}

/**
 * ENVIRONMENT as CodeIgniter's router sees it: the value given (ciRoutes.constants, --define,
 * constants.php), else the default its front controller writes (read as text; see
 * frontControllerOf), else CodeIgniter's own default.
 */
export function chooseEnvironment(appDir: string | undefined, given: Value | undefined, files: ProjectFiles): EnvironmentChoice {
  if (given !== undefined) return typeof given === 'string' ? { name: given, source: 'given' } : { name: undefined, source: 'given, not a string' };
  if (appDir === undefined) return { name: DEFAULT_ENVIRONMENT, source: "CodeIgniter's default (no application folder)" };
  const front = frontControllerOf(appDir, files);
  if (!front?.definesEnvironment) return { name: DEFAULT_ENVIRONMENT, source: `CodeIgniter's default (no ${FRONT_CONTROLLERS.join(' nor ')} beside the application folder defines ENVIRONMENT)` };
  const name = environmentDefaultOf(front.text);
  if (name === undefined) return { name: DEFAULT_ENVIRONMENT, source: `CodeIgniter's default (${front.rel} defines ENVIRONMENT otherwise than with a literal default)` };
  return { name, source: `${front.rel}'s default (CI_ENV unset)` };
}

/** The literal default of index.php's `define('ENVIRONMENT', ...)`, if it has one. */
export function environmentDefaultOf(frontController: string): string | undefined {
  if (frontController.length > MAX_FRONT_CONTROLLER_BYTES) return undefined;
  const define = DEFINE_ENVIRONMENT.matcher(frontController);
  if (!define.find()) return undefined;
  const value = DEFAULT_VALUE.matcher(define.group(1) ?? '');
  return value.find() ? (value.group(1) ?? undefined) : undefined;
}

/** The environment's route file among the files an evaluation ran, if it ran. */
export function environmentFileRun(included: readonly IncludedFile[]): IncludedFile | undefined {
  return included.find((f) => f.environment !== undefined && f.includedAt.file === undefined);
}

/**
 * The environment in force, for the route table's header: `environment production (given),
 * config/production/routes.php runs after this file`, or `..., no config/development/routes.php`.
 * `routes` is the environment's route file of a main route file (none for a module's).
 */
export function describeEnvironment(choice: EnvironmentChoice, routes: EnvironmentRoutes | undefined, ran: boolean, others: readonly string[] = []): string {
  const name = choice.name === undefined ? 'unknown' : choice.name;
  const head = `environment ${name} (${choice.source})`;
  if (!routes) return head;
  const rel = `config/${routes.environment}/routes.php`;
  const elsewhere = others.filter((o) => o !== routes.environment).map((o) => `config/${o}/routes.php only under ENVIRONMENT ${o}`);
  return [ran ? `${head}, ${rel} runs after this file` : `${head}, no ${rel}`, ...elsewhere].join('; ');
}

/** The environments with a route file in the application (`config/<name>/routes.php`), sorted; at most 20. */
export function environmentsWithRoutes(appDir: string | undefined, files: ProjectFiles): string[] {
  if (appDir === undefined) return [];
  const config = path.join(appDir, 'config');
  return files
    .list(config)
    .filter((n) => environmentRouteFileOf(appDir, n) !== undefined && files.kind(path.join(config, n, 'routes.php')) === 'file')
    .slice(0, 20);
}

/**
 * ENVIRONMENT as an evaluation of a route file had it (applyEnvironment puts the choice among its
 * constants): undefined when it was not a string, or not defined at all.
 */
export function environmentOf(evaluation: { readonly constants: ReadonlyMap<string, Value> }): string | undefined {
  const value = evaluation.constants.get('ENVIRONMENT');
  return typeof value === 'string' ? value : undefined;
}

/**
 * The environment route files run in (see chooseEnvironment), defined as ENVIRONMENT in
 * `constants` when nothing gave it (index.php defines it before the router runs), and, for a main
 * route file, the environment's route file the router includes after it. `constants` holds those
 * of constants.php and the user's (settings, --define).
 */
export function applyEnvironment(
  file: string,
  appDir: string | undefined,
  constants: Map<string, Value>,
  /** The application's own choice when nothing gives ENVIRONMENT. */
  byDefault: () => EnvironmentChoice,
  files: ProjectFiles,
): { environment: EnvironmentChoice; environmentRoutes: EnvironmentRoutes | undefined } {
  const given = constants.get('ENVIRONMENT');
  const environment = given === undefined ? byDefault() : chooseEnvironment(appDir, given, files);
  if (environment.name === undefined) return { environment, environmentRoutes: undefined };
  if (!constants.has('ENVIRONMENT')) constants.set('ENVIRONMENT', environment.name);
  const routes = isMainRouteFile(file, appDir) ? environmentRouteFileOf(appDir!, environment.name) : undefined;
  return { environment, environmentRoutes: routes === undefined ? undefined : { environment: environment.name, path: routes } };
}

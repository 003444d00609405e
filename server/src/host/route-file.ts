import * as path from 'node:path';
import { evaluateRouteFile } from '../../../shared/evaluate/evaluate-file';
import type { EnvironmentRoutes, IncludeFiles } from '../../../shared/evaluate/includes';
import { chooseEnvironment, environmentRouteFileOf, frontControllerOf, type EnvironmentChoice } from './environment';
import { PhpFloat, type Value } from '../../../shared/evaluate/values';
import type { Dialect } from '../../../shared/library/route-library';
import type { AppTree } from '../../../shared/router/app-tree';
import { LIBRARY_LOCATIONS, MAX_LIBRARY_BYTES, dialectOfLibrarySource } from './dialect';
import { DiskTree } from './disk-tree';
import { includeFilesOnDisk } from './include-files';
import { mayRead } from './read-fence';
import { chooseRouterFlavour } from './router-flavour';
import type { RouterFlavour } from '../../../shared/router/hmvc/flavour';
import { kindOf, readRegularFile } from './safe-read';

/** Everything the engine needs to evaluate one route file, read from disk. */
export interface RouteFileContext {
  file: string;
  text: string;
  /** The application folder (the one holding config/routes.php), when it can be told. */
  appDir: string | undefined;
  constants: Map<string, Value>;
  dialect: Dialect;
  /** How the dialect was chosen, for messages. */
  dialectSource: string;
  /** The router that routes the application's requests, and how it was chosen. */
  router: RouterFlavour;
  routerSource: string;
  tree: AppTree | undefined;
  /** What include/require and glob() read: files of the route file's project. */
  includes: IncludeFiles;
  /** ENVIRONMENT and how it was chosen; the environment's route file the router runs after a main route file. */
  environment: EnvironmentChoice;
  environmentRoutes: EnvironmentRoutes | undefined;
}

/** Largest file read (a routes or constants file beyond this is refused). */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** A file's text; throws when it is missing, not a regular file, over MAX_FILE_BYTES or outside the workspace. */
export function readTextFile(file: string): string {
  return readRegularFile(file, MAX_FILE_BYTES);
}

/**
 * The application folder of a route file: `<app>/config/routes.php`,
 * `<app>/modules/<m>/config/routes.php` or an environment's `<app>/config/<environment>/routes.php`.
 */
export function applicationDirOf(file: string): string | undefined {
  const folder = path.dirname(path.resolve(file));
  const configDir = isEnvironmentRouteFile(file) ? path.dirname(folder) : folder;
  if (path.basename(configDir) !== 'config') return undefined;
  const owner = path.dirname(configDir);
  const parent = path.dirname(owner);
  if (path.basename(parent) === 'modules') return path.dirname(parent);
  return owner;
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
 * The application folder of a route file when the read fence lets it be read, else undefined: a
 * file outside the workspace folders is then analysed from its text alone (no constants.php, no
 * controllers, no Route.php), and nothing is guessed from a folder that cannot be read.
 */
export function readableApplicationDirOf(file: string): string | undefined {
  const appDir = applicationDirOf(file);
  return appDir !== undefined && mayRead(appDir) ? appDir : undefined;
}

/**
 * The folder include/require may read from for a route file: its project (the folder above the
 * application, where CodeIgniter's index.php and system/ lie), else the route file's own folder.
 */
export function includeRootOf(file: string): string {
  const appDir = applicationDirOf(file);
  return appDir ? path.dirname(appDir) : path.dirname(path.resolve(file));
}

/** include/require and glob() for a route file: files of its project, through the read fence. */
export function includeFilesOf(file: string): IncludeFiles {
  return includeFilesOnDisk(includeRootOf(file));
}

/**
 * The paths CodeIgniter's index.php defines, where they can be known from the layout: APPPATH
 * (the application folder), FCPATH (the front controller's folder, see frontControllerOf),
 * BASEPATH (the system/ folder beside the application folder, when there) and VIEWPATH
 * (APPPATH's views/, when there), each with a trailing slash as CodeIgniter writes them. A custom index.php may
 * place them elsewhere: constants.php, --define and ciRoutes.constants win over these.
 */
export function frameworkPathsOf(appDir: string | undefined): Map<string, Value> {
  const out = new Map<string, Value>();
  if (!appDir) return out;
  const app = path.resolve(appDir);
  const front = path.dirname(app);
  const isDir = (p: string) => kindOf(p) === 'dir';
  out.set('APPPATH', `${app}/`);
  // FCPATH is the front controller's folder: beside application/, or Bonfire's public/.
  const controller = frontControllerOf(app);
  if (controller) out.set('FCPATH', `${path.dirname(path.join(front, controller.rel))}/`);
  if (isDir(path.join(front, 'system'))) out.set('BASEPATH', `${path.join(front, 'system')}/`);
  if (isDir(path.join(app, 'views'))) out.set('VIEWPATH', `${path.join(app, 'views')}/`);
  return out;
}

/** Parses `NAME=VALUE` as given on the command line: integers, true/false/null, else a string. */
export function parseDefine(spec: string): [string, Value] {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new Error(`--define expects NAME=VALUE, got '${spec}'`);
  const name = spec.slice(0, eq);
  const raw = spec.slice(eq + 1);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`'${name}' is not a valid constant name`);
  if (/^-?(0|[1-9]\d*)$/.test(raw)) return [name, Number(raw)];
  if (/^-?\d+\.\d+$/.test(raw)) return [name, new PhpFloat(Number(raw))];
  const lower = raw.toLowerCase();
  if (lower === 'true') return [name, true];
  if (lower === 'false') return [name, false];
  if (lower === 'null') return [name, null];
  return [name, raw];
}

/**
 * The constants a route file starts with: the framework's paths (see frameworkPathsOf), then those
 * `<app>/config/constants.php` defines, evaluated statically (never run) after them, as CodeIgniter loads it.
 */
export function constantsOfApp(appDir: string | undefined): Map<string, Value> {
  if (!appDir) return new Map();
  const paths = frameworkPathsOf(appDir);
  const file = path.join(appDir, 'config', 'constants.php');
  let text: string;
  try {
    text = readTextFile(file);
  } catch {
    return paths;
  }
  return new Map(evaluateRouteFile(text, { file, maxSteps: 200_000, constants: paths }).constants);
}

export function detectDialect(appDir: string | undefined): { dialect: Dialect; source: string } {
  if (appDir) {
    for (const rel of LIBRARY_LOCATIONS) {
      const file = path.join(appDir, rel);
      try {
        const d = dialectOfLibrarySource(readRegularFile(file, MAX_LIBRARY_BYTES));
        if (d) return { dialect: d, source: `detected from ${path.relative(process.cwd(), file) || file}` };
      } catch {
        // not there, or over MAX_LIBRARY_BYTES: try the next place
      }
    }
  }
  return { dialect: 'spec', source: 'default' };
}

/**
 * The dialect asked for, else the one the application's Route.php tells (`detect`), else
 * Bonfire's under Bonfire's router (every released Bonfire has it), else `spec`.
 */
export function chooseDialect(asked: Dialect | 'auto' | undefined, detect: () => { dialect: Dialect; source: string }, router: () => RouterFlavour): { dialect: Dialect; source: string } {
  if (asked !== undefined && asked !== 'auto') return { dialect: asked, source: 'given' };
  const detected = detect();
  if (detected.source === 'default' && router() === 'bonfire') return { dialect: 'bonfire', source: "Bonfire's router" };
  return detected;
}

/** Whether a route file is its application's main one, `<app>/config/routes.php`, which CodeIgniter's router includes first. */
export function isMainRouteFile(file: string, appDir: string | undefined): boolean {
  return appDir !== undefined && path.resolve(file) === path.join(path.resolve(appDir), 'config', 'routes.php');
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
  /** The application's own choice when nothing gives ENVIRONMENT (servers cache it per application). */
  byDefault: () => EnvironmentChoice = () => chooseEnvironment(appDir, undefined),
): { environment: EnvironmentChoice; environmentRoutes: EnvironmentRoutes | undefined } {
  const given = constants.get('ENVIRONMENT');
  const environment = given === undefined ? byDefault() : chooseEnvironment(appDir, given);
  if (environment.name === undefined) return { environment, environmentRoutes: undefined };
  if (!constants.has('ENVIRONMENT')) constants.set('ENVIRONMENT', environment.name);
  const routes = isMainRouteFile(file, appDir) ? environmentRouteFileOf(appDir!, environment.name) : undefined;
  return { environment, environmentRoutes: routes === undefined ? undefined : { environment: environment.name, path: routes } };
}

export interface LoadOptions {
  dialect?: Dialect;
  router?: RouterFlavour;
  defines?: [string, Value][];
}

export function loadRouteFile(file: string, options: LoadOptions = {}): RouteFileContext {
  const text = readTextFile(file);
  const appDir = applicationDirOf(file);
  const constants = constantsOfApp(appDir);
  for (const [k, v] of options.defines ?? []) constants.set(k, v);
  const { environment, environmentRoutes } = applyEnvironment(file, appDir, constants);
  const router = chooseRouterFlavour(options.router, appDir);
  const detected = chooseDialect(options.dialect, () => detectDialect(appDir), () => router.flavour);
  return {
    file,
    text,
    appDir,
    constants,
    dialect: detected.dialect,
    dialectSource: detected.source,
    router: router.flavour,
    routerSource: router.source,
    tree: appDir ? new DiskTree(appDir) : undefined,
    includes: includeFilesOf(file),
    environment,
    environmentRoutes,
  };
}

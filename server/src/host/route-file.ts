import { Applications, type Application, type RouteFileSetup } from '../../../shared/app/application';
import { PhpFloat, type Value } from '../../../shared/runtime/values';
import type { Dialect } from '../../../shared/library/route-library';
import type { AppTree } from '../../../shared/router/app-tree';
import type { RouterFlavour } from '../../../shared/router/hmvc/flavour';
import { diskProjectFiles } from './disk-project-files';
import { readRegularFile } from './safe-read';

/** Everything the CLI needs to evaluate one route file and route its requests, read from disk. */
export interface RouteFileContext extends Omit<RouteFileSetup, 'router'> {
  text: string;
  /** The application it belongs to, when its folder can be read. */
  app: Application | undefined;
  /** The router that routes the application's requests, and how it was chosen. */
  router: RouterFlavour;
  routerSource: string;
  tree: AppTree | undefined;
}

/** Largest route file read (a larger one is refused). */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** A file's text; throws when it is missing, not a regular file, over MAX_FILE_BYTES or outside the workspace. */
export function readTextFile(file: string): string {
  return readRegularFile(file, MAX_FILE_BYTES);
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

export interface LoadOptions {
  dialect?: Dialect;
  router?: RouterFlavour;
  defines?: [string, Value][];
  /** `7.4`, `8.2`… (see AskedSetup.phpVersion). */
  phpVersion?: string;
}

/** The applications on disk, through the read fence: each application is read once by one model. */
export function diskApplications(shown?: (file: string) => string): Applications {
  return new Applications(diskProjectFiles({ shown }));
}

/** A route file and how its application evaluates it (see Application.setupFor). */
export function loadRouteFile(file: string, options: LoadOptions = {}, applications: Applications = diskApplications()): RouteFileContext {
  const text = readTextFile(file);
  const app = applications.of(file);
  const { router, ...setup } = applications.setupFor(file, { dialect: options.dialect, router: options.router, constants: options.defines, phpVersion: options.phpVersion });
  return { ...setup, text, app, router: router.flavour, routerSource: router.source, tree: app ? applications.files.tree(app.appDir) : undefined };
}

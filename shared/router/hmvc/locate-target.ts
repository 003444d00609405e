import { PhpArray } from '../../runtime/values';
import type { PhpVersion } from '../../runtime/php-version';
import type { AppTree } from '../app-tree';
import { CiRouter, readRouteTable, ucfirst, type RouterTable } from '../ci-router';
import { fromApplicationFolder, moduleOfControllerPath, type ControllerResolution } from '../controller-target';
import { applicationFolder, isDirAt } from './app-paths';
import { controllerFileAt } from './dispatch';
import { controllerRoots, moduleLocations, type RouterFlavour } from './flavour';
import { HmvcRouter } from './hmvc-router';
import { findModuleRoutesFile, type ModuleRouteMatch } from './module-routes';
import { mayMatchModuleRoute } from './module-route-keys';
import { RouterStop } from './router-stop';

/** How the application's router reads the targets of one route file. */
export interface TargetRouting {
  flavour: RouterFlavour;
  /** The application root: `application/` below it (and Bonfire's `bonfire/`). */
  root: AppTree;
  /** The module whose `config/routes.php` holds the targets: Modules::parse_routes() puts its name before them. */
  module?: string;
  /**
   * The keys of a module's routes file (under every request method), when the host has evaluated
   * it; undefined when it is not known. Without them, a main-file target into a module that has a
   * routes file is not decided: that file may route it elsewhere.
   */
  moduleRouteKeys?: (module: string) => readonly string[] | undefined;
  /**
   * Why the application's controllers cannot be looked up as its router looks them up (Modular
   * Extensions with a `controller_suffix`, which this model does not follow): every target is then
   * undecided, with this reason, rather than sent to a file the router would not load.
   */
  controllersUnknown?: string;
  /** The PHP version the application runs on (see RouteFileRouting.php). */
  php?: PhpVersion;
}

/**
 * Bonfire's locate() ends, for a first segment naming a folder of controllers/, with that folder's
 * default controller (`controllers/<dir>/<default_controller>.php`), whatever the other segments
 * say: this look-up, which does not read `default_controller`, leaves such a target undecided.
 */
function folderDefault(routing: TargetRouting, routed: readonly string[], flavour: RouterFlavour): { undecided: string } | undefined {
  const first = routed[0];
  if (flavour !== 'bonfire' || first === undefined) return undefined;
  const folder = ['application/controllers/', 'bonfire/controllers/'].map((root) => `${root}${first}/`).find((dir) => isDirAt(routing.root, dir));
  return folder === undefined ? undefined : { undecided: `Bonfire's router serves it from ${folder} with that folder's default controller (default_controller) when no other controller matches, which this look-up does not read` };
}

/** Where a target lands, or why that depends on what the analysis does not know. */
export type TargetLocation = ControllerResolution | { undecided: string };

/**
 * The controller a route target reaches, located as the application's router locates it: the
 * HMVC routers' locate() (module locations, sub-controllers and sub-directories in the flavour's
 * order, a module folder hiding the application's controllers) and dispatch's controller file;
 * plain CodeIgniter's directory walk for 'ci'. A module file's targets are module-relative.
 * Segments are taken as written (a back-reference is a segment like any other: see target-dispatch.ts).
 */
export function locateTarget(segments: readonly string[], routing: TargetRouting, translateDashes = false): TargetLocation {
  const segs = segments.filter((s) => s !== '');
  if (segs.length === 0) return missing('the target is empty');
  if (routing.controllersUnknown !== undefined) return { undecided: routing.controllersUnknown };
  const module = routing.module;
  // Only an HMVC router reads a module's routes file: with none detected, Modular Extensions' reading.
  const flavour: RouterFlavour = module !== undefined && routing.flavour === 'ci' ? 'mx' : routing.flavour;
  const table = readRouteTable(new PhpArray());
  // parse_routes() hands its result to locate() as it is: no dashes translated in a module's targets.
  table.translateUriDashes = translateDashes && module === undefined;
  const routed = module === undefined ? segs : [module, ...segs];
  const router = flavour === 'ci' ? new CiRouter(table, applicationFolder(routing.root)) : new TargetRouter(table, flavour, routing);
  try {
    const rejected = router.setRequest(routed);
    if (rejected !== undefined) return { undecided: rejected };
  } catch (e) {
    if (!(e instanceof RouterStop)) throw e;
    if (e.kind === 'show_404') return folderDefault(routing, routed, flavour) ?? missing(missingReason(router, routed, flavour, routing.root));
    return { undecided: e.detail };
  }
  // A folder's default controller comes from `default_controller`, which this look-up does not read.
  if (router.defaultUsed) return { undecided: `its folder's default controller (default_controller) serves ${routed.join('/')}` };
  const klass = ucfirst(router.klass);
  const file = klass === '' || klass === '0' ? undefined : controllerFileAt(router.directory ?? '', klass, flavour, routing.root);
  if (file === undefined) {
    // A module folder under CodeIgniter's own router: an HMVC router the detection did not find may well serve it.
    if (flavour === 'ci' && isDirAt(routing.root, `application/modules/${routed[0]}/controllers/`)) {
      return { undecided: `modules/${routed[0]}/ exists, but no HMVC router was found to serve it (set ciRoutes.router or --router)` };
    }
    return folderDefault(routing, routed, flavour) ?? missing(missingReason(router, routed, flavour, routing.root));
  }
  const owner = moduleOfControllerPath(file);
  return {
    found: true,
    target: {
      file: fromApplicationFolder(file),
      ...(owner ? { module: owner } : {}),
      class: router.rsegments[0] ?? router.klass,
      method: router.rsegments[1] ?? router.method,
      args: router.rsegments.slice(2),
    },
  };
}

const missing = (reason: string): ControllerResolution => ({ found: false, reason, tried: [] });

function missingReason(router: CiRouter, routed: string[], flavour: RouterFlavour, root: AppTree): string {
  const first = routed[0];
  if (router instanceof HmvcRouter) {
    if (router.module !== null) return `module "${router.module}" has no controller for "${routed.slice(0, 3).join('/')}"`;
    return `no controller "${ucfirst(first)}" in ${flavour === 'bonfire' ? 'application/ or bonfire/ controllers/' : 'controllers/'} nor a module "${first}"${otherCaseNoteOf(hmvcCandidates(routed, flavour), root)}`;
  }
  return `no controller file controllers/${router.directory ?? ''}${ucfirst(router.klass || first)}.php${otherCaseNote(routed, root)}`;
}

/** Folders a controller is looked for in at most (CodeIgniter's walk stops at the first file). */
const MAX_CASE_DEPTH = 4;

/**
 * Where the segments reach a controller file spelt in other letter case (`Admin/` for `admin`):
 * CodeIgniter's file tests are the file system's, so on Windows' or macOS's the route works, on
 * Linux's it does not. Said beside the 404, which holds where the application is deployed on Linux.
 */
function otherCaseNote(routed: readonly string[], root: AppTree): string {
  return otherCaseNoteOf(plainCandidates(routed, 'application/'), root);
}

/** The controller files CI_Router::_validate_request() tries for the segments under `base` (`application/`). */
function plainCandidates(routed: readonly string[], base: string): string[] {
  const files: string[] = [];
  for (let k = 0; k < routed.length && k < MAX_CASE_DEPTH; k++) files.push(`${base}controllers/${routed.slice(0, k).map((s) => `${s}/`).join('')}${ucfirst(routed[k]!)}.php`);
  return files;
}

/**
 * The controller files the HMVC routers' locate() tries for `module/directory/controller`: in each
 * module location, the module's sub-directory controller, its sub-controller, its own controller;
 * then the application's controllers.
 */
function hmvcCandidates(routed: readonly string[], flavour: RouterFlavour): string[] {
  const [module, directory, controller] = routed;
  const files: string[] = [];
  for (const { folder } of moduleLocations(flavour)) {
    const source = `${folder}${module}/controllers/`;
    if (directory !== undefined && controller !== undefined) files.push(`${source}${directory}/${ucfirst(controller)}.php`);
    if (directory !== undefined) files.push(`${source}${ucfirst(directory)}.php`);
    files.push(`${source}${ucfirst(module!)}.php`);
  }
  for (const base of controllerRoots(flavour)) files.push(...plainCandidates(routed, base));
  return files;
}

/** The note for the first of `files` the file system would find in other letter case, if any. */
function otherCaseNoteOf(files: readonly string[], root: AppTree): string {
  if (!root.fileInOtherCase) return '';
  for (const wanted of files) {
    const found = root.fileInOtherCase(wanted);
    if (found !== undefined) {
      return ` (on a case-insensitive file system, as Windows' and macOS's are by default, ${found.replace(/^application\//, '')} would serve it: its letter case differs from the route's)`;
    }
  }
  return '';
}

/** The HMVC router with Modules::parse_routes() as far as a target, not a request, allows. */
class TargetRouter extends HmvcRouter {
  constructor(
    table: RouterTable,
    flavour: 'bonfire' | 'mx',
    private readonly routing: TargetRouting,
  ) {
    super(table, flavour, routing.root, undefined, () => ({ routes: undefined, unknown: 'module route files are not read for a target' }));
  }

  override parseRoutes(module: string, uri: string): { consulted: boolean; match?: ModuleRouteMatch } {
    // A module file's target is what parse_routes() returned: locate() goes on with it.
    if (this.routing.module !== undefined) return { consulted: false };
    const found = findModuleRoutesFile(this.root, this.flavour, module);
    if (!found) return { consulted: false };
    const keys = this.routing.moduleRouteKeys?.(module);
    if (keys === undefined) throw new RouterStop('unknown', `module ${module}'s routes file (${found.path}) may route ${uri} elsewhere`);
    const key = keys.find((k) => mayMatchModuleRoute(k, uri));
    if (key !== undefined) throw new RouterStop('unknown', `module ${module}'s route '${key}' (${found.path}) may route ${uri} elsewhere`);
    return { consulted: true };
  }
}

import type { PhpArray, Value } from '../../runtime/values';
import type { AppTree } from '../app-tree';
import { CiRouter, type RouterTable } from '../ci-router';
import { scanSlashParts } from '../sscanf';
import { applicationFolder } from './app-paths';
import { LOCATED, locate, type LocateCall, type LocateHost, type Segment } from './locate';
import { findModuleRoutesFile, matchModuleRoutes, moduleRouteTable, type ModuleRouteMatch, type ModuleRoutesFile } from './module-routes';
import { RouterStop, rejectionStop, showError } from './router-stop';
import { phpEmpty, settingText } from './settings';

/**
 * BF_Router and MX_Router: CI_Router with module look-up (locate), module routes files, module
 * paths for the default controller and 404_override. What the two share is here; where they
 * differ, `flavour` decides, as the PHP classes differ (MX replaces `_set_request`, Bonfire
 * `_validate_request`).
 */
export class HmvcRouter extends CiRouter implements LocateHost {
  module: string | null = null;
  located: number = LOCATED.none;
  /** Every look-up of the request, in order. */
  readonly calls: LocateCall[] = [];
  /** The router looked up 404_override (Bonfire's fallback, or the module path recorded for it). */
  used404Override = false;
  /** `self::$routes`: each module's table, loaded once per request. */
  private readonly moduleTables = new Map<string, PhpArray | null>();

  /**
   * @param root the application root (`application/`, `bonfire/`…)
   * @param override404 `$this->routes['404_override']`, which MX rewrites in place
   * @param loadModuleRoutes evaluates a module routes file for this request (each once, in the order asked)
   */
  constructor(
    table: RouterTable,
    readonly flavour: 'bonfire' | 'mx',
    readonly root: AppTree,
    public override404: Value | undefined,
    private readonly loadModuleRoutes: (path: string) => ModuleRoutesFile,
  ) {
    super(table, applicationFolder(root));
  }

  defaultControllerText(): string {
    return settingText(this.defaultController);
  }

  parseRoutes(module: string, uri: string): { consulted: boolean; match?: ModuleRouteMatch } {
    if (!this.moduleTables.has(module)) {
      const found = findModuleRoutesFile(this.root, this.flavour, module);
      // Bonfire finds `Routes.php`, then includes `routes.php`: the include fails, and so does the array check.
      if (found && found.path !== found.included) throw showError(`<app>/${found.included} does not contain a valid route array`);
      this.moduleTables.set(module, found ? moduleRouteTable(this.loadModuleRoutes(found.path), found.included) : null);
    }
    const table = this.moduleTables.get(module);
    if (!table) return { consulted: false };
    return { consulted: true, match: matchModuleRoutes(module, table, uri) };
  }

  /** Each module routes table loaded in this request, in load order. */
  get loadedTables(): { module: string; routes: PhpArray }[] {
    const out: { module: string; routes: PhpArray }[] = [];
    for (const [module, routes] of this.moduleTables) if (routes) out.push({ module, routes });
    return out;
  }

  /** The request's first look-up's module route (what `module_route` reports). */
  get firstModuleRoute(): ModuleRouteMatch | null {
    return this.calls[0]?.module_route ?? null;
  }

  private locate(segments: Segment[], caller: string): Segment[] | undefined {
    const found = locate(this, segments, caller, this.calls);
    // PHP tests the returned array: an empty one is false.
    return found && found.length > 0 ? found : undefined;
  }

  /** BF_Router::_validate_request(): the module look-up, then 404_override's, then show_404(). */
  protected override validateRequest(segments: string[]): string[] {
    if (this.flavour !== 'bonfire') return super.validateRequest(segments);
    if (segments.length === 0) return segments;
    const found = this.locate(segments, '_validate_request');
    if (found) return found as string[];
    let shown = segments;
    if (!phpEmpty(this.override404)) {
      this.used404Override = true;
      shown = settingText(this.override404).split('/');
      const override = this.locate(shown, '_validate_request');
      if (override) return override as string[];
    }
    throw new RouterStop('show_404', shown.join('/'));
  }

  /** MX_Router::_set_request() (dashes first, then locate; a miss records 404_override's module path); Bonfire keeps CI's. */
  override setRequest(input: string[]): string | undefined {
    if (this.flavour !== 'mx') return this.stopOnRejection(super.setRequest(input));
    const segments = input.slice();
    if (this.table.translateUriDashes) for (let v = 0; v < 3 && v < segments.length; v++) segments[v] = segments[v].replace(/-/g, '_');
    const found = locate(this, segments, '_set_request', this.calls);
    if (this.located === LOCATED.miss) {
      this.set404OverrideController();
      return undefined;
    }
    if (!found || found.length === 0) return this.setDefaultController();
    const routed = found.map((s) => s ?? '');
    this.setClass(routed[0]);
    if (routed.length > 1) this.method = routed[1];
    else routed[1] = 'index';
    this.rsegments = routed;
    return undefined;
  }

  /** `_set_default_controller()`: the default controller may name a module; no class found records 404_override's module path. */
  override setDefaultController(): string | undefined {
    if (phpEmpty(this.directory)) this.defaultController = this.setModulePath(this.defaultController);
    this.stopOnRejection(super.setDefaultController());
    if (phpEmpty(this.klass)) this.set404OverrideController();
    return undefined;
  }

  private set404OverrideController(): void {
    this.used404Override = true;
    this.override404 = this.setModulePath(this.override404);
  }

  /** `_set_module_path(&$_route)`: locates the string's module and returns it rewritten relative to the directory found. */
  private setModulePath(route: Value | undefined): Value | undefined {
    if (phpEmpty(route)) return route;
    const parts = scanSlashParts(settingText(route), 4);
    const [module = null, directory = null, klass = null, method = null] = parts;
    if (!this.locate([module, directory, klass], '_set_module_path')) return route;
    switch (parts.length) {
      case 1:
        return `${module}/index`;
      case 2:
        return this.located < LOCATED.subController ? `${module}/${directory}` : `${directory}/index`;
      case 3:
        return this.located === LOCATED.subController ? `${directory}/${klass}` : `${klass}/index`;
      case 4:
        return this.located === LOCATED.subDirectory ? `${klass}/${method}` : `${method}/index`;
      default:
        return route;
    }
  }

  private stopOnRejection(rejected: string | undefined): undefined {
    if (rejected !== undefined) throw rejectionStop(rejected);
    return undefined;
  }
}

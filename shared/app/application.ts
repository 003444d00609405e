import * as path from 'node:path';
import { choosePhpVersion, composerPhpRequirement, type PhpVersionChoice } from './php-version-choice';
import type { EnvironmentRoutes, IncludeFiles } from '../evaluate/includes';
import type { Value } from '../runtime/values';
import type { PhpVersion } from '../runtime/php-version';
import type { Dialect } from '../library/route-library';
import type { RouterFlavour } from '../router/hmvc/flavour';
import { controllerListing, createControllerCatalog, type ControllerCatalog, type ControllerListing } from '../workspace/controller-catalog';
import { AppRoot, MAX_ROOT_FILE_BYTES } from './app-root';
import { constantsOfApp } from './constants';
import { chooseDialect, detectDialect } from './dialect';
import { MAX_FRONT_CONTROLLER_BYTES, applyEnvironment, chooseEnvironment, environmentsWithRoutes, frontControllerDirOf, systemFolderOf, type EnvironmentChoice } from './environment';
import { applicationDirOf, environmentRouteFileOf, findApplicationDir, includeRootOf, moduleOfRouteFile, type ApplicationSearch } from './layout';
import { isPhp8 } from '../runtime/php-version';
import type { ProjectFiles } from './project-files';
import { chooseRouterFlavour, detectRouterFlavour, lookUpOverride, routingOverride, type RouterChoice, type RoutingOverride } from './router-flavour';
import { detectCodeIgniterVersion, type CodeIgniterVersion } from './codeigniter-version';
import { NO_CONFIG_FILE, controllerSuffixOf, modulesLocationsSet, permittedUriCharsOf, urlSuffixOf, type UrlSuffixChoice } from './url-suffix';
import type { UriFilter } from '../router/uri-filter';
import { uriCharsBeyondOfSetting, uriFilterOfSetting } from './uri-chars';

/** What the user asked for, over what the application's files tell (settings, CLI options). */
export interface AskedSetup {
  dialect?: Dialect | 'auto';
  router?: RouterFlavour | 'auto';
  /** Constants given (ciRoutes.constants, --define): they win over constants.php's. */
  constants?: Iterable<readonly [string, Value]>;
  /** The PHP version given (ciRoutes.phpVersion, --php-version); 'auto' or absent: composer.json's, else the default. */
  phpVersion?: string;
}

/** Everything the engine needs to evaluate one route file of an application, and to route its requests. */
export interface RouteFileSetup {
  file: string;
  /** The application folder; undefined for a file analysed from its text alone. */
  appDir: string | undefined;
  /** The module whose routes file it is, if one. */
  module: string | undefined;
  dialect: Dialect;
  /** How the dialect was chosen, for messages. */
  dialectSource: string;
  /** The router that routes the application's requests, and how it was chosen. */
  router: RouterChoice;
  constants: Map<string, Value>;
  /** ENVIRONMENT and how it was chosen. */
  environment: EnvironmentChoice;
  /** The environment's route file the router runs after a main route file. */
  environmentRoutes: EnvironmentRoutes | undefined;
  /** What include/require and glob() read: files of the route file's project. */
  includes: IncludeFiles;
  /** The PHP version whose semantics apply, and how it was chosen. */
  php: PhpVersionChoice;
  /**
   * A file with no application is run alone: a constant it does not define is undefined. An
   * application's constants may come from places not read (index.php, hooks): unknown there.
   */
  constantsComplete: boolean;
}

/** An application's route files, in the order its router reads them for a request. */
export interface ApplicationRouteFiles {
  /** `config/routes.php`, when there. */
  main: string | undefined;
  /** `config/<environment>/routes.php` of every environment that has one. */
  environments: { environment: string; file: string }[];
  /** Every module's `config/routes.php` (the application's modules, then Bonfire's), by module name. */
  modules: { module: string; file: string }[];
}

/** What of Modular Extensions' controller look-up the router model does not follow (see Application.lookUpLimit). */
type LookUpLimit = { kind: 'locations'; why: string } | { kind: 'router'; why: string } | { kind: 'suffix'; suffix: string | undefined; source: string };

/** Controller files listed at most per application. */
const MAX_CONTROLLER_FILES = 5_000;

/**
 * One CodeIgniter application: what one front controller routes. Its route files (main,
 * environment, modules), constants, Route library version, router flavour, environment and
 * controllers, all read through `files` (the host's fenced reads) and remembered until
 * forgotten. The CLI, the language server and the workspace index ask it the same questions.
 */
export class Application {
  readonly projectDir: string;
  private facts: { constants: ReadonlyMap<string, Value>; dialect: { dialect: Dialect; source: string }; router: RouterChoice; environment: EnvironmentChoice; phpRequirement: string | undefined; codeIgniter: CodeIgniterVersion | undefined } | undefined;
  private catalog: ControllerCatalog | undefined;
  private listing: ControllerListing | undefined;
  private appRoot: AppRoot | undefined;
  /** lookUpLimit's and routingUnknown's answers (config.php and MY_Router.php read once; a PHP file's change forgets them): editors ask with every hover. */
  private readonly lookUpLimits = new Map<RouterFlavour, LookUpLimit | undefined>();
  private routingUnknownRead: { override: RoutingOverride | undefined } | undefined;
  private includeFiles: IncludeFiles | undefined;

  constructor(
    readonly appDir: string,
    private readonly files: ProjectFiles,
  ) {
    this.projectDir = path.dirname(appDir);
  }

  /** Files config/constants.php includes: a change to one changes the constants. */
  private readonly constantsIncluded: string[] = [];

  /** Whether what it read of its own files (not its route files nor controllers) includes `file`. */
  reads(file: string): boolean {
    return this.constantsIncluded.includes(file);
  }

  private read() {
    this.facts ??= {
      constants: constantsOfApp(this.appDir, this.files, this.constantsIncluded),
      dialect: detectDialect(this.appDir, this.files),
      router: detectRouterFlavour(this.appDir, this.files),
      environment: chooseEnvironment(this.appDir, undefined, this.files),
      phpRequirement: composerPhpRequirement(this.projectDir, this.files),
      codeIgniter: detectCodeIgniterVersion(this.projectDir, this.files, systemFolderOf(this.appDir, this.files)),
    };
    return this.facts;
  }

  /** The constants its route files start with: the framework's paths, then constants.php's. */
  constants(): ReadonlyMap<string, Value> {
    return this.read().constants;
  }

  /** The router serving it: the one asked for, else the one its files tell. */
  router(asked?: RouterFlavour | 'auto'): RouterChoice {
    return chooseRouterFlavour(asked, () => this.read().router);
  }

  /** The Route library version: the one asked for, else its Route.php's, else Bonfire's under Bonfire's router. */
  dialect(asked?: Dialect | 'auto', router: RouterFlavour = this.router().flavour): { dialect: Dialect; source: string } {
    return chooseDialect(asked, () => this.read().dialect, () => router);
  }

  /** The CodeIgniter it runs on, as its system folder says (undefined when none is found). */
  codeIgniter(): CodeIgniterVersion | undefined {
    return this.read().codeIgniter;
  }

  /** ENVIRONMENT when nothing gives it: its index.php's default, else CodeIgniter's. */
  defaultEnvironment(): EnvironmentChoice {
    return this.read().environment;
  }

  /** The environments that have a route file (`config/<name>/routes.php`), sorted. */
  environmentsWithRoutes(): string[] {
    return environmentsWithRoutes(this.appDir, this.files);
  }

  /** The URL suffix its URI class strips from requests (config.php's url_suffix) under an environment. */
  urlSuffix(environment: string | undefined = this.defaultEnvironment().name): UrlSuffixChoice {
    return urlSuffixOf(this.appDir, environment, this.files);
  }

  /**
   * Why its URIs may hold characters beyond CodeIgniter's default `permitted_uri_chars`, which the
   * reachability checks assume (see uriCharsBeyondOf); undefined when they may not, or when there
   * is no config/config.php to read. `environment`: ENVIRONMENT as the route file's evaluation
   * had it (its setup's choice), whose config.php CodeIgniter reads after the main one.
   */
  uriCharsBeyond(environment: string | undefined): string | undefined {
    return this.uriCharsIn(environment).beyond;
  }

  /**
   * The URI filter its router applies under an environment (config.php's permitted_uri_chars,
   * the environment's over it; see uriFilterOfSetting).
   */
  uriFilter(environment: string | undefined): UriFilter {
    return this.uriCharsIn(environment).filter;
  }

  /** permitted_uri_chars under an environment, read once (a change to config.php forgets the application): its filter and why it permits more than the default. */
  private uriCharsIn(environment: string | undefined): { filter: UriFilter; beyond: string | undefined } {
    const key = environment ?? '';
    let read = this.uriChars.get(key);
    if (!read) {
      const set = permittedUriCharsOf(this.appDir, environment, this.files);
      const filter = uriFilterOfSetting(set);
      read = { filter, beyond: uriCharsBeyondOfSetting(set, filter) };
      this.uriChars.set(key, read);
    }
    return read;
  }

  /** uriCharsIn()'s answers, by environment. */
  private readonly uriChars = new Map<string, { filter: UriFilter; beyond: string | undefined }>();

  /**
   * The controllers its route files' targets are checked against, or why they are not: under
   * Modular Extensions' router, a `controller_suffix` in config.php (`UserController.php`), or
   * no config.php to tell it, changes every controller's file and class name, which the router
   * model does not follow.
   */
  checkedControllers(flavour: RouterFlavour = this.router().flavour): { catalog: ControllerCatalog } | { unchecked: string } {
    const limit = this.lookUpLimit(flavour);
    if (limit?.kind === 'locations' || limit?.kind === 'router') return { unchecked: limit.why };
    if (limit?.kind === 'suffix') {
      const { suffix, source } = limit;
      return { unchecked: suffix === undefined ? `Modular Extensions' router adds config.php's controller_suffix to controller names, and it is not known (${source})` : `Modular Extensions' router adds config.php's controller_suffix ('${suffix}', ${source}) to controller names` };
    }
    return { catalog: this.controllers() };
  }

  /**
   * Why a route's controller cannot be looked up as the application's router looks it up, as the
   * answers that would name it say it (hover, Test URL, match); undefined when it can be. Unlike
   * checkedControllers, only a suffix config.php sets: without a config.php, those answers are
   * the router's with none configured (as the HMVC conformance vectors record it), while the
   * checks, which must hold whatever the deployed config.php says, conclude nothing.
   */
  controllerLookUpUnknown(flavour: RouterFlavour = this.router().flavour): string | undefined {
    const limit = this.lookUpLimit(flavour);
    if (limit === undefined) return undefined;
    if (limit.kind === 'locations' || limit.kind === 'router') return `the controller is not looked up: ${limit.why}`;
    const { suffix, source } = limit;
    if (suffix === undefined && source === NO_CONFIG_FILE) return undefined;
    const what = suffix === undefined ? `config.php's controller_suffix (${source})` : `config.php's controller_suffix ('${suffix}', ${source})`;
    return `the controller is not looked up: Modular Extensions' router adds ${what} to controller names, which the analysis does not follow`;
  }

  /**
   * What of Modular Extensions' controller look-up the router model does not follow: modules put
   * elsewhere (`modules_locations`), or a `controller_suffix` that is set or not known. Read once
   * per flavour (config.php; a PHP file's change forgets it): every analysis and hover asks.
   * Under CodeIgniter 2 the analysis leaves controllers unchecked itself (its codeigniter-2 findings say why).
   */
  private lookUpLimit(flavour: RouterFlavour): LookUpLimit | undefined {
    if ((this.codeIgniter()?.major ?? 3) < 3) return undefined;
    if (!this.lookUpLimits.has(flavour)) this.lookUpLimits.set(flavour, this.readLookUpLimit(flavour));
    return this.lookUpLimits.get(flavour);
  }

  private readLookUpLimit(flavour: RouterFlavour): LookUpLimit | undefined {
    const custom = lookUpOverride(this.appDir, this.files);
    if (custom !== undefined) return { kind: 'router', why: custom };
    if (flavour !== 'mx') return undefined;
    const environment = this.defaultEnvironment().name;
    const locations = modulesLocationsSet(this.appDir, environment, this.files);
    if (locations !== undefined) return { kind: 'locations', why: `Modular Extensions' router looks for modules where ${locations}, which the analysis does not follow (it knows application/modules/ only)` };
    const { suffix, source } = controllerSuffixOf(this.appDir, environment, this.files);
    return suffix === '' ? undefined : { kind: 'suffix', suffix, source };
  }

  /** Why the module route files Modular Extensions' router consults are not known (its modules kept elsewhere: modules_locations); undefined when they are. */
  moduleRoutesUnknown(flavour: RouterFlavour = this.router().flavour): string | undefined {
    const limit = this.lookUpLimit(flavour);
    return limit?.kind === 'locations' ? `the module routes and controller are not looked up: ${limit.why}` : undefined;
  }

  /** Why requests are not routed as the application routes them: its own router reads or matches the route table otherwise (see routingOverride); undefined when they are. */
  routingUnknown(): string | undefined {
    return this.routingOverridden()?.why;
  }

  /** Its own router's redefinition of how the route table is read or matched, if any (see routingOverride). */
  routingOverridden(): RoutingOverride | undefined {
    this.routingUnknownRead ??= { override: routingOverride(this.appDir, this.files) };
    return this.routingUnknownRead.override;
  }

  /** The PHP version it runs on, as `asked` (ciRoutes.phpVersion, --php-version) or its composer.json says. */
  phpVersion(asked?: string): PhpVersion {
    return choosePhpVersion(asked, () => this.read().phpRequirement).version;
  }

  /** How one of its route files is evaluated. */
  setupFor(file: string, asked: AskedSetup = {}): RouteFileSetup {
    const router = this.router(asked.router);
    const { dialect, source: dialectSource } = this.dialect(asked.dialect, router.flavour);
    const constants = new Map(this.constants());
    // CodeIgniter.php defines CI_VERSION before the router reads routes.php (Bonfire's stock file tests it).
    const ci = this.codeIgniter();
    if (ci) constants.set('CI_VERSION', ci.version);
    for (const [k, v] of asked.constants ?? []) constants.set(k, v);
    const { environment, environmentRoutes } = applyEnvironment(file, this.appDir, constants, () => this.defaultEnvironment(), this.files);
    this.includeFiles ??= this.files.includes(this.projectDir, frontControllerDirOf(this.appDir, this.files));
    const php = choosePhpVersion(asked.phpVersion, () => this.read().phpRequirement);
    return { file, appDir: this.appDir, module: moduleOfRouteFile(file), dialect, dialectSource, router, constants, environment, environmentRoutes, includes: this.includeFiles, php, constantsComplete: false };
  }

  /** Its root as the HMVC routers see it (`application/…`, Bonfire's `bonfire/…`). */
  root(): AppRoot {
    this.appRoot ??= new AppRoot(this.appDir, this.files);
    return this.appRoot;
  }

  /** Its controllers, each file read when first asked about. */
  controllers(): ControllerCatalog {
    this.catalog ??= createControllerCatalog(this.files.tree(this.appDir), (rel) => this.files.read(path.join(this.appDir, rel), MAX_ROOT_FILE_BYTES), this.root().tree, !isPhp8(this.phpVersion()));
    return this.catalog;
  }

  /** Its modules, controllers and their methods as completion lists them: its controller files, read through controllers(). */
  controllerListing(): ControllerListing {
    const limit = this.lookUpLimit(this.router().flavour);
    this.listing ??= controllerListing(this.controllerFiles(), this.controllers(), limit?.kind === 'suffix' ? (limit.suffix ?? '') : '');
    return this.listing;
  }

  /**
   * Its controller files (controllers/ and modules/<m>/controllers/, sub-folders included), by
   * path relative to the application folder; bounded, each real folder once.
   */
  controllerFiles(): string[] {
    const out: string[] = [];
    const roots = ['controllers', ...this.moduleNames(this.appDir).map((m) => `modules/${m}/controllers`)];
    // Shared by the roots: a module linked into another is listed once.
    const seen = new Set<string>();
    for (const r of roots) {
      for (const entry of this.files.walk(path.join(this.appDir, r), { maxDepth: 4, seen })) {
        if (out.length >= MAX_CONTROLLER_FILES) return out;
        if (entry.kind === 'file' && entry.name.endsWith('.php')) out.push(`${r}/${entry.rel}`);
      }
    }
    return out;
  }

  /** Its route files, in the order the router reads them: main, environments, modules. */
  routeFiles(): ApplicationRouteFiles {
    const main = path.join(this.appDir, 'config', 'routes.php');
    const environments = this.environmentsWithRoutes().map((environment) => ({ environment, file: environmentRouteFileOf(this.appDir, environment)! }));
    const modules: { module: string; file: string }[] = [];
    const bonfire = path.join(this.projectDir, 'bonfire');
    for (const owner of [this.appDir, ...(this.files.kind(bonfire) === 'dir' ? [bonfire] : [])]) {
      for (const module of this.moduleNames(owner)) {
        const file = path.join(owner, 'modules', module, 'config', 'routes.php');
        if (this.files.kind(file) === 'file') modules.push({ module, file });
      }
    }
    return { main: this.files.kind(main) === 'file' ? main : undefined, environments, modules };
  }

  /**
   * Its route files of their own (an environment's runs within the main file's evaluation), in
   * the order the router reads them: the main file, then each module's; without a main file,
   * each environment's file stands in its place.
   */
  routeFilesInRouterOrder(): { file: string; module: string | undefined }[] {
    const { main, environments, modules } = this.routeFiles();
    // Without config/routes.php (CodeIgniter 3 does not need one), an environment's file is all the router reads.
    const own = main ? [main] : environments.map((e) => e.file);
    return [...own.map((file) => ({ file, module: undefined })), ...modules];
  }

  /** Whether a route file is one of its own (main, environment or module file). */
  owns(file: string): boolean {
    return applicationDirOf(file, (p) => this.files.kind(p)) === this.appDir;
  }

  /** Forgets its controllers (a PHP file changed). */
  forgetControllers(): void {
    this.lookUpLimits.clear();
    this.routingUnknownRead = undefined;
    this.catalog = undefined;
    this.listing = undefined;
    this.appRoot = undefined;
  }

  private moduleNames(owner: string): string[] {
    const modules = path.join(owner, 'modules');
    return this.files.list(modules).filter((m) => this.files.kind(path.join(modules, m)) === 'dir');
  }
}

/**
 * How a route file with no readable application is evaluated: from its text alone. `alone`: it
 * lies in no application's layout (a constant it does not define is then undefined).
 */
export function detachedSetup(file: string, asked: AskedSetup, files: ProjectFiles, alone = true): RouteFileSetup {
  const router = chooseRouterFlavour(asked.router, () => detectRouterFlavour(undefined, files));
  const { dialect, source: dialectSource } = chooseDialect(asked.dialect, () => detectDialect(undefined, files), () => router.flavour);
  const constants = new Map<string, Value>(asked.constants ?? []);
  const { environment, environmentRoutes } = applyEnvironment(file, undefined, constants, () => chooseEnvironment(undefined, undefined, files), files);
  const php = choosePhpVersion(asked.phpVersion, () => undefined);
  return { file, appDir: undefined, module: moduleOfRouteFile(file), dialect, dialectSource, router, constants, environment, environmentRoutes, includes: files.includes(includeRootOf(file, undefined)), php, constantsComplete: alone };
}

/**
 * The applications of a workspace (or of a CLI run), found from any route file inside them and
 * remembered until forgotten.
 */
export class Applications {
  private readonly known = new Map<string, Application>();

  constructor(readonly files: ProjectFiles) {}

  /** The application folder of a route file, readable or not (see of()). */
  applicationDirOf(file: string): string | undefined {
    return applicationDirOf(file, (p) => this.files.kind(p));
  }

  /**
   * The application a route file belongs to: none when its folder cannot be read (outside the
   * read fence) or the file's own folder does not exist (an editor's unsaved path), and the file is
   * then analysed from its text alone.
   */
  of(file: string): Application | undefined {
    const appDir = this.applicationDirOf(file);
    if (appDir === undefined || this.files.kind(path.dirname(path.resolve(file))) !== 'dir') return undefined;
    return this.at(appDir);
  }

  /**
   * The application a command run in a folder means: the folder's own, or the nearest above it
   * (see findApplicationDir); with where the search looked, for a message when there is none.
   */
  findFrom(dir: string): ApplicationSearch & { app: Application | undefined } {
    const search = findApplicationDir(dir, (p) => this.files.kind(p), (f) => this.files.read(f, MAX_FRONT_CONTROLLER_BYTES));
    return { ...search, app: search.appDir === undefined ? undefined : this.at(search.appDir) };
  }

  /** The application whose folder this is, when it can be read. */
  at(appDir: string): Application | undefined {
    let app = this.known.get(appDir);
    if (!app && this.files.kind(appDir) === 'dir') {
      app = new Application(appDir, this.files);
      this.known.set(appDir, app);
    }
    return app;
  }

  /** How a route file is evaluated: through its application, else from its text alone. */
  setupFor(file: string, asked: AskedSetup = {}): RouteFileSetup {
    // A file in an application's config/ folder that cannot be read is still that application's:
    // only a file outside any application layout runs alone.
    return this.of(file)?.setupFor(file, asked) ?? detachedSetup(file, asked, this.files, this.applicationDirOf(file) === undefined);
  }

  /** Forgets what was read of one application (its constants, Route.php or router files changed), or of all. */
  forget(appDir?: string): void {
    if (appDir === undefined) this.known.clear();
    else this.known.delete(appDir);
  }

  /** Whether an application known now read `file` for what it knows of itself (see Application.reads). */
  read(file: string): boolean {
    for (const app of this.known.values()) if (app.reads(file)) return true;
    return false;
  }

  /** Forgets every application's controllers (a PHP file changed). */
  forgetControllers(): void {
    for (const app of this.known.values()) app.forgetControllers();
  }
}

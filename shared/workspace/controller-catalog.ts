import { RE2JS } from 're2js';
import { FileListTree, normalizeAppPath, type AppTree } from '../router/app-tree';
import { ucfirst } from '../router/ci-router';
import { rootAroundApplication } from '../router/hmvc/app-paths';
import { indexPhpFile } from './php-index';
import type { ControllerInfo } from './php-index-model';
import { compareIgnoringCase } from '../util/without-icu';

/** The routable methods of one controller file. */
export interface ControllerMethods {
  /** Lower case (PHP method names are case-insensitive), for asking whether a method exists. */
  readonly names: ReadonlySet<string>;
  /** As declared, each once (the first spelling), in file order: what a listing shows. */
  readonly declared: readonly string[];
  /** A class of the file, or a class it inherits from, has `_remap()`: it takes every method. */
  readonly hasRemap: boolean;
  /**
   * Why methods beyond `names` may exist: a class of the file inherits from one the analysis cannot
   * read (`Api extends REST_Controller, which is not found in core/ or libraries/`). Nothing is then
   * concluded about a method it lacks.
   */
  readonly open?: string;
  /** The classes the file itself declares, as declared (CodeIgniter.php instantiates the one named like the file, in any case). */
  readonly classes: readonly string[];
}

/**
 * The controllers of one application: which files exist, and their routable methods. The one
 * model of an application's controllers: the checks, hovers and links ask it about a file, and the
 * listing completion reads (controllerListing) is built from it.
 */
export interface ControllerCatalog {
  /** The application folder. */
  readonly tree: AppTree;
  /** The application root, as the HMVC routers see it (`application/` below it, Bonfire's `bonfire/` beside it). */
  readonly root: AppTree;
  /** Routable methods of a controller file (path relative to the application folder); undefined when it cannot be read. */
  methods(file: string): ControllerMethods | undefined;
  /**
   * The classes (lower case) the application's `core/MY_<Class>.php` files declare, for the core
   * classes CodeIgniter.php loads before dispatch: class_exists() finds them, and a 404_override
   * naming one is served by it (`my_controller/error`).
   */
  loadedBeforeDispatch(): ReadonlySet<string>;
}

/** The core classes CodeIgniter.php loads (with the application's MY_ extension) before it dispatches. */
const CORE_LOADED_BEFORE_DISPATCH = ['Benchmark', 'Hooks', 'Config', 'Log', 'Utf8', 'URI', 'Router', 'Output', 'Security', 'Input', 'Lang', 'Controller'];

/** The classes a PHP file declares, from the lexical scan. */
function classesOf(text: string): readonly ControllerInfo[] {
  // The lexical scan: exact on valid files, fast, and immune to php-parser's slow paths.
  // Whatever its opening tag: PHP runs a controller opened with `<?` under short_open_tag.
  return indexPhpFile(text, { parser: false, shortTags: true }).controllers;
}

/** Parents whose public methods no URL reaches: CodeIgniter's controller, and Modular Extensions' (which loads CodeIgniter's instance). */
const FRAMEWORK_BASES = new Set(['ci_controller', 'mx_controller']);

/** Whether a class inherits no routable method: it extends nothing, or CodeIgniter's or Modular Extensions' controller. */
export function inheritsNoMethods(c: Pick<ControllerInfo, 'extends'>): boolean {
  return c.extends === undefined || FRAMEWORK_BASES.has(c.extends.toLowerCase());
}
/** Ancestors followed above a controller class: deeper chains are left open. */
const MAX_ANCESTORS = 8;

/** A class name without its namespace (`App\\Core\\Base` → `Base`): the name a file declares it by. */
function unqualified(name: string): string {
  return name.slice(name.lastIndexOf('\\') + 1);
}

/**
 * Where a controller's parent class may be declared (paths from the application folder): the file
 * of its own name beside the controller or in controllers/ (a base controller the file requires),
 * in core/ (CodeIgniter loads core/MY_Controller.php itself, and applications autoload or require
 * other bases from there) or libraries/ (REST_Controller and the like), and core/MY_Controller.php,
 * which often holds several bases.
 */
function parentFiles(parent: string, controllerFile: string): string[] {
  const base = ucfirst(unqualified(parent));
  const folder = controllerFile.includes('/') ? controllerFile.slice(0, controllerFile.lastIndexOf('/') + 1) : '';
  return [...new Set([`${folder}${base}.php`, `controllers/${base}.php`, `core/${base}.php`, `libraries/${base}.php`, 'core/MY_Controller.php'])];
}

/** Files one PHP file requires at most, for its bases. */
const MAX_REQUIRED = 32;

// require/include (once or not) of `APPPATH . '…'`, `__DIR__ . '/…'` or `dirname(__FILE__) . '/…'`:
// paths known without running anything. RE2: linear in the file's length (the file is the workspace's).
const REQUIRE = RE2JS.compile(`(?i)\\b(?:require|include)(?:_once)?\\s*\\(?\\s*(APPPATH|__DIR__|dirname\\s*\\(\\s*__FILE__\\s*\\))\\s*\\.\\s*(?:'([^'$\\\\]{1,200})'|"([^"$\\\\]{1,200})")`);

/** The application-folder paths of the files `text` (the file at `file`) requires with a path known statically. */
function requiredFiles(text: string, file: string): string[] {
  const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  const out: string[] = [];
  const m = REQUIRE.matcher(text);
  while (m.find()) {
    const written = m.group(2) ?? m.group(3) ?? '';
    const rel = m.group(1)!.toUpperCase() === 'APPPATH' ? written : `${folder}/${written.replace(/^\//, '')}`;
    const normal = normalizeAppPath(rel.replace(/^\/+/, ''));
    if (normal.split('/').includes('..') || !normal.toLowerCase().endsWith('.php')) continue;
    out.push(normal);
    if (out.length >= MAX_REQUIRED) break;
  }
  return out;
}

/** Where parentFiles() looks, for messages. */
const PARENT_PLACES = 'beside the controller, in controllers/, core/ or libraries/, nor in a file it or core/MY_Controller.php requires';

/**
 * The public methods of a controller file's classes and of the classes they inherit from (a URL
 * reaches both, and an inherited `_remap()` takes every call); `findClass` looks a parent up
 * elsewhere in the application.
 */
function controllerMethods(classes: readonly ControllerInfo[], findClass: (name: string) => ControllerInfo | undefined, legacyConstructors: boolean): ControllerMethods {
  const names = new Set<string>();
  const declared: string[] = [];
  let hasRemap = false;
  let open: string | undefined;
  const take = (c: ControllerInfo) => {
    hasRemap ||= c.hasRemap;
    for (const m of c.methods) {
      // A PHP 4 style constructor before PHP 8: CodeIgniter answers 404 for it.
      if (legacyConstructors && m.name === c.legacyConstructor) continue;
      const lower = m.name.toLowerCase();
      if (names.has(lower)) continue;
      names.add(lower);
      declared.push(m.name);
    }
  };
  const traitsOf = (c: ControllerInfo) => {
    if (c.traits?.length) open ??= `${c.className} uses ${c.traits.join(', ')}, whose methods are not read`;
  };
  for (const c of classes) {
    take(c);
    traitsOf(c);
    const seen = new Set([c.className.toLowerCase()]);
    for (let parent = c.extends, depth = 0; parent !== undefined && !FRAMEWORK_BASES.has(parent.toLowerCase()); depth++) {
      const lower = parent.toLowerCase();
      const found = depth < MAX_ANCESTORS && !seen.has(lower) ? (classes.find((k) => k.className.toLowerCase() === lower) ?? findClass(parent)) : undefined;
      if (!found) {
        open ??= `${c.className} extends ${parent}, which is not found ${PARENT_PLACES}`;
        break;
      }
      seen.add(lower);
      take(found);
      traitsOf(found);
      parent = found.extends;
    }
  }
  return { names, declared, hasRemap, classes: classes.map((c) => c.className), ...(open !== undefined ? { open } : {}) };
}

/**
 * A catalog over a tree and a way to read files; each controller file is indexed once.
 * `root`: the application root, when the host knows what lies beside the application folder.
 * `legacyConstructors`: PHP before 8 runs it, where a method named like its class (and no
 * `__construct`) is the constructor, not a method a URL reaches.
 */
export function createControllerCatalog(tree: AppTree, read: (file: string) => string | undefined, root: AppTree = rootAroundApplication(tree), legacyConstructors = false): ControllerCatalog {
  const cache = new Map<string, ControllerMethods | undefined>();
  let loaded: ReadonlySet<string> | undefined;
  const declaredIn = new Map<string, readonly ControllerInfo[]>();
  const classesIn = (file: string): readonly ControllerInfo[] => {
    let classes = declaredIn.get(file);
    if (!classes) {
      const text = tree.isFile(file) ? read(file) : undefined;
      declaredIn.set(file, (classes = text === undefined ? [] : classesOf(text)));
    }
    return classes;
  };
  const requiredBy = new Map<string, readonly string[]>();
  /** The files a file requires with a path from APPPATH or its own folder (`require APPPATH . 'core/controllers/Api_Controller.php'`). */
  const requiresOf = (file: string): readonly string[] => {
    let found = requiredBy.get(file);
    if (!found) {
      const text = tree.isFile(file) ? read(file) : undefined;
      requiredBy.set(file, (found = text === undefined ? [] : requiredFiles(text, file)));
    }
    return found;
  };
  const findClass = (name: string, controllerFile: string): ControllerInfo | undefined => {
    const lower = unqualified(name).toLowerCase();
    // Where bases usually are, then what the controller and core/MY_Controller.php require (a base kept elsewhere).
    const places = [...parentFiles(name, controllerFile), ...requiresOf(controllerFile), ...requiresOf('core/MY_Controller.php')];
    for (const file of new Set(places)) {
      if (file === controllerFile) continue;
      const found = classesIn(file).find((c) => c.className.toLowerCase() === lower);
      if (found) return found;
    }
    return undefined;
  };
  return {
    tree,
    root,
    methods(file: string) {
      if (cache.has(file)) return cache.get(file);
      const text = read(file);
      const result = text === undefined ? undefined : controllerMethods(classesOf(text), (name) => findClass(name, file), legacyConstructors);
      cache.set(file, result);
      return result;
    },
    loadedBeforeDispatch() {
      // The default subclass_prefix, MY_; each file's classes, its own and any other it declares.
      return (loaded ??= new Set(CORE_LOADED_BEFORE_DISPATCH.flatMap((core) => classesIn(`core/MY_${core}.php`).map((c) => c.className.toLowerCase()))));
    },
  };
}

export interface ListedController {
  /** As a target writes it: `posts`, or `admin/users` for a sub-folder. */
  name: string;
  /** Path relative to the application folder. */
  file: string;
  /** Public methods a URL can reach, as declared. */
  methods: string[];
}

/** The application's controllers as completion needs them: modules, controllers named as a URI segment writes them, and their routable methods. */
export interface ControllerListing {
  /** HMVC modules that have controllers. */
  modules(): string[];
  /** A module's controllers; without a module, `controllers/` and its sub-folders. */
  controllers(module?: string): ListedController[];
}

const APP_CONTROLLER = /^controllers\/((?:[^/]+\/)*)([^/]+)\.php$/;
const MODULE_CONTROLLER = /^modules\/([^/]+)\/controllers\/((?:[^/]+\/)*)([^/]+)\.php$/;

/** CodeIgniter looks for `ucfirst(segment).php`: a file starting with a lower-case letter (a-z) is unreachable. */
function reachable(base: string): boolean {
  return base !== '' && ucfirst(base) === base;
}

/** The segment a target writes: the first letter lowered (A-Z only: ucfirst() puts back no other). */
function segmentOf(base: string): string {
  const c = base.charCodeAt(0);
  return c >= 65 && c <= 90 ? String.fromCharCode(c + 32) + base.slice(1) : base;
}

/**
 * The listing of an application's controller files (paths relative to the application folder:
 * `controllers/Home.php`, `modules/blog/controllers/Posts.php`), their methods read from the
 * catalog when asked; a file the catalog cannot read is left out. With Modular Extensions'
 * `controller_suffix`, a file is named as the segment that reaches it (`UsersController.php`: `users`).
 */
export function controllerListing(files: Iterable<string>, catalog: ControllerCatalog, suffix = ''): ControllerListing {
  const app: { name: string; file: string }[] = [];
  const byModule = new Map<string, { name: string; file: string }[]>();
  // Modular Extensions' controller_suffix: `UsersController.php` is what the segment `users` reaches; `Users.php` nothing.
  const routable = (base: string): string | undefined => {
    const named = suffix === '' ? base : base.endsWith(suffix) ? base.slice(0, -suffix.length) : undefined;
    return named !== undefined && reachable(named) ? named : undefined;
  };
  for (const path of files) {
    if (typeof path !== 'string') continue;
    const file = normalizeAppPath(path);
    const m = MODULE_CONTROLLER.exec(file);
    if (m) {
      const named = routable(m[3]);
      if (named === undefined) continue;
      const list = byModule.get(m[1]) ?? [];
      list.push({ name: m[2] + segmentOf(named), file });
      byModule.set(m[1], list);
      continue;
    }
    const a = APP_CONTROLLER.exec(file);
    const named = a ? routable(a[2]) : undefined;
    if (a && named !== undefined) app.push({ name: a[1] + segmentOf(named), file });
  }
  const list = (entries: { name: string; file: string }[]): ListedController[] =>
    entries
      .flatMap((e) => {
        const methods = catalog.methods(e.file);
        return methods ? [{ name: e.name, file: e.file, methods: [...methods.declared] }] : [];
      })
      .sort((x, y) => compareIgnoringCase(x.name, y.name));
  return {
    modules: () => [...byModule].filter(([, entries]) => entries.some((e) => catalog.methods(e.file))).map(([module]) => module).sort(),
    controllers: (module?: string) => (module === undefined ? list(app) : list(byModule.get(module) ?? [])),
  };
}

/** The listing of controller files given with their text, keyed by path relative to the application folder. Pure; files are indexed lazily. */
export function listingFromFiles(files: ReadonlyMap<string, string>): ControllerListing {
  const texts = new Map<string, string>();
  for (const [path, text] of files) if (typeof path === 'string' && typeof text === 'string') texts.set(normalizeAppPath(path), text);
  return controllerListing(texts.keys(), createControllerCatalog(new FileListTree(texts.keys()), (file) => texts.get(file)));
}

import * as path from 'node:path';
import { RE2JS } from 're2js';
import type { RouterFlavour } from '../router/hmvc/flavour';
import type { ProjectFiles } from './project-files';

/** The router in force and how it was chosen, for messages (`detected from …`, `given`, `default: …`). */
export interface RouterChoice {
  flavour: RouterFlavour;
  source: string;
}

/** The largest router or loader file read to tell the router (each is about 10 KB); a larger one is not read. */
export const MAX_ROUTER_FILE_BYTES = 512 * 1024;

// RE2: linear in the file's length whatever it holds (the file is the workspace's).
const classNamed = (name: string) => RE2JS.compile(`class\\s+${name}\\b`, RE2JS.CASE_INSENSITIVE);
const EXTENDS_MX_ROUTER = RE2JS.compile('extends\\s+MX_Router\\b', RE2JS.CASE_INSENSITIVE);

/** A file that tells the router when it holds what the pattern finds; `at` is relative to the application folder. */
interface RouterSign {
  flavour: Exclude<RouterFlavour, 'ci'>;
  at: string;
  holds: RE2JS;
}

/**
 * Where each HMVC router leaves its mark, in the order they are tried: Bonfire's own router and
 * module loader beside the application folder (Bonfire keeps `bonfire/` next to `application/`),
 * then Modular Extensions' files in `third_party/MX/`, or the stock `core/MY_Router.php` that
 * puts MX_Router in CI_Router's place.
 */
export const ROUTER_SIGNS: readonly RouterSign[] = [
  { flavour: 'bonfire', at: '../bonfire/core/BF_Router.php', holds: classNamed('BF_Router') },
  { flavour: 'bonfire', at: '../bonfire/libraries/Modules.php', holds: classNamed('Modules') },
  { flavour: 'mx', at: 'third_party/MX/Router.php', holds: classNamed('MX_Router') },
  { flavour: 'mx', at: 'third_party/MX/Modules.php', holds: classNamed('Modules') },
  { flavour: 'mx', at: 'core/MY_Router.php', holds: EXTENDS_MX_ROUTER },
];

/** The names of the files the router is told from (a change to one may change it). */
export const ROUTER_FILE_NAMES: ReadonlySet<string> = new Set(ROUTER_SIGNS.map((sign) => path.basename(sign.at)));

/** The router an application uses, told from its own files; CodeIgniter's own when none of the signs is there. */
export function detectRouterFlavour(appDir: string | undefined, files: ProjectFiles): RouterChoice {
  if (appDir) {
    for (const sign of ROUTER_SIGNS) {
      const file = path.join(appDir, sign.at);
      // Not there, unreadable, outside the workspace or too large: the next sign.
      const text = files.read(file, MAX_ROUTER_FILE_BYTES);
      if (text !== undefined && sign.holds.matcher(text).find()) return { flavour: sign.flavour, source: `detected from ${files.shown(file)}` };
    }
    // Its own router built on one the analysis does not read (a package's): said, not hidden behind the default.
    const own = ownRouter(appDir, files);
    const parent = own && unreadParent(own.text);
    if (own && parent !== undefined) return { flavour: 'ci', source: `default: ${unreadParentWhy(own.file, parent, files)} (its answers are unknown)` };
  }
  return { flavour: 'ci', source: 'default: no HMVC router found' };
}

/** The router a setting or option asks for ('auto': `detect`ed). */
export function chooseRouterFlavour(asked: RouterFlavour | 'auto' | undefined, detect: () => RouterChoice): RouterChoice {
  return asked === undefined || asked === 'auto' ? detect() : { flavour: asked, source: 'given' };
}

/**
 * The router's methods that read and match the route table (CI_Router::_set_routing() loads
 * routes.php, _parse_routes() matches the URI against it): an application's own router that
 * defines one routes otherwise (`:any` as `.+`, routes from a database). Redefinitions of the
 * controller look-up are left alone: applications copy newer Modular Extensions' fixes there.
 */
const ROUTING_METHODS = RE2JS.compile('function\\s+&?\\s*(_parse_routes|_set_routing)\\s*\\(', RE2JS.CASE_INSENSITIVE);

/**
 * Where the application's own router (`core/MY_Router.php`) redefines how the route table is read
 * or matched (see ROUTING_METHODS), named for messages; undefined when it does not. The router
 * model follows the stock routers only.
 */
export function routingOverride(appDir: string | undefined, files: ProjectFiles): RoutingOverride | undefined {
  const own = ownRouter(appDir, files);
  if (!own) return undefined;
  const { file, text } = own;
  const parent = unreadParent(text);
  if (parent !== undefined) return { matching: true, reading: true, why: unreadParentWhy(file, parent, files) };
  const redefined = redefinedMethods(ROUTING_METHODS, text);
  if (redefined.length === 0) return undefined;
  const matching = redefined.includes('_parse_routes');
  return { matching, reading: redefined.includes('_set_routing'), why: redefinesWhy(file, redefined, files) };
}

/** The methods of the pattern's group 1 a router file defines, lower-case, each once, in file order. */
function redefinedMethods(pattern: RE2JS, text: string): string[] {
  const found = pattern.matcher(text);
  const redefined: string[] = [];
  while (found.find()) {
    const method = found.group(1)!.toLowerCase();
    if (!redefined.includes(method)) redefined.push(method);
  }
  return redefined;
}

function redefinesWhy(file: string, redefined: readonly string[], files: ProjectFiles): string {
  return `${files.shown(file)} redefines the router's ${redefined.map((m) => `${m}()`).join(' and ')}, which the analysis does not follow`;
}

function unreadParentWhy(file: string, parent: string, files: ProjectFiles): string {
  return `${files.shown(file)} extends ${parent}, a router the analysis does not read`;
}

/** The application's own router: `core/MY_Router.php`, when it can be read. */
function ownRouter(appDir: string | undefined, files: ProjectFiles): { file: string; text: string } | undefined {
  if (!appDir) return undefined;
  const file = path.join(appDir, 'core', 'MY_Router.php');
  const text = files.read(file, MAX_ROUTER_FILE_BYTES);
  return text === undefined ? undefined : { file, text };
}

const MY_ROUTER_PARENT = RE2JS.compile('class\\s+MY_Router\\s+extends\\s+\\\\?([A-Za-z_][A-Za-z0-9_]*)', RE2JS.CASE_INSENSITIVE);
/** The routers MY_Router may extend whose code the router model is. */
const MODELLED_ROUTERS = new Set(['ci_router', 'mx_router']);

/** The class MY_Router extends when it is another than CodeIgniter's or Modular Extensions' (a package's, a base of the application's own). */
function unreadParent(text: string): string | undefined {
  const found = MY_ROUTER_PARENT.matcher(text);
  if (!found.find()) return undefined;
  const parent = found.group(1)!;
  return MODELLED_ROUTERS.has(parent.toLowerCase()) ? undefined : parent;
}

/**
 * The router's methods that turn a route's target into a controller (the class, its folder, the
 * default controller): an application's own router that redefines one looks controllers up
 * otherwise (a suffix on every class, the first segment always a folder). A locate() of its own
 * counts only when it is not a copy of Modular Extensions' (see customLocate): applications copy
 * newer releases' fixes there.
 */
const LOOK_UP_METHODS = RE2JS.compile('function\\s+&?\\s*(set_class|set_directory|_set_request|_validate_request|_set_default_controller)\\s*\\(', RE2JS.CASE_INSENSITIVE);

/**
 * Why controllers are not looked up as the stock routers look them up: the application's own
 * router (`core/MY_Router.php`) redefines how (see LOOK_UP_METHODS), or extends a router the
 * analysis does not read; undefined when it does neither.
 */
export function lookUpOverride(appDir: string | undefined, files: ProjectFiles): string | undefined {
  const older = olderModularExtensions(appDir, files);
  if (older !== undefined) return older;
  const own = ownRouter(appDir, files);
  if (!own) return undefined;
  const parent = unreadParent(own.text);
  if (parent !== undefined) return unreadParentWhy(own.file, parent, files);
  const redefined = redefinedMethods(LOOK_UP_METHODS, own.text);
  if (customLocate(own.text)) redefined.push('locate');
  return redefined.length ? redefinesWhy(own.file, redefined, files) : undefined;
}

const LOCATE = RE2JS.compile('function\\s+&?\\s*locate\\s*\\(', RE2JS.CASE_INSENSITIVE);

/** What the locate() of Modular Extensions' releases calls (54 applications' copies). */
const STOCK_LOCATE_CALLS = new Set(['list', 'is_file', 'if', 'array_slice', 'array_pad', 'is_dir', 'foreach', 'isset', 'implode', 'modules::parse_routes', 'modules::run', 'ucfirst', 'lcfirst', 'strtolower', 'empty', 'array', 'elseif', 'while', 'version_compare', 'phpversion', 'locate', 'str_replace']);
const CALL = /(?<![\w$>])((?:[A-Za-z_]\w*::)?[A-Za-z_]\w*)\s*\(|\$this->(\w+)\s*\(/g;

/**
 * Whether MY_Router's own locate() looks modules up otherwise than Modular Extensions': it calls
 * the parent's around logic of its own, or calls what no release's locate() does (a list of
 * disabled modules, show_error()). A copy of a release's locate(), with its later fixes, and one
 * that only returns the parent's, are followed.
 */
function customLocate(text: string): boolean {
  const found = LOCATE.matcher(text);
  if (!found.find()) return false;
  const open = text.indexOf('{', found.end());
  if (open < 0) return false;
  let depth = 0;
  let end = open;
  for (; end < text.length; end++) {
    if (text[end] === '{') depth++;
    else if (text[end] === '}' && --depth === 0) break;
  }
  const body = text.slice(open + 1, end);
  // Only `return parent::locate($segments);`: the stock look-up itself.
  const rest = body.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|#[^\n]*/g, '').replace(/return\s+parent::locate\s*\([^;]*\)\s*;/i, '');
  if (rest.trim() === '') return false;
  for (const m of body.matchAll(CALL)) {
    if (m[2] !== undefined || !STOCK_LOCATE_CALLS.has(m[1]!.toLowerCase())) return true;
  }
  return false;
}

const VALIDATE_REQUEST = RE2JS.compile('function\\s+&?\\s*_validate_request\\s*\\(', RE2JS.CASE_INSENSITIVE);

/**
 * Modular Extensions before 5.5 (its MX_Router has `_validate_request()`, 5.5 `_set_request()`):
 * its locate() tests the URI's segments as written, where 5.5 and the router model ucfirst() them.
 */
function olderModularExtensions(appDir: string | undefined, files: ProjectFiles): string | undefined {
  if (!appDir) return undefined;
  const file = path.join(appDir, 'third_party', 'MX', 'Router.php');
  const text = files.read(file, MAX_ROUTER_FILE_BYTES);
  return text !== undefined && VALIDATE_REQUEST.matcher(text).find()
    ? `${files.shown(file)} is an older Modular Extensions (before 5.5, with _validate_request()), whose controller look-up the analysis does not follow`
    : undefined;
}

/** An application's own router reading or matching the route table otherwise (see routingOverride). */
export interface RoutingOverride {
  /** It redefines _parse_routes(): how a URI matches a key is its own, not CodeIgniter's. */
  matching: boolean;
  /**
   * It redefines _set_routing(): which route files it reads, and how, is its own (one may read
   * every module's routes file into the main table). Modules::parse_routes(), which reads a
   * module's file for Modular Extensions, is not the router's: _parse_routes() alone leaves it.
   */
  reading: boolean;
  /** For messages: the file and the methods it redefines. */
  why: string;
}


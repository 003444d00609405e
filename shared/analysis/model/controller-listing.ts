/**
 * The application's controllers as completion needs them: modules, controllers named as a URI
 * segment writes them, and their routable methods.
 */

import { normalizeAppPath } from '../../router/app-tree';
import { indexPhpFile } from '../../workspace/php-index';

export interface ListedController {
  /** As a target writes it: `posts`, or `admin/users` for a sub-folder. */
  name: string;
  /** Path relative to the application folder. */
  file: string;
  /** Public methods a URL can reach, as declared. */
  methods: string[];
}

export interface ControllerListing {
  /** HMVC modules that have controllers. */
  modules(): string[];
  /** A module's controllers; without a module, `controllers/` and its sub-folders. */
  controllers(module?: string): ListedController[];
}

const APP_CONTROLLER = /^controllers\/((?:[^/]+\/)*)([^/]+)\.php$/;
const MODULE_CONTROLLER = /^modules\/([^/]+)\/controllers\/((?:[^/]+\/)*)([^/]+)\.php$/;

/** CodeIgniter looks for `ucfirst(segment).php`: a file starting with a lower-case letter is unreachable. */
function reachable(base: string): boolean {
  return base !== '' && base[0] === base[0].toUpperCase();
}

/** The segment a target writes: CodeIgniter upper-cases only the first letter. */
function segmentOf(base: string): string {
  return base[0].toLowerCase() + base.slice(1);
}

function methodsOf(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  // The lexical scan, as the controller catalog does: same result on valid files, much faster.
  for (const c of indexPhpFile(text, { parser: false, shortTags: true }).controllers) {
    for (const m of c.methods) {
      if (seen.has(m.name.toLowerCase())) continue;
      seen.add(m.name.toLowerCase());
      out.push(m.name);
    }
  }
  return out;
}

/**
 * A listing over file texts keyed by path relative to the application folder
 * (`controllers/Home.php`, `modules/blog/controllers/Posts.php`). Pure; files are indexed lazily.
 */
export function listingFromFiles(files: ReadonlyMap<string, string>): ControllerListing {
  const app: { name: string; file: string; text: string }[] = [];
  const byModule = new Map<string, { name: string; file: string; text: string }[]>();
  for (const [path, text] of files) {
    if (typeof path !== 'string' || typeof text !== 'string') continue;
    const file = normalizeAppPath(path);
    const m = MODULE_CONTROLLER.exec(file);
    if (m) {
      if (!reachable(m[3])) continue;
      const list = byModule.get(m[1]) ?? [];
      list.push({ name: m[2] + segmentOf(m[3]), file, text });
      byModule.set(m[1], list);
      continue;
    }
    const a = APP_CONTROLLER.exec(file);
    if (a && reachable(a[2])) app.push({ name: a[1] + segmentOf(a[2]), file, text });
  }
  const cache = new Map<string, string[]>();
  const list = (entries: { name: string; file: string; text: string }[]): ListedController[] =>
    entries
      .map((e) => {
        let methods = cache.get(e.file);
        if (!methods) cache.set(e.file, (methods = methodsOf(e.text)));
        return { name: e.name, file: e.file, methods: [...methods] };
      })
      .sort((x, y) => x.name.localeCompare(y.name));
  return {
    modules: () => [...byModule.keys()].sort(),
    controllers: (module?: string) => (module === undefined ? list(app) : list(byModule.get(module) ?? [])),
  };
}

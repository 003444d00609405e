import { RE2JS } from 're2js';
import * as path from 'node:path';
import type { Dialect } from '../library/route-library';
import type { RouterFlavour } from '../router/hmvc/flavour';
import type { ProjectFiles } from './project-files';
import { ROUTE_API } from '../library/route-api';

/**
 * The largest Route.php read to tell the dialect: the library is about 30 KB; a larger file is not
 * read, and the dialect falls back to the setting or `spec`.
 */
export const MAX_LIBRARY_BYTES = 512 * 1024;

// RE2 matches in time linear in the text, whatever it holds: the file is the workspace's, and a
// backtracking engine took minutes on 400 KB of crafted text with the same pattern.
const ROUTE_CLASS = RE2JS.compile('class\\s+Route\\b', RE2JS.CASE_INSENSITIVE);
/** The home route: `self::any($name, <target>)` whose target mentions the 'home' option. */
const HOME_ROUTE = RE2JS.compile('self::any\\s*\\(\\s*\\$name\\s*,\\s*([^;]*home[^;]*)\\)\\s*;');
const MENTIONS_NAME = RE2JS.compile('\\$name');

/** A method declaration with its modifiers (`public static function &get`). */
const METHOD = RE2JS.compile('((?:(?:public|protected|private|static|final|abstract)\\s+)+)function\\s+&?\\s*([A-Za-z_][A-Za-z0-9_]*)', RE2JS.CASE_INSENSITIVE);

/**
 * Tells the library version from its source: the two versions differ only in context()'s home
 * route, `"{$name}/{$options['home']}"` (spec) or `"{$options['home']}"` (Bonfire). A class
 * Route with public static methods the library does not have (another static routes library, or
 * the library with methods renamed or added) is `other`.
 */
export function dialectOfLibrarySource(source: string): Dialect | undefined {
  return routeClassOfSource(source)?.dialect;
}

/** dialectOfLibrarySource(), with how the class differs from the library when it is `other`. */
export function routeClassOfSource(source: string): { dialect: Dialect; differs?: string } | undefined {
  if (source.length > MAX_LIBRARY_BYTES || !ROUTE_CLASS.matcher(source).find()) return undefined;
  const methods = new Set<string>();
  const m = METHOD.matcher(source);
  while (m.find()) {
    const modifiers = (m.group(1) ?? '').toLowerCase();
    if (/\bstatic\b/.test(modifiers) && !/\b(private|protected)\b/.test(modifiers)) methods.add((m.group(2) ?? '').toLowerCase());
  }
  // One the library lacks tells another library (or the library with methods renamed); one missing
  // alone does not (an older version without one, or a stub).
  const api = Object.keys(ROUTE_API);
  const extra = [...methods].filter((name) => !api.includes(name));
  if (extra.length) {
    const missing = api.filter((name) => !methods.has(name));
    const list = (names: string[]) => names.slice(0, 4).map((n) => `${n}()`).join(', ') + (names.length > 4 ? ', …' : '');
    return { dialect: 'other', differs: `defines ${list(extra)}, which the library does not${missing.length ? `, and has no ${list(missing)}` : ''}` };
  }
  const home = HOME_ROUTE.matcher(source);
  if (!home.find()) return undefined;
  return { dialect: MENTIONS_NAME.matcher(home.group(1) ?? '').find() ? 'spec' : 'bonfire' };
}

/** Where applications keep the library, relative to the application folder. */
export const LIBRARY_LOCATIONS = [
  'libraries/Route.php',
  'third_party/Route.php',
  'core/Route.php',
  '../bonfire/libraries/Route.php',
  '../bonfire/application/libraries/Route.php',
];

/** Folders (of the application folder) searched further for a Route.php, and how deep: applications keep other Route classes there (`third_party/routes/Route.php`). */
const SEARCHED_FOLDERS = ['third_party', 'libraries', 'core'];
const SEARCH_DEPTH = 3;
/** Route.php files read at most, beyond LIBRARY_LOCATIONS. */
const MAX_SEARCHED = 8;

/**
 * The dialect an application's own Route.php tells, and where it was read; `spec` by default.
 * A Route.php declaring a class Route that is not the library (another static routes library:
 * other methods, other arguments) gives `other`: its calls are then not evaluated, where the
 * library's methods would be taken for its and report what it defines as undefined.
 */
export function detectDialect(appDir: string | undefined, files: ProjectFiles): { dialect: Dialect; source: string } {
  if (!appDir) return { dialect: 'spec', source: 'default' };
  let other: string | undefined;
  for (const file of routeClassFiles(appDir, files)) {
    const text = files.read(file, MAX_LIBRARY_BYTES);
    // Not there, or over MAX_LIBRARY_BYTES: the next place.
    const found = text === undefined ? undefined : routeClassOfSource(text);
    if (found?.dialect === 'other') other ??= `${files.shown(file)} declares a Route class other than the Route library (it ${found.differs}): its calls are not evaluated`;
    else if (found) return { dialect: found.dialect, source: `detected from ${files.shown(file)}` };
  }
  return other !== undefined ? { dialect: 'other', source: other } : { dialect: 'spec', source: 'default' };
}

/** LIBRARY_LOCATIONS, then the other Route.php files of SEARCHED_FOLDERS. */
function* routeClassFiles(appDir: string, files: ProjectFiles): Iterable<string> {
  const known = LIBRARY_LOCATIONS.map((rel) => path.join(appDir, rel));
  yield* known;
  let searched = 0;
  for (const folder of SEARCHED_FOLDERS) {
    for (const entry of files.walk(path.join(appDir, folder), { maxDepth: SEARCH_DEPTH })) {
      if (entry.kind !== 'file' || entry.name !== 'Route.php') continue;
      const file = entry.path;
      if (known.includes(file)) continue;
      if (++searched > MAX_SEARCHED) return;
      yield file;
    }
  }
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

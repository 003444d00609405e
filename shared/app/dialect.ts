import { RE2JS } from 're2js';
import * as path from 'node:path';
import type { Dialect } from '../library/route-library';
import type { RouterFlavour } from '../router/hmvc/flavour';
import type { ProjectFiles } from './project-files';

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

/**
 * Tells the library version from its source: the two versions differ only in context()'s home
 * route, `"{$name}/{$options['home']}"` (spec) or `"{$options['home']}"` (Bonfire).
 */
export function dialectOfLibrarySource(source: string): Dialect | undefined {
  if (source.length > MAX_LIBRARY_BYTES || !ROUTE_CLASS.matcher(source).find()) return undefined;
  const home = HOME_ROUTE.matcher(source);
  if (!home.find()) return undefined;
  return MENTIONS_NAME.matcher(home.group(1) ?? '').find() ? 'spec' : 'bonfire';
}

/** Where applications keep the library, relative to the application folder. */
export const LIBRARY_LOCATIONS = [
  'libraries/Route.php',
  'third_party/Route.php',
  'core/Route.php',
  '../bonfire/libraries/Route.php',
  '../bonfire/application/libraries/Route.php',
];

/** The dialect an application's own Route.php tells, and where it was read; `spec` by default. */
export function detectDialect(appDir: string | undefined, files: ProjectFiles): { dialect: Dialect; source: string } {
  if (appDir) {
    for (const rel of LIBRARY_LOCATIONS) {
      const file = path.join(appDir, rel);
      const text = files.read(file, MAX_LIBRARY_BYTES);
      // Not there, or over MAX_LIBRARY_BYTES: the next place.
      const d = text === undefined ? undefined : dialectOfLibrarySource(text);
      if (d) return { dialect: d, source: `detected from ${files.shown(file)}` };
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

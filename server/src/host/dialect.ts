import { RE2JS } from 're2js';
import type { Dialect } from '../../../shared/library/route-library';

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

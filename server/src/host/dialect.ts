import type { Dialect } from '../../../shared/library/route-library';

/**
 * Tells the library version from its source: the two versions differ only in context()'s home
 * route, `"{$name}/{$options['home']}"` (spec) or `"{$options['home']}"` (Bonfire).
 */
export function dialectOfLibrarySource(source: string): Dialect | undefined {
  if (!/class\s+Route\b/i.test(source)) return undefined;
  // The home route: `self::any($name, <target>)` whose target mentions the 'home' option.
  const home = /self::any\s*\(\s*\$name\s*,\s*([^;]*home[^;]*)\)\s*;/.exec(source);
  if (!home) return undefined;
  return /\$name/.test(home[1]) ? 'spec' : 'bonfire';
}

/** Where applications keep the library, relative to the application folder. */
export const LIBRARY_LOCATIONS = [
  'libraries/Route.php',
  'third_party/Route.php',
  'core/Route.php',
  '../bonfire/libraries/Route.php',
  '../bonfire/application/libraries/Route.php',
];

import { dialectOfLibrarySource, MAX_LIBRARY_BYTES } from '../../shared/app/dialect';
import { ROUTE_API } from '../../shared/library/route-api';

/** Run in a deadline worker by dialect.test.ts: crafted text, just under the cap, for the home-route pattern. */
export function dialectOfCraftedText(): string {
  // The library's methods first: the home-route pattern is read only in a class that has them.
  const methods = Object.keys(ROUTE_API).map((n) => `public static function ${n}() {}`).join(' ');
  const crafted = `class Route { ${methods} ${'self::any($name, home'.repeat(Math.floor((MAX_LIBRARY_BYTES - 40 - methods.length) / 21))}`;
  return crafted.length <= MAX_LIBRARY_BYTES ? (dialectOfLibrarySource(crafted) ?? 'none') : 'too long';
}

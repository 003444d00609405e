import { dialectOfLibrarySource, MAX_LIBRARY_BYTES } from '../../shared/app/dialect';

/** Run in a deadline worker by dialect.test.ts: crafted text, just under the cap, for the home-route pattern. */
export function dialectOfCraftedText(): string {
  const crafted = `class Route ${'self::any($name, home'.repeat(Math.floor((MAX_LIBRARY_BYTES - 20) / 21))}`;
  return crafted.length <= MAX_LIBRARY_BYTES ? (dialectOfLibrarySource(crafted) ?? 'none') : 'too long';
}

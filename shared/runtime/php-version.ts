/** A PHP version, as far as the semantics route files meet differ (see EvaluateOptions.phpVersion). */
export interface PhpVersion {
  readonly major: number;
  readonly minor: number;
}

/** The version the conformance vectors were observed on, and the default. */
export const DEFAULT_PHP_VERSION: PhpVersion = { major: 8, minor: 2 };

/** `7.4`, `8`, `8.2.10` → a version; undefined for anything else (or a version before 5). */
export function parsePhpVersion(text: string): PhpVersion | undefined {
  const m = /^\s*(\d+)(?:\.(\d+))?(?:\.\d+)?\s*$/.exec(text);
  if (!m) return undefined;
  const major = Number(m[1]);
  if (major < 5 || major > 9) return undefined;
  return { major, minor: m[2] === undefined ? 0 : Number(m[2]) };
}

export function formatPhpVersion(v: PhpVersion): string {
  return `${v.major}.${v.minor}`;
}

/** PHP 8's stricter semantics: internal functions throw TypeError and ValueError, undefined constants are an Error. */
/** Whether `v` (the default version when not given) is `major.minor` or later. */
export function atLeast(v: PhpVersion | undefined, major: number, minor: number): boolean {
  const given = v ?? DEFAULT_PHP_VERSION;
  return given.major > major || (given.major === major && given.minor >= minor);
}

export function isPhp8(v: PhpVersion | undefined): boolean {
  return (v ?? DEFAULT_PHP_VERSION).major >= 8;
}

/**
 * The lowest version a composer.json `require.php` constraint allows (`>=7.2`, `^7.4 || ^8.0`,
 * `~5.6`, `7.4.*`): the version an application promises to run on, so the one whose semantics it
 * must survive. Undefined when the constraint names no version.
 */
export function lowestAllowed(constraint: string): PhpVersion | undefined {
  let lowest: PhpVersion | undefined;
  for (const m of constraint.matchAll(/(^|[\s|,^~>=])(\d+)(?:\.(\d+|\*))?/g)) {
    // `<8` or `!=7.1` bound from above or exclude: they name no version the app runs on.
    const before = constraint.slice(0, m.index + m[1].length).trimEnd();
    if (/(<|<=|!=)$/.test(before)) continue;
    const v = parsePhpVersion(`${m[2]}.${m[3] === undefined || m[3] === '*' ? 0 : m[3]}`);
    if (v && (!lowest || v.major < lowest.major || (v.major === lowest.major && v.minor < lowest.minor))) lowest = v;
  }
  return lowest;
}

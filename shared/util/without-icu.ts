/**
 * Counts and orderings for messages and lists, written without ICU: V8 maps ICU's data into the
 * process on first use (number formatting about 6 MB of RSS, the collator about 3 MB), for what
 * here is a comma or an ASCII ordering. The architecture tests keep `toLocaleString`,
 * `localeCompare` and `Intl` out of the engine and the server.
 */

/**
 * `12,345`: a count as messages write it. Not `toLocaleString('en-US')`, whose first call maps
 * ICU's number-formatting data into the process (about 6 MB of RSS, for a comma).
 */
export function withThousands(n: number): string {
  // As toLocaleString: at most three decimals, no exponent below 1e21 (past it, String's form).
  const size = Math.abs(n);
  const rounded = Number.isInteger(size) ? size : Math.round(size * 1000) / 1000;
  if (Number.isNaN(n) || (Number.isFinite(n) && rounded >= 1e21)) return String(n);
  if (!Number.isFinite(n)) return n < 0 ? '-∞' : '∞';
  const [whole, decimals] = String(rounded).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',') + (decimals ? `.${decimals}` : '');
  return n < 0 || Object.is(n, -0) ? `-${grouped}` : grouped;
}

/**
 * Orders strings by UTF-16 code units, as `<` does: for sorts that only need to be deterministic.
 * Not `localeCompare`, whose collator maps ICU's data into the process (about 3 MB of RSS).
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Orders strings for a reader without ICU's collator: case-insensitively, then lower case first
 * (`admin`, `Blog`, `blog`, `cart`), close to how `localeCompare` orders ASCII names and paths
 * (punctuation and digits by code unit).
 */
export function compareIgnoringCase(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : compareCodeUnits(b, a);
}

import { PhpFloat, Unknown, type Value } from './values';

/** What an integer past ±2^53 (and within PHP's 64 bits) is: JavaScript's numbers cannot hold it exactly. */
export function beyondExactIntegers(what: string): Unknown {
  return new Unknown(`${what} is an integer beyond ±2^53, which is not evaluated exactly`);
}

/** Converts a PHP numeric literal (decimal, hex, octal, binary, float; `_` separators) to a value. */
export function parseNumber(literal: string): Value {
  // A loop reads the same few literals on every iteration.
  const known = parsed.get(literal);
  if (known !== undefined) return known;
  const value = parseUncached(literal);
  if (parsed.size >= MAX_CACHED) parsed.clear();
  parsed.set(literal, value);
  return value;
}

const MAX_CACHED = 4096;
const parsed = new Map<string, Value>();

function parseUncached(literal: string): Value {
  const raw = literal.replace(/_/g, '');
  let n: number;
  if (/^0[xX][0-9a-fA-F]+$/.test(raw)) n = parseInt(raw.slice(2), 16);
  else if (/^0[bB][01]+$/.test(raw)) n = parseInt(raw.slice(2), 2);
  else if (/^0[oO]?[0-7]+$/.test(raw)) n = parseInt(raw.replace(/^0[oO]?/, ''), 8);
  else if (/^\d+$/.test(raw)) n = Number(raw);
  else return new PhpFloat(Number(raw));
  // Integers beyond PHP_INT_MAX become floats, as in PHP; those between 2^53 and it are not exact here.
  if (n > 9223372036854775807) return new PhpFloat(n);
  return Number.isSafeInteger(n) ? n : beyondExactIntegers(literal);
}

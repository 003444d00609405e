import { PhpFloat, type Value } from './values';

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
  // Integers beyond PHP_INT_MAX become floats, as in PHP.
  return n > 9223372036854775807 ? new PhpFloat(n) : n;
}

import { PhpFatal } from './convert';

/**
 * How many arguments each builtin takes in PHP 8 (its signature in the manual): fewer than the
 * minimum or more than the maximum throws ArgumentCountError before the function runs, so a
 * builtin never sees a missing required argument (`array_fill(0, 5)` would otherwise fill an
 * array with nothing at all).
 */
const ARITY: Readonly<Record<string, readonly [min: number, max: number]>> = {
  strtolower: [1, 1],
  strtoupper: [1, 1],
  ucfirst: [1, 1],
  lcfirst: [1, 1],
  ucwords: [1, 2],
  trim: [1, 2],
  ltrim: [1, 2],
  rtrim: [1, 2],
  chop: [1, 2],
  strlen: [1, 1],
  strrev: [1, 1],
  str_split: [1, 2],
  intdiv: [2, 2],
  str_repeat: [2, 2],
  str_pad: [2, 4],
  substr: [2, 3],
  strpos: [2, 3],
  str_contains: [2, 2],
  str_starts_with: [2, 2],
  str_ends_with: [2, 2],
  str_replace: [3, 4],
  sprintf: [1, Infinity],
  vsprintf: [2, 2],
  implode: [1, 2],
  join: [1, 2],
  explode: [2, 3],
  preg_quote: [1, 2],
  urlencode: [1, 1],
  rawurlencode: [1, 1],
  basename: [1, 2],
  dirname: [1, 2],
  count: [1, 2],
  sizeof: [1, 2],
  array_keys: [1, 3],
  array_values: [1, 1],
  array_reverse: [1, 2],
  array_merge: [0, Infinity],
  array_unique: [1, 2],
  array_flip: [1, 1],
  array_combine: [2, 2],
  array_key_exists: [2, 2],
  in_array: [2, 3],
  array_map: [2, Infinity],
  array_filter: [1, 3],
  array_fill: [3, 3],
  range: [2, 3],
  is_array: [1, 1],
  is_string: [1, 1],
  is_int: [1, 1],
  is_integer: [1, 1],
  is_float: [1, 1],
  is_bool: [1, 1],
  is_null: [1, 1],
  is_numeric: [1, 1],
  is_callable: [1, 3],
  intval: [1, 2],
  strval: [1, 1],
  boolval: [1, 1],
  abs: [1, 1],
  max: [1, Infinity],
  min: [1, Infinity],
};

/** The builtins with a known signature (every builtin must have one: a test holds it). */
export const BUILTINS_WITH_ARITY: ReadonlySet<string> = new Set(Object.keys(ARITY));

/** Throws PHP 8's ArgumentCountError when `given` arguments do not fit `name`'s signature. */
export function checkArity(name: string, given: number): void {
  const arity = ARITY[name];
  if (!arity) return;
  const [min, max] = arity;
  if (given >= min && given <= max) return;
  const bound = given < min ? min : max;
  const how = min === max ? 'exactly' : given < min ? 'at least' : 'at most';
  throw new PhpFatal('ArgumentCountError', `${name}() expects ${how} ${bound} argument${bound === 1 ? '' : 's'}, ${given} given`);
}

import { isNumericString, PhpFatal } from './convert';
import { isPhp8, type PhpVersion } from './php-version';
import { PhpArray, PhpClosure, PhpFloat, Unknown, typeName, type Value } from './values';

/**
 * The builtins' signatures as PHP 8.2's manual writes them: what ArgumentCountError and the
 * TypeErrors of internal functions are made of (`count(): Argument #1 ($value) must be of type
 * Countable|array, null given`). Parameter types are checked as PHP does in coercive mode.
 */
const SIGNATURES: Readonly<Record<string, string>> = {
  strtolower: 'string $string',
  strtoupper: 'string $string',
  ucfirst: 'string $string',
  lcfirst: 'string $string',
  ucwords: 'string $string, string $separators = ""',
  trim: 'string $string, string $characters = ""',
  ltrim: 'string $string, string $characters = ""',
  rtrim: 'string $string, string $characters = ""',
  chop: 'string $string, string $characters = ""',
  strlen: 'string $string',
  strrev: 'string $string',
  str_split: 'string $string, int $length = 1',
  intdiv: 'int $num1, int $num2',
  str_repeat: 'string $string, int $times',
  str_pad: 'string $string, int $length, string $pad_string = " ", int $pad_type = 1',
  substr: 'string $string, int $offset, ?int $length = null',
  strpos: 'string $haystack, string $needle, int $offset = 0',
  str_contains: 'string $haystack, string $needle',
  str_starts_with: 'string $haystack, string $needle',
  str_ends_with: 'string $haystack, string $needle',
  str_replace: 'array|string $search, array|string $replace, string|array $subject, mixed &$count = null',
  sprintf: 'string $format, mixed ...$values',
  vsprintf: 'string $format, array $values',
  // Its two orders are checked by implode() itself.
  implode: 'mixed $separator, mixed $array = null',
  join: 'mixed $separator, mixed $array = null',
  explode: 'string $separator, string $string, int $limit = 0',
  preg_quote: 'string $str, ?string $delimiter = null',
  urlencode: 'string $string',
  rawurlencode: 'string $string',
  basename: 'string $path, string $suffix = ""',
  dirname: 'string $path, int $levels = 1',
  count: 'Countable|array $value, int $mode = 0',
  sizeof: 'Countable|array $value, int $mode = 0',
  array_keys: 'array $array, mixed $filter_value = null, bool $strict = false',
  array_values: 'array $array',
  array_reverse: 'array $array, bool $preserve_keys = false',
  array_merge: 'array ...$arrays',
  array_unique: 'array $array, int $flags = 2',
  array_flip: 'array $array',
  array_combine: 'array $keys, array $values',
  array_key_exists: 'mixed $key, array $array',
  in_array: 'mixed $needle, array $haystack, bool $strict = false',
  array_map: '?callable $callback, array $array, array ...$arrays',
  array_filter: 'array $array, ?callable $callback = null, int $mode = 0',
  array_fill: 'int $start_index, int $count, mixed $value',
  range: 'mixed $start, mixed $end, int|float $step = 1',
  is_array: 'mixed $value',
  is_string: 'mixed $value',
  is_int: 'mixed $value',
  is_integer: 'mixed $value',
  is_float: 'mixed $value',
  is_bool: 'mixed $value',
  is_null: 'mixed $value',
  is_numeric: 'mixed $value',
  is_callable: 'mixed $value, bool $syntax_only = false, mixed &$callable_name = null',
  intval: 'mixed $value, int $base = 10',
  strval: 'mixed $value',
  boolval: 'mixed $value',
  abs: 'int|float $num',
  max: 'mixed $value, mixed ...$values',
  min: 'mixed $value, mixed ...$values',
};

interface Param {
  name: string;
  /** As written (for messages): `?array`, `Countable|array`… */
  type: string;
  /** The kinds of value it takes (see KIND), read once from `type`. */
  kinds: number;
  optional: boolean;
  variadic: boolean;
}

/** Kinds of parameter type, as bits. */
const KIND = { array: 1, string: 2, bool: 4, int: 8, float: 16, mixed: 32, callable: 64, null: 128 } as const;

function kindsOf(type: string): number {
  let kinds = type.startsWith('?') ? KIND.null : 0;
  for (const t of type.replace(/^\?/, '').split('|')) {
    if (t === 'Countable' || t === 'array') kinds |= KIND.array;
    else if (t in KIND) kinds |= KIND[t as keyof typeof KIND];
    else kinds |= KIND.mixed; // a type not modelled is not checked
  }
  return kinds;
}

function parse(signature: string): Param[] {
  return signature.split(', ').map((p) => {
    const m = /^(\S+) (&?)(\.\.\.)?\$(\w+)( = .*)?$/.exec(p);
    if (!m) throw new Error(`bad signature part: ${p}`);
    return { type: m[1], kinds: kindsOf(m[1]), name: m[4], variadic: m[3] !== undefined, optional: m[5] !== undefined || m[3] !== undefined };
  });
}

const PARSED = new Map(Object.entries(SIGNATURES).map(([name, sig]) => [name, parse(sig)] as const));

/** The builtins with a known signature (every builtin must have one: a test holds it). */
export const BUILTINS_WITH_SIGNATURE: ReadonlySet<string> = new Set(PARSED.keys());

const ARITY = new Map([...PARSED].map(([name, params]) => [name, [params.filter((p) => !p.optional).length, params.some((p) => p.variadic) ? Infinity : params.length] as const]));

/** How many arguments a builtin takes: [min, max]. */
export function arityOf(name: string): readonly [number, number] | undefined {
  return ARITY.get(name);
}


/** Numeric strings longer than this are not looked at (the builtin runs, as it would on PHP 7). */
const MAX_CHECKED_STRING = 4096;

/** Whether PHP's coercive mode takes `v` for a parameter of these kinds (undefined: not checked). */
function accepts(kinds: number, v: Value): boolean | undefined {
  if (kinds & KIND.mixed || v instanceof Unknown) return true;
  if (v === null) return (kinds & (KIND.null | KIND.string | KIND.bool | KIND.int | KIND.float)) !== 0; // a deprecation on 8.1, not an error
  if (v instanceof PhpArray) return (kinds & KIND.array) !== 0 || (kinds & KIND.callable ? undefined : false);
  if (v instanceof PhpClosure) return kinds & KIND.callable ? undefined : false;
  // A function's name ('strtolower') or 'Class::method' is a callable: the call says whether it names one.
  if (typeof v === 'string' && kinds & KIND.callable) return undefined;
  if (typeof v === 'string') {
    if (kinds & (KIND.string | KIND.bool)) return true;
    if (!(kinds & (KIND.int | KIND.float))) return false;
    return v.length > MAX_CHECKED_STRING ? undefined : isNumericString(v);
  }
  if (typeof v === 'number' || typeof v === 'boolean' || v instanceof PhpFloat) return (kinds & (KIND.string | KIND.bool | KIND.int | KIND.float)) !== 0;
  return undefined;
}

/**
 * Checks a builtin's arguments against its signature before it runs. PHP 8 throws
 * ArgumentCountError and TypeError; PHP 7 warned and returned null for a wrong type (the
 * function then does not run: `null` is returned here), and threw ArgumentCountError only for
 * too few arguments to user functions (internal ones warned too).
 */
export function checkArguments(name: string, args: readonly Value[], version: PhpVersion | undefined, warn: (message: string) => void): { result: Value } | undefined {
  const params = PARSED.get(name);
  if (!params) return undefined;
  const [min, max] = ARITY.get(name)!;
  if (args.length < min || args.length > max) {
    const bound = args.length < min ? min : max;
    const how = min === max ? 'exactly' : args.length < min ? 'at least' : 'at most';
    const message = `${name}() expects ${how} ${bound} argument${bound === 1 ? '' : 's'}, ${args.length} given`;
    if (isPhp8(version)) throw new PhpFatal('ArgumentCountError', message);
    warn(`${name}() expects ${how} ${bound} parameter${bound === 1 ? '' : 's'}, ${args.length} given`);
    return { result: null };
  }
  for (let i = 0; i < args.length; i++) {
    const p = params[Math.min(i, params.length - 1)];
    if (accepts(p.kinds, args[i]) !== false) continue;
    const given = typeName(args[i]);
    if (isPhp8(version)) throw new PhpFatal('TypeError', `${name}(): Argument #${i + 1} ($${p.name}) must be of type ${p.type}, ${given} given`);
    // PHP 7.2's count() of what is not countable: a warning, and 0 for null, 1 for anything else.
    if ((name === 'count' || name === 'sizeof') && i === 0) {
      warn(`${name}(): Parameter must be an array or an object that implements Countable`);
      return { result: args[0] === null ? 0 : 1 };
    }
    warn(`${name}() expects parameter ${i + 1} to be ${p.type.replace(/^\?/, '')}, ${given} given`);
    return { result: null };
  }
  return undefined;
}

import { checkArguments } from './builtin-signatures';
import { isPhp8, type PhpVersion } from './php-version';
import { PhpFatal, floatToString, isNumericString, looseEquals, strictEquals, toBool, toInt, toKey, toNumber, toPhpString, type WarningSink } from './convert';
import { PhpArray, PhpClosure, PhpFloat, Unknown, shareValue, typeName, type Value } from './values';
import { ENTRY_UNITS, checkArrayEntries, checkResult, checkStringLength, unitsOf, type WorkMeter } from './work-meter';

/**
 * What a builtin may ask of the evaluator. callBuiltin charges the meter for the arguments and
 * the result; a builtin whose result may be far larger than its arguments checks its size first.
 */
export interface BuiltinContext extends WarningSink, WorkMeter {
  /** Calls a PHP callable with arguments and returns its result. */
  call(callable: Value, args: Value[]): Value;
  /** Whether a string names a function PHP can call (a builtin or one the file declares); undefined when not known. */
  isFunction(name: string): boolean | undefined;
  /** The PHP version whose semantics apply (default: DEFAULT_PHP_VERSION). */
  readonly phpVersion?: PhpVersion;
}

type Builtin = (args: Value[], ctx: BuiltinContext) => Value;

/**
 * Units the builtin being called has already paid for (see willBuildString): its result is
 * charged only for the rest. Saved and restored around each call, as builtins call callbacks.
 */
let prepaid = 0;

/**
 * Before an amplifying builtin builds a string: refuses one past the cap and pays for it now,
 * so that the step budget stops the call before the work is done rather than after it (a
 * statement with a syntax error has 2,000 steps: `range(1, 100000)` must not be built first).
 */
function willBuildString(length: number, what: string, meter: WorkMeter): void {
  checkStringLength(length, what);
  meter.charge(length);
  prepaid += length;
}

/** willBuildString for an array of `entries` entries. */
function willBuildArray(entries: number, what: string, meter: WorkMeter): void {
  checkArrayEntries(entries, what);
  meter.charge(entries * ENTRY_UNITS);
  prepaid += entries * ENTRY_UNITS;
}

class UnknownArgument extends Error {
  constructor(
    readonly value: Unknown,
    /** The result itself cannot be known (not an argument): its reason is the whole story. */
    readonly ofResult = false,
  ) {
    super(value.reason);
  }
}

function str(v: Value | undefined, ctx: BuiltinContext): string {
  const s = toPhpString(v ?? null, ctx);
  if (s instanceof Unknown) throw new UnknownArgument(s);
  return s;
}

function int(v: Value | undefined): number {
  const n = toInt(v ?? null);
  if (n instanceof Unknown) throw new UnknownArgument(n);
  return n;
}

function arr(v: Value | undefined, fn: string, pos: number): PhpArray {
  if (v instanceof PhpArray) return v;
  if (v instanceof Unknown) throw new UnknownArgument(v);
  throw new PhpFatal('TypeError', `${fn}(): Argument #${pos} must be of type array, ${typeName(v ?? null)} given`);
}

/**
 * A ValueError (PHP 8) where PHP 7 warned and returned `php7Result`: the arguments the function
 * refuses are the same, the way it refuses them changed.
 */
function refuse(ctx: BuiltinContext, message: string, php7Warning: string, php7Result: Value): Value {
  if (isPhp8(ctx.phpVersion)) throw new PhpFatal('ValueError', message);
  ctx.warn(php7Warning);
  return php7Result;
}

const UTF8 = new TextEncoder();
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** PHP's strings are bytes: a string of one char per UTF-8 byte (ASCII strings are their own). */
function bytes(s: string): string {
  if (isAscii(s)) return s;
  let out = '';
  for (const b of UTF8.encode(s)) out += String.fromCharCode(b);
  return out;
}

function isAscii(s: string): boolean {
  return /^[\x00-\x7f]*$/.test(s);
}

/** A byte string back to text; a result that cuts a character in two is not valid UTF-8 and is not evaluated. */
function text(b: string, what: string): string {
  if (isAscii(b)) return b;
  const arr = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) arr[i] = b.charCodeAt(i);
  try {
    return STRICT_UTF8.decode(arr);
  } catch {
    throw new UnknownArgument(new Unknown(`${what} cuts a multi-byte character: its bytes are not valid UTF-8`), true);
  }
}

/** Expands `a..z` ranges in trim()'s character list. */
function charList(chars: string): Set<string> {
  const set = new Set<string>();
  for (let i = 0; i < chars.length; i++) {
    if (chars[i + 1] === '.' && chars[i + 2] === '.' && i + 3 < chars.length) {
      for (let c = chars.charCodeAt(i); c <= chars.charCodeAt(i + 3); c++) set.add(String.fromCharCode(c));
      i += 3;
    } else {
      set.add(chars[i]);
    }
  }
  return set;
}

/** PHP 8.2's case mapping is locale-insensitive: only ASCII letters change (`strtolower('Ä')` is `'Ä'`). */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}
function asciiUpper(s: string): string {
  return s.replace(/[a-z]+/g, (m) => m.toUpperCase());
}

const DEFAULT_TRIM = ' \t\n\r\0\x0B';

function trimWith(s: string, chars: string, left: boolean, right: boolean): string {
  const set = charList(chars);
  let a = 0;
  let b = s.length;
  if (left) while (a < b && set.has(s[a])) a++;
  if (right) while (b > a && set.has(s[b - 1])) b--;
  return s.slice(a, b);
}

/**
 * `%.{p}f` as PHP prints it: the double's exact decimal value rounded to `p` digits, an exact tie
 * to the even digit (`sprintf('%.0f', 0.5)` is `0`, `2.5` gives `2`), where toFixed() rounds up.
 */
function fixedAsPhp(f: number, p: number): string {
  const up = f.toFixed(p);
  if (!Number.isFinite(f) || p > 40) return up;
  // The exact expansion (toFixed is exact up to 100 digits): a tie is a 5 followed by zeros.
  const exact = Math.abs(f).toFixed(Math.min(100, p + 60));
  const point = exact.indexOf('.');
  const rest = exact.slice(point + 1 + p);
  if (!/^50*$/.test(rest)) return up;
  const kept = p === 0 ? exact.slice(0, point) : exact.slice(0, point + 1 + p);
  const lastDigit = Number(kept[kept.length - 1]);
  if (lastDigit % 2 === 1) return up;
  // Already even: the tie stays down (toFixed went up).
  return `${f < 0 ? '-' : ''}${kept}`;
}

function sprintf(format: string, args: Value[], ctx: BuiltinContext): string {
  let next = 0;
  // The result so far, checked as each conversion is made: a width repeated builds megabytes.
  let total = format.length;
  return format.replace(/%(?:(\d+)\$)?([-+ 0]|'.)*(\d+)?(?:\.(\d+))?([%bcdeEfFgGosuxX])/g, (whole, argnum: string | undefined, _flag, width: string | undefined, precision: string | undefined, conv: string) => {
    if (conv === '%') return '%';
    const flags = whole.slice(1).match(/^(?:\d+\$)?((?:[-+ 0]|'.)*)/)?.[1] ?? '';
    const idx = argnum ? Number(argnum) - 1 : next++;
    if (idx >= args.length) throw new PhpFatal('ArgumentCountError', `${idx + 2} arguments are required, ${args.length + 1} given`);
    const v = args[idx];
    let out: string;
    switch (conv) {
      case 'd': {
        const n = int(v);
        out = (flags.includes('+') && n >= 0 ? '+' : '') + String(n);
        break;
      }
      case 'u':
        // A 64-bit PHP integer read unsigned: -1 is 18446744073709551615.
        out = BigInt.asUintN(64, BigInt(int(v))).toString();
        break;
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G': {
        const num = toNumber(v, ctx);
        if (num instanceof Unknown) throw new UnknownArgument(num);
        const f = num instanceof PhpFloat ? num.value : num;
        // PHP truncates a larger precision to 53 digits (with a notice).
        const p = precision === undefined ? 6 : Math.min(Number(precision), 53);
        out = conv === 'f' || conv === 'F' ? fixedAsPhp(f, p) : conv === 'e' || conv === 'E' ? f.toExponential(p).replace('e', conv) : floatToString(f);
        break;
      }
      case 'x':
        out = BigInt.asUintN(64, BigInt(int(v))).toString(16);
        break;
      case 'X':
        out = BigInt.asUintN(64, BigInt(int(v))).toString(16).toUpperCase();
        break;
      case 'o':
        out = BigInt.asUintN(64, BigInt(int(v))).toString(8);
        break;
      case 'b':
        out = (int(v) >>> 0).toString(2);
        break;
      case 'c':
        out = String.fromCharCode(int(v));
        break;
      default: {
        out = str(v, ctx);
        if (precision !== undefined) out = out.slice(0, Number(precision));
      }
    }
    total += Math.max(out.length, width === undefined ? 0 : Number(width));
    willBuildString(total, 'sprintf()', ctx);
    ctx.charge(out.length + (width === undefined ? 0 : Number(width)));
    if (width !== undefined && out.length < Number(width)) {
      const padChar = flags.includes("'") ? flags[flags.indexOf("'") + 1] : flags.includes('0') ? '0' : ' ';
      out = flags.includes('-') ? out.padEnd(Number(width), padChar === '0' ? ' ' : padChar) : out.padStart(Number(width), padChar);
    }
    return out;
  });
}

function strReplace(search: Value, replace: Value, subject: Value, ctx: BuiltinContext): Value {
  if (subject instanceof PhpArray) {
    const out = new PhpArray();
    for (const [k, v] of subject.entries()) out.set(k, v instanceof PhpArray ? shareValue(v) : strReplace(search, replace, v, ctx));
    return out;
  }
  let s = str(subject, ctx);
  const searches = search instanceof PhpArray ? [...search.values()].map((v) => str(v, ctx)) : [str(search, ctx)];
  const replaces = replace instanceof PhpArray ? [...replace.values()].map((v) => str(v, ctx)) : undefined;
  searches.forEach((needle, i) => {
    if (needle === '') return;
    const rep = replaces ? (replaces[i] ?? '') : str(replace, ctx);
    const found = occurrences(s, needle);
    willBuildString(s.length + found * (rep.length - needle.length), 'str_replace()', ctx);
    ctx.charge(s.length + found * rep.length);
    if (found > 0) s = s.split(needle).join(rep);
  });
  return s;
}

/** How many times `needle` (not empty) occurs in `s`, without building the pieces. */
function occurrences(s: string, needle: string): number {
  let found = 0;
  for (let at = s.indexOf(needle); at >= 0; at = s.indexOf(needle, at + needle.length)) found++;
  return found;
}

/** The UTF-8 length of a string, as PHP's strlen() counts the bytes of its strings. */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      n += 1; // a surrogate pair (2 units) is 4 bytes
      i++;
    } else if (c >= 0x800) n += 2;
    else if (c >= 0x80) n += 1;
  }
  return n;
}

function range(start: Value, end: Value, step: Value | undefined, ctx: BuiltinContext): Value {
  const st0 = Math.abs(step === undefined ? 1 : int(step));
  const numbers = !(typeof start === 'string' && typeof end === 'string' && start !== '' && end !== '' && !isNumericString(start) && !isNumericString(end));
  const span = numbers ? Math.abs(int(end) - int(start)) : Math.abs(String(end).charCodeAt(0) - String(start).charCodeAt(0));
  if (st0 === 0 || (span !== 0 && st0 > span)) {
    const refused = refuse(ctx, 'range(): Argument #3 ($step) must not exceed the specified range', 'range(): step exceeds the specified range', false);
    if (refused === false) return false;
  }
  // Two non-numeric strings: a range of their first characters (`range('a', 'e', 2)` is a, c, e).
  if (typeof start === 'string' && typeof end === 'string' && start !== '' && end !== '' && !isNumericString(start) && !isNumericString(end)) {
    const from = start.charCodeAt(0);
    const to = end.charCodeAt(0);
    const st = Math.abs(step === undefined ? 1 : int(step)) || 1;
    willBuildArray(Math.floor(Math.abs(to - from) / st) + 1, 'range()', ctx);
    const letters = new PhpArray();
    if (from <= to) for (let i = from; i <= to; i += st) letters.append(String.fromCharCode(i));
    else for (let i = from; i >= to; i -= st) letters.append(String.fromCharCode(i));
    return letters;
  }
  const a = int(start);
  const b = int(end);
  const st = Math.abs(step === undefined ? 1 : int(step)) || 1;
  willBuildArray(Math.floor(Math.abs(b - a) / st) + 1, 'range()', ctx);
  const out = new PhpArray();
  if (a <= b) for (let i = a; i <= b; i += st) out.append(i);
  else for (let i = a; i >= b; i -= st) out.append(i);
  return out;
}

const BUILTINS: Record<string, Builtin> = {
  strtolower: ([s], c) => asciiLower(str(s, c)),
  strtoupper: ([s], c) => asciiUpper(str(s, c)),
  ucfirst: ([s], c) => {
    const v = str(s, c);
    return asciiUpper(v.charAt(0)) + v.slice(1);
  },
  lcfirst: ([s], c) => {
    const v = str(s, c);
    return asciiLower(v.charAt(0)) + v.slice(1);
  },
  ucwords: ([s, delimiters], c) => {
    const text = str(s, c);
    const between = delimiters === undefined ? ' \t\r\n\f\v' : str(delimiters, c);
    let out = '';
    for (let i = 0; i < text.length; i++) out += i === 0 || between.includes(text[i - 1]!) ? asciiUpper(text[i]!) : text[i];
    return out;
  },
  trim: ([s, chars], c) => trimWith(str(s, c), chars === undefined ? DEFAULT_TRIM : str(chars, c), true, true),
  ltrim: ([s, chars], c) => trimWith(str(s, c), chars === undefined ? DEFAULT_TRIM : str(chars, c), true, false),
  rtrim: ([s, chars], c) => trimWith(str(s, c), chars === undefined ? DEFAULT_TRIM : str(chars, c), false, true),
  chop: (a, c) => BUILTINS.rtrim(a, c),
  // PHP counts bytes: 'ünï' is 5.
  strlen: ([s], c) => utf8Length(str(s, c)),
  // PHP reverses bytes: a multi-byte character comes out broken (not evaluated).
  strrev: ([s], c) => text([...bytes(str(s, c))].reverse().join(''), 'strrev()'),
  str_split: ([s, length], c) => {
    const b = bytes(str(s, c));
    const n = length === undefined ? 1 : int(length);
    if (n < 1) throw new PhpFatal('ValueError', 'str_split(): Argument #2 ($length) must be greater than 0');
    willBuildArray(Math.ceil(b.length / n), 'str_split()', c);
    const out = new PhpArray();
    // PHP 8.2: an empty string gives an empty array. Chunks are of bytes.
    for (let i = 0; i < b.length; i += n) out.append(text(b.slice(i, i + n), 'str_split()'));
    return out;
  },
  intdiv: ([a, b]) => {
    const x = int(a);
    const y = int(b);
    if (y === 0) throw new PhpFatal('DivisionByZeroError', 'Division by zero');
    return Math.trunc(x / y);
  },
  str_repeat: ([s, n], c) => {
    const times = int(n);
    if (times < 0) return refuse(c, 'str_repeat(): Argument #2 ($times) must be greater than or equal to 0', 'str_repeat(): Second argument has to be greater than or equal to 0', null);
    willBuildString(times * str(s, c).length, 'str_repeat()', c);
    return str(s, c).repeat(times);
  },
  str_pad: ([s, len, pad, type], c) => {
    // Lengths are in bytes ('ü' is 2).
    const v = bytes(str(s, c));
    const n = int(len);
    const p = pad === undefined ? ' ' : bytes(str(pad, c));
    const t = type === undefined ? 1 : int(type);
    // Nothing to pad: the pad string is never looked at.
    if (n <= v.length) return v;
    if (p === '') return refuse(c, 'str_pad(): Argument #3 ($pad_string) must be a non-empty string', 'str_pad(): Padding string cannot be empty', null);
    willBuildString(n, 'str_pad()', c);
    if (t === 0) return text(v.padStart(n, p), 'str_pad()');
    if (t === 2) {
      const total = n - v.length;
      const left = Math.floor(total / 2);
      return text(''.padStart(left, p) + v + ''.padStart(total - left, p), 'str_pad()');
    }
    return text(v.padEnd(n, p), 'str_pad()');
  },
  substr: ([s, start, length], c) => text(substrBytes(bytes(str(s, c)), start, length), 'substr()'),
  strpos: ([h, n, off], c) => {
    // Offsets are in bytes.
    const haystack = bytes(str(h, c));
    let from = off === undefined ? 0 : int(off);
    if (from > haystack.length || from < -haystack.length) {
      return refuse(c, 'strpos(): Argument #3 ($offset) must be contained in argument #1 ($haystack)', 'strpos(): Offset not contained in string', false);
    }
    if (from < 0) from += haystack.length;
    const i = haystack.indexOf(bytes(str(n, c)), from);
    return i < 0 ? false : i;
  },
  str_contains: ([h, n], c) => str(h, c).includes(str(n, c)),
  str_starts_with: ([h, n], c) => str(h, c).startsWith(str(n, c)),
  str_ends_with: ([h, n], c) => str(h, c).endsWith(str(n, c)),
  str_replace: ([search, replace, subject], c) => strReplace(search, replace, subject, c),
  sprintf: ([f, ...rest], c) => sprintf(str(f, c), rest, c),
  vsprintf: ([f, a], c) => sprintf(str(f, c), [...arr(a, 'vsprintf', 2).values()], c),
  implode: ([glue, pieces], c) => {
    if (glue instanceof PhpArray) {
      // implode($array, $glue): the legacy order, gone in PHP 8.
      if (pieces !== undefined && pieces !== null && isPhp8(c.phpVersion)) throw new PhpFatal('TypeError', `implode(): Argument #2 ($array) must be of type ?array, ${typeName(pieces)} given`);
      return joined([...glue.values()].map((v) => str(v, c)), pieces === undefined || pieces === null ? '' : str(pieces, c), c);
    }
    if (pieces === undefined || pieces === null) {
      // PHP reads a lone non-array argument as the separator (a string) and reports it so.
      if (isPhp8(c.phpVersion)) throw new PhpFatal('TypeError', 'implode(): Argument #1 ($array) must be of type array, string given');
      c.warn('implode(): Argument must be an array');
      return null;
    }
    if (!(pieces instanceof PhpArray) && isPhp8(c.phpVersion)) throw new PhpFatal('TypeError', `implode(): Argument #2 ($array) must be of type ?array, ${typeName(pieces)} given`);
    return joined([...arr(pieces, 'implode', 2).values()].map((v) => str(v, c)), str(glue, c), c);
  },
  join: (a, c) => BUILTINS.implode(a, c),
  explode: ([sep, s, limit], c) => {
    const d = str(sep, c);
    if (d === '') return refuse(c, 'explode(): Argument #1 ($separator) cannot be empty', 'explode(): Empty delimiter', false);
    const subject = str(s, c);
    willBuildArray(occurrences(subject, d) + 1, 'explode()', c);
    let parts = subject.split(d);
    if (limit !== undefined) {
      const l = int(limit);
      if (l > 0 && parts.length > l) parts = [...parts.slice(0, l - 1), parts.slice(l - 1).join(d)];
      else if (l < 0) parts = parts.slice(0, l);
      else if (l === 0 && parts.length > 1) parts = [parts.join(d)];
    }
    return PhpArray.fromList(parts);
  },
  preg_quote: ([s, delim], c) => {
    const d = delim === undefined || delim === null ? '' : str(delim, c);
    return str(s, c).replace(/[.\\+*?[^\]$(){}=!<>|:\-#/]/g, (ch) => (ch === '/' && !d.includes('/') ? ch : `\\${ch}`)).replace(/\0/g, '\\000');
  },
  urlencode: ([s], c) => encodeURIComponent(str(s, c)).replace(/%20/g, '+').replace(/[!'()*~]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`),
  rawurlencode: ([s], c) => encodeURIComponent(str(s, c)).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`),
  basename: ([s, suffix], c) => {
    const base = str(s, c).replace(/\/+$/, '').split('/').pop() ?? '';
    const cut = suffix === undefined ? '' : str(suffix, c);
    return cut !== '' && base !== cut && base.endsWith(cut) ? base.slice(0, -cut.length) : base;
  },
  dirname: ([s, levels], c) => {
    const n = levels === undefined ? 1 : int(levels);
    if (n < 1) throw new PhpFatal('ValueError', 'dirname(): Argument #2 ($levels) must be greater than or equal to 1');
    let path = str(s, c);
    // As PHP: each level up while the path still gets shorter.
    for (let left = n; left > 0; left--) {
      const up = dirnameOnce(path);
      const shorter = up.length < path.length;
      path = up;
      if (!shorter) break;
    }
    return path;
  },
  count: ([a]) => arr(a, 'count', 1).size,
  sizeof: ([a]) => arr(a, 'sizeof', 1).size,
  array_keys: ([a, filter, strict], c) => {
    const src = arr(a, 'array_keys', 1);
    if (filter === undefined) return PhpArray.fromList([...src.keys()]);
    const keys = [];
    const isStrict = toBool(strict ?? false) === true;
    for (const [k, v] of src.entries()) if (equalsAsPhp(filter, v, isStrict, c)) keys.push(k);
    return PhpArray.fromList(keys);
  },
  array_values: ([a]) => PhpArray.fromList([...arr(a, 'array_values', 1).values()].map(shareValue)),
  array_reverse: ([a, keep]) => {
    const src = arr(a, 'array_reverse', 1);
    const out = new PhpArray();
    for (const [k, v] of [...src.entries()].reverse()) {
      if (typeof k === 'number' && !toBool(keep ?? false)) out.append(shareValue(v));
      else out.set(k, shareValue(v));
    }
    return out;
  },
  array_merge: (args, c) => {
    willBuildArray(args.reduce((n: number, a) => n + (a instanceof PhpArray ? a.size : 0), 0), 'array_merge()', c);
    const out = new PhpArray();
    args.forEach((a, i) => {
      for (const [k, v] of arr(a, 'array_merge', i + 1).entries()) {
        if (typeof k === 'number') out.append(shareValue(v));
        else out.set(k, shareValue(v));
      }
    });
    return out;
  },
  array_unique: ([a], c) => {
    const out = new PhpArray();
    const seen = new Set<string>();
    for (const [k, v] of arr(a, 'array_unique', 1).entries()) {
      const s = str(v, c);
      if (!seen.has(s)) {
        seen.add(s);
        out.set(k, shareValue(v));
      }
    }
    return out;
  },
  array_flip: ([a]) => {
    const out = new PhpArray();
    for (const [k, v] of arr(a, 'array_flip', 1).entries()) {
      const key = toKey(v);
      if (key instanceof Unknown) throw new UnknownArgument(key);
      out.set(key, k);
    }
    return out;
  },
  array_combine: ([ks, vs]) => {
    const keys = [...arr(ks, 'array_combine', 1).values()];
    const values = [...arr(vs, 'array_combine', 2).values()];
    if (keys.length !== values.length) throw new PhpFatal('ValueError', 'array_combine(): Argument #1 ($keys) and argument #2 ($values) must have the same number of elements');
    const out = new PhpArray();
    keys.forEach((k, i) => {
      const key = toKey(k);
      if (key instanceof Unknown) throw new UnknownArgument(key);
      out.set(key, shareValue(values[i]));
    });
    return out;
  },
  array_key_exists: ([k, a]) => {
    const key = toKey(k);
    if (key instanceof Unknown) throw new UnknownArgument(key);
    return arr(a, 'array_key_exists', 2).has(key);
  },
  in_array: ([needle, hay, strict], c) => {
    const isStrict = toBool(strict ?? false) === true;
    for (const v of arr(hay, 'in_array', 2).values()) if (equalsAsPhp(needle, v, isStrict, c)) return true;
    return false;
  },
  array_map: ([fn, ...arrays], c) => {
    const first = arr(arrays[0], 'array_map', 2);
    const out = new PhpArray();
    if (arrays.length === 1) {
      for (const [k, v] of first.entries()) out.set(k, fn === null ? shareValue(v) : c.call(fn, [v]));
      return out;
    }
    const lists = arrays.map((a, i) => [...arr(a, 'array_map', i + 2).values()]);
    const n = Math.max(...lists.map((l) => l.length));
    for (let i = 0; i < n; i++) out.append(c.call(fn, lists.map((l) => l[i] ?? null)));
    return out;
  },
  array_filter: ([a, fn, mode], c) => {
    const out = new PhpArray();
    // ARRAY_FILTER_USE_KEY (2): the callback gets the key; ARRAY_FILTER_USE_BOTH (1): the value and the key.
    const m = mode === undefined ? 0 : int(mode);
    for (const [k, v] of arr(a, 'array_filter', 1).entries()) {
      const keep = toBool(fn === undefined || fn === null ? v : c.call(fn, m === 2 ? [k] : m === 1 ? [v, k] : [v]));
      if (keep === undefined) throw new UnknownArgument(new Unknown('filter result unknown'));
      if (keep) out.set(k, shareValue(v));
    }
    return out;
  },
  array_fill: ([start, num, value], c) => {
    const out = new PhpArray();
    const s = int(start);
    const n = int(num);
    if (n < 0) return refuse(c, 'array_fill(): Argument #2 ($count) must be greater than or equal to 0', "array_fill(): Number of elements can't be negative", false);
    willBuildArray(n, 'array_fill()', c);
    for (let i = 0; i < n; i++) out.set(s + i, shareValue(value));
    return out;
  },
  range: ([a, b, step], c) => range(a, b, step, c),
  is_array: ([v]) => v instanceof PhpArray,
  is_string: ([v]) => typeof v === 'string',
  is_int: ([v]) => typeof v === 'number',
  is_integer: ([v]) => typeof v === 'number',
  is_float: ([v]) => v instanceof PhpFloat,
  is_bool: ([v]) => typeof v === 'boolean',
  is_null: ([v]) => v === null,
  is_numeric: ([v]) => typeof v === 'number' || v instanceof PhpFloat || (typeof v === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(v)),
  is_callable: ([v], c) => {
    if (v instanceof PhpClosure) return true;
    if (typeof v === 'string') {
      const known = c.isFunction(v.replace(/^\\/, ''));
      if (known === undefined) throw new UnknownArgument(new Unknown(`whether ${v}() exists (a helper CodeIgniter loads, say) is not known`));
      return known;
    }
    if (v instanceof PhpArray) throw new UnknownArgument(new Unknown('whether an array names a callable method is not known'));
    return false;
  },
  intval: ([v, base]) => {
    // Other bases read strings in that base: not evaluated.
    if (base !== undefined && !(int(base) === 10 || typeof v !== 'string')) throw new UnknownArgument(new Unknown('intval() in a base other than 10 is not evaluated'));
    return int(v);
  },
  strval: ([v], c) => str(v, c),
  boolval: ([v]) => {
    const b = toBool(v ?? null);
    if (b === undefined) throw new UnknownArgument(new Unknown('unknown value'));
    return b;
  },
  abs: ([v], c) => {
    const n = toNumber(v ?? null, c);
    if (n instanceof Unknown) throw new UnknownArgument(n);
    return n instanceof PhpFloat ? new PhpFloat(Math.abs(n.value)) : Math.abs(n);
  },
  max: (args, c) => pick('max', args, (a, b) => a > b, c),
  min: (args, c) => pick('min', args, (a, b) => a < b, c),
};

/** `==` (or `===` when strict) as in_array() and array_keys() compare; an unknown answer makes the result unknown. */
function equalsAsPhp(a: Value, b: Value, strict: boolean, ctx: BuiltinContext): boolean {
  const eq = strict ? strictEquals(a, b, ctx) : looseEquals(a, b, ctx);
  if (eq === undefined) throw new UnknownArgument(new Unknown('comparison with an unknown value'));
  return eq;
}

/** PHP's dirname() of a Unix path, one level up. */
function dirnameOnce(path: string): string {
  if (path === '') return '';
  let end = path.length - 1;
  while (end >= 0 && path[end] === '/') end--;
  if (end < 0) return '/';
  while (end >= 0 && path[end] !== '/') end--;
  if (end < 0) return '.';
  while (end >= 0 && path[end] === '/') end--;
  if (end < 0) return '/';
  return path.slice(0, end + 1);
}

/** substr() over a byte string. */
function substrBytes(v: string, start: Value, length: Value | undefined): string {
  let a = int(start);
  if (a < 0) a = Math.max(0, v.length + a);
  if (length === undefined || length === null) return v.slice(a);
  const l = int(length);
  return l < 0 ? v.slice(a, Math.max(a, v.length + l)) : v.slice(a, a + l);
}

/** `implode()`: the pieces joined, refused before joining past the size cap. */
function joined(pieces: string[], glue: string, ctx: WorkMeter): string {
  let length = glue.length * Math.max(0, pieces.length - 1);
  for (const p of pieces) length += p.length;
  willBuildString(length, 'implode()', ctx);
  return pieces.join(glue);
}

function pick(name: string, args: Value[], better: (a: number, b: number) => boolean, ctx: BuiltinContext): Value {
  if (args.length === 1 && !(args[0] instanceof PhpArray)) {
    if (isPhp8(ctx.phpVersion)) throw new PhpFatal('TypeError', `${name}(): Argument #1 ($value) must be of type array, ${typeName(args[0])} given`);
    ctx.warn(`${name}(): When only one parameter is given, it must be an array`);
    return null;
  }
  const list = args.length === 1 && args[0] instanceof PhpArray ? [...args[0].values()] : args;
  if (list.length === 0) return refuse(ctx, `${name}(): Argument #1 ($value) must contain at least one element`, `${name}(): Array must contain at least one element`, false);
  let best: Value = null;
  let bestNum = 0;
  for (const v of list) {
    const n = typeof v === 'number' ? v : v instanceof PhpFloat ? v.value : undefined;
    if (n === undefined) throw new UnknownArgument(new Unknown('min()/max() of non-numbers is not evaluated'));
    if (best === null || better(n, bestNum)) {
      best = v;
      bestNum = n;
    }
  }
  return best;
}

/** Every builtin's name, in lower case. */
export function builtinNames(): string[] {
  return Object.keys(BUILTINS);
}

export function isBuiltin(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(BUILTINS, name.toLowerCase());
}

/**
 * Calls a pure builtin. Unknown arguments give an Unknown result, never a guess. The work is
 * charged in proportion to the arguments and the result (a builtin walks or copies them), and a
 * result past the size caps stops the evaluation.
 */
export function callBuiltin(name: string, args: Value[], ctx: BuiltinContext): Value {
  const lower = name.toLowerCase();
  const fn = BUILTINS[lower];
  // PHP 8 throws on a wrong argument before the function runs; PHP 7 warned and returned null.
  const refused = checkArguments(lower, args, ctx.phpVersion, (m) => ctx.warn(m));
  if (refused) return refused.result;
  for (const a of args) if (a instanceof Unknown && name !== 'is_null') return new Unknown(`${name}() of an unknown value`);
  let units = 0;
  let entries = 0;
  let length = 0;
  for (const a of args) {
    units += unitsOf(a);
    if (a instanceof PhpArray) entries += a.size;
    else if (typeof a === 'string') length += a.length;
  }
  // Many large arguments (array_merge($a, $a, ...), max(...)): refused before any is walked.
  checkArrayEntries(entries / 2, `${name}()`);
  checkStringLength(length / 4, `${name}()`);
  ctx.charge(units);
  const outer = prepaid;
  prepaid = 0;
  try {
    const result = fn(args, ctx);
    checkResult(result, `${name}()`);
    ctx.charge(Math.max(0, unitsOf(result) - prepaid));
    return result;
  } catch (e) {
    if (e instanceof UnknownArgument) return new Unknown(e.ofResult ? e.value.reason : `${name}() of an unknown value: ${e.value.reason}`);
    throw e;
  } finally {
    prepaid = outer;
  }
}

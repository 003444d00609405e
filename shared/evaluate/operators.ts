import { REQUEST_METHODS, methodsIn } from '../runtime/methods';
import { at } from '../library/route-library';
import { Diverge } from '../library/route-library';
import { PhpFatal, isNumericString, looseEquals, sameValue, strictEquals, toBool, toNumber, toPhpString } from '../runtime/convert';
import { checkArrayEntries, checkStringLength, unitsOf } from '../runtime/work-meter';
import { beyondExactIntegers } from '../runtime/numbers';
import { isPhp8 } from '../runtime/php-version';
import { PerMethod, PhpArray, PhpClosure, PhpFloat, Unknown, shareValue, typeName, type Value } from '../runtime/values';
import type { InterpreterCore } from './interpreter-core';

/* PHP's operators on values, and how a value that differs by request method goes through them. */

export function concatAll(it: InterpreterCore, vals: Value[]): Value {
  let out = '';
  for (const v of vals) {
    const s = toPhpString(v, it);
    if (s instanceof Unknown) return s;
    out = concat(it, out, s, 'string interpolation');
  }
  return out;
}

/** `a . b`, refused past the size cap and paid for by its length (later reads flatten it). */
export function concat(it: InterpreterCore, a: string, b: string, what: string): string {
  const length = a.length + b.length;
  checkStringLength(length, what);
  it.charge(length);
  return a + b;
}

export function truth(it: InterpreterCore, v: Value): boolean | undefined {
  if (v instanceof PerMethod) {
    const ms = methodsIn(it.mask);
    const first = toBool(v.byMethod[ms[0]]);
    for (const m of ms) if (toBool(v.byMethod[m]) !== first) throw new Diverge('a condition differs by request method');
    return first;
  }
  return toBool(v);
}

/** Applies `fn` per method when any input differs by method; collapses equal results. */
export function lift(it: InterpreterCore, values: Value[], fn: (vals: Value[]) => Value): Value {
  if (!values.some((v) => v instanceof PerMethod)) return fn(values);
  const ms = methodsIn(it.mask);
  const by: Value[] = REQUEST_METHODS.map(() => null);
  const saved = it.mask;
  try {
    for (const m of ms) {
      // Runs for method m alone: its warnings (e.g. "Undefined array key") are that method's only.
      it.mask = 1 << m;
      by[m] = fn(values.map((v) => at(v, m)));
    }
  } finally {
    it.mask = saved;
  }
  const first = by[ms[0]];
  return ms.every((m) => sameValue(by[m], first, it)) ? first : new PerMethod(by);
}

export function loose(it: InterpreterCore, a: Value, b: Value): boolean | undefined {
  const r = lift(it, [a, b], ([x, y]) => {
    const e = looseEquals(x, y, it);
    return e === undefined ? new Unknown('comparison with an unknown value') : e;
  });
  return truth(it, r);
}

export function binary(it: InterpreterCore, op: string, left: Value, right: Value): Value {
  return lift(it, [left, right], ([a, b]) => binaryOne(it, op, a, b));
}

export function binaryOne(it: InterpreterCore, op: string, a: Value, b: Value): Value {
  switch (op) {
    case '.': {
      const l = toPhpString(a, it);
      const r = toPhpString(b, it);
      if (l instanceof Unknown) return l;
      if (r instanceof Unknown) return r;
      return concat(it, l, r, 'the concatenation');
    }
    case '==':
      return orUnknown(looseEquals(a, b, it));
    case '!=':
    case '<>':
      return notOrUnknown(looseEquals(a, b, it));
    case '===':
      return orUnknown(strictEquals(a, b, it));
    case '!==':
      return notOrUnknown(strictEquals(a, b, it));
    case 'xor': {
      const x = toBool(a);
      const y = toBool(b);
      return x === undefined || y === undefined ? new Unknown('unknown condition') : x !== y;
    }
  }
  if (a instanceof Unknown) return a;
  if (b instanceof Unknown) return b;
  // Every other operator reads its operands whole (numeric strings are parsed, arrays copied).
  it.charge(unitsOf(a) + unitsOf(b));
  if (op === '+' && a instanceof PhpArray && b instanceof PhpArray) {
    checkArrayEntries(a.size + b.size, 'the array union');
    const out = a.clone();
    for (const [k, v] of b.entries()) if (!out.has(k)) out.set(k, shareValue(v));
    return out;
  }
  if (['<', '>', '<=', '>=', '<=>'].includes(op)) return compare(op, a, b, it);
  const [x, y] = operands(it, op, a, b);
  if (x instanceof Unknown) return x;
  if (y instanceof Unknown) return y;
  const isFloat = x instanceof PhpFloat || y instanceof PhpFloat;
  const xv = x instanceof PhpFloat ? x.value : x;
  const yv = y instanceof PhpFloat ? y.value : y;
  // An integer result stays an integer up to PHP_INT_MAX; past 2^53 it is not exact here.
  const num = (v: number, float = isFloat): Value => (float ? new PhpFloat(v) : Number.isSafeInteger(v) ? v : Math.abs(v) >= 2 ** 63 ? new PhpFloat(v) : beyondExactIntegers(`${op}'s result`));
  const bits = (v: bigint): Value => (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : beyondExactIntegers(`${op}'s result`));
  switch (op) {
    case '+':
      return num(xv + yv);
    case '-':
      return num(xv - yv);
    case '*':
      return num(xv * yv);
    case '/':
      if (yv === 0) throw new PhpFatal('DivisionByZeroError', 'Division by zero');
      return num(xv / yv, isFloat || !Number.isInteger(xv / yv));
    case '%': {
      const xi = Math.trunc(xv);
      const yi = Math.trunc(yv);
      if (yi === 0) throw new PhpFatal('DivisionByZeroError', 'Modulo by zero');
      return xi % yi;
    }
    case '**':
      return num(xv ** yv, isFloat || yv < 0);
    case '&':
      return bits(BigInt.asIntN(64, BigInt(Math.trunc(xv)) & BigInt(Math.trunc(yv))));
    case '|':
      return bits(BigInt.asIntN(64, BigInt(Math.trunc(xv)) | BigInt(Math.trunc(yv))));
    case '^':
      return bits(BigInt.asIntN(64, BigInt(Math.trunc(xv)) ^ BigInt(Math.trunc(yv))));
    case '<<':
      return bits(BigInt.asIntN(64, BigInt(Math.trunc(xv)) << BigInt(Math.trunc(yv) & 63)));
    case '>>':
      return bits(BigInt.asIntN(64, BigInt(Math.trunc(xv)) >> BigInt(Math.trunc(yv) & 63)));
  }
  return new Unknown(`operator ${op} is not evaluated`);
}

/**
 * Both operands as numbers. PHP 8 refuses arrays and non-numeric strings with a TypeError naming
 * both types; PHP 7 read a non-numeric string as 0 with a warning (arrays were an Error).
 */
function operands(it: InterpreterCore, op: string, a: Value, b: Value): [number | PhpFloat | Unknown, number | PhpFloat | Unknown] {
  try {
    return [toNumber(a, it), toNumber(b, it)];
  } catch (e) {
    if (!(e instanceof PhpFatal) || !e.phpMessage.startsWith('Unsupported operand types')) throw e;
    const arrays = a instanceof PhpArray || a instanceof PhpClosure || b instanceof PhpArray || b instanceof PhpClosure;
    if (isPhp8(it.options.phpVersion)) throw new PhpFatal('TypeError', `Unsupported operand types: ${typeName(a)} ${op} ${typeName(b)}`);
    if (arrays) throw new PhpFatal('Error', 'Unsupported operand types');
    it.warn('A non-numeric value encountered');
    const lenient = (v: Value): Value => (typeof v === 'string' && !/^\s*[+-]?\.?\d/.test(v) ? 0 : v);
    return [toNumber(lenient(a), it), toNumber(lenient(b), it)];
  }
}

export function orUnknown(b: boolean | undefined): Value {
  return b === undefined ? new Unknown('comparison with an unknown value') : b;
}

function notOrUnknown(b: boolean | undefined): Value {
  return b === undefined ? new Unknown('comparison with an unknown value') : !b;
}

/** `<`, `>`, `<=`, `>=`, `<=>` by PHP 8's comparison rules (the manual's comparison table). */
function compare(op: string, a: Value, b: Value, sink: { warn(m: string): void }): Value {
  const c = compareValues(a, b, sink);
  if (c instanceof Unknown) return c;
  switch (op) {
    case '<':
      return c < 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '>=':
      return c >= 0;
    default:
      return c;
  }
}

function order(x: number | string, y: number | string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareValues(a: Value, b: Value, sink: { warn(m: string): void }): number | Unknown {
  if (a instanceof Unknown) return a;
  if (b instanceof Unknown) return b;
  if (a instanceof PerMethod || b instanceof PerMethod) return new Unknown('comparison of a value that differs by request method');
  // null with a string: '' and the string; bool or null with anything else: both as booleans.
  if (a === null && typeof b === 'string') return order('', b);
  if (b === null && typeof a === 'string') return order(a, '');
  if (typeof a === 'boolean' || typeof b === 'boolean' || a === null || b === null) {
    const x = toBool(a);
    const y = toBool(b);
    if (x === undefined || y === undefined) return new Unknown('comparison with an unknown value');
    return order(Number(x), Number(y));
  }
  // An array is greater than anything but an array (arrays among themselves: not evaluated here).
  if (a instanceof PhpArray || b instanceof PhpArray) {
    if (a instanceof PhpArray && b instanceof PhpArray) return new Unknown('comparison of two arrays is not evaluated');
    return a instanceof PhpArray ? 1 : -1;
  }
  if (typeof a === 'string' && typeof b === 'string') {
    // Two numeric strings compare as numbers; otherwise byte by byte.
    if (!(isNumericString(a) && isNumericString(b))) return order(a, b);
  } else if (typeof a === 'string' || typeof b === 'string') {
    // A number with a non-numeric string: the number as a string, compared byte by byte (PHP 8).
    const str = (typeof a === 'string' ? a : b) as string;
    if (!isNumericString(str)) {
      const num = typeof a === 'string' ? b : a;
      const text = toPhpString(num, sink);
      if (text instanceof Unknown) return text;
      return typeof a === 'string' ? order(a, text) : order(text, str);
    }
  }
  const x = toNumber(a, sink);
  const y = toNumber(b, sink);
  if (x instanceof Unknown) return x;
  if (y instanceof Unknown) return y;
  return order(x instanceof PhpFloat ? x.value : x, y instanceof PhpFloat ? y.value : y);
}

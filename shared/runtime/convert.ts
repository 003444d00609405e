import type { Span } from '../php/ast';
import { PhpArray, PhpClosure, PhpFloat, PerMethod, Unknown, normalizeStringKey, type Key, type Value } from './values';
import { ENTRY_UNITS, type WorkMeter } from './work-meter';

/** An uncaught PHP error: it stops the script, as it would at runtime. */
export class PhpFatal extends Error {
  /** Where it was raised, filled in by the evaluator. */
  span?: Span;
  constructor(
    readonly phpClass: string,
    readonly phpMessage: string,
  ) {
    super(`${phpClass}: ${phpMessage}`);
  }
}

/** Receives PHP warnings raised by conversions (e.g. "Array to string conversion"). */
export interface WarningSink {
  warn(message: string): void;
}

/** PHP 8's float to string conversion (precision 14, as `echo` and `.` use). */
export function floatToString(f: number): string {
  if (Number.isNaN(f)) return 'NAN';
  if (!Number.isFinite(f)) return f > 0 ? 'INF' : '-INF';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  let s = f.toPrecision(14);
  if (s.includes('e')) {
    let [mant, exp] = s.split('e');
    if (mant.includes('.')) mant = mant.replace(/0+$/, '').replace(/\.$/, '.0');
    else mant += '.0';
    const e = Number(exp);
    return `${mant}E${e < 0 ? '-' : '+'}${Math.abs(e)}`;
  }
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  const abs = Math.abs(f);
  if (abs >= 1e15 || abs < 1e-4) {
    // PHP switches to exponent form outside this range.
    const e = Math.floor(Math.log10(abs));
    let mant = (f / 10 ** e).toPrecision(14).replace(/0+$/, '').replace(/\.$/, '.0');
    if (!mant.includes('.')) mant += '.0';
    return `${mant}E${e < 0 ? '-' : '+'}${Math.abs(e)}`;
  }
  return s;
}

/** `(string)$v`. Unknown stays unknown; the caller handles PerMethod before calling. */
export function toPhpString(v: Value, sink: WarningSink): string | Unknown {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? '1' : '';
  if (v === null) return '';
  if (v instanceof PhpFloat) return floatToString(v.value);
  if (v instanceof PhpArray) {
    sink.warn('Array to string conversion');
    return 'Array';
  }
  if (v instanceof PhpClosure) throw new PhpFatal('Error', 'Object of class Closure could not be converted to string');
  if (v instanceof Unknown) return v;
  return new Unknown('the value differs between request methods');
}

/** PHP truthiness; undefined when the value is unknown. */
export function toBool(v: Value): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v !== '' && v !== '0';
  if (typeof v === 'number') return v !== 0;
  if (v === null) return false;
  if (v instanceof PhpFloat) return v.value !== 0;
  if (v instanceof PhpArray) return v.size > 0;
  if (v instanceof PhpClosure) return true;
  return undefined;
}

/** Parses the leading numeric part of a string the way PHP's `(int)` and arithmetic do. */
export function leadingNumber(s: string): { value: number; isFloat: boolean; whole: boolean } {
  const m = /^[ \t\n\r\v\f]*([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?)/.exec(s);
  if (!m) return { value: 0, isFloat: false, whole: false };
  const text = m[1];
  const isFloat = /[.eE]/.test(text);
  const rest = s.slice(m[0].length);
  return { value: Number(text), isFloat, whole: /^[ \t\n\r\v\f]*$/.test(rest) };
}

/** `(int)$v`. */
export function toInt(v: Value): number | Unknown {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null) return 0;
  if (typeof v === 'string') {
    const n = leadingNumber(v);
    return exactInt(Number.isFinite(n.value) ? Math.trunc(n.value) : 0, v);
  }
  if (v instanceof PhpFloat) return Number.isFinite(v.value) ? exactInt(Math.trunc(v.value), floatToString(v.value)) : 0;
  if (v instanceof PhpArray) return v.size > 0 ? 1 : 0;
  if (v instanceof PhpClosure) return 1;
  return v instanceof Unknown ? v : new Unknown('the value differs between request methods');
}

/** An integer read from `what`, or unknown past ±2^53 (PHP saturates or wraps at 64 bits, not evaluated here). */
function exactInt(n: number, what: string): number | Unknown {
  return Number.isSafeInteger(n) ? n : new Unknown(`(int) ${what.length > 40 ? `${what.slice(0, 40)}…` : what} is an integer beyond ±2^53, which is not evaluated exactly`);
}

/** Numeric value for arithmetic: int stays int, float/float-like strings become floats. */
export function toNumber(v: Value, sink: WarningSink): number | PhpFloat | Unknown {
  if (typeof v === 'number') return v;
  if (v instanceof PhpFloat) return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null) return 0;
  if (typeof v === 'string') {
    const n = leadingNumber(v);
    if (!n.whole) {
      if (n.value === 0 && !/^\s*[+-]?\.?\d/.test(v)) throw new PhpFatal('TypeError', `Unsupported operand types: string`);
      sink.warn('A non-numeric value encountered');
    }
    return n.isFloat ? new PhpFloat(n.value) : n.value;
  }
  if (v instanceof Unknown) return v;
  throw new PhpFatal('TypeError', `Unsupported operand types: ${v instanceof PhpArray ? 'array' : 'Closure'}`);
}

/** Converts a value used as an array key (`$a[$k]`). */
export function toKey(v: Value): Key | Unknown {
  if (typeof v === 'string') return normalizeStringKey(v);
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null) return '';
  if (v instanceof PhpFloat) return Number.isFinite(v.value) ? Math.trunc(v.value) : 0;
  if (v instanceof Unknown) return v;
  if (v instanceof PerMethod) return new Unknown('the key differs between request methods');
  throw new PhpFatal('TypeError', 'Illegal offset type');
}

/**
 * Structural equality used to merge values (branches, request methods). Comparing arrays walks
 * them, nested ones included (shared ones are walked again each time they are met): `meter` pays for it.
 */
export function sameValue(a: Value | undefined, b: Value | undefined, meter?: WorkMeter): boolean {
  if (a === b) return true;
  if (a instanceof PhpFloat && b instanceof PhpFloat) return a.value === b.value || (Number.isNaN(a.value) && Number.isNaN(b.value));
  if (typeof a === 'string' && typeof b === 'string') {
    meter?.charge(Math.min(a.length, b.length));
    return false;
  }
  if (a instanceof PhpArray && b instanceof PhpArray) {
    if (a.size !== b.size) return false;
    meter?.charge(a.size * ENTRY_UNITS);
    const ib = b.entries();
    for (const [k, v] of a.entries()) {
      const n = ib.next();
      if (n.done || n.value[0] !== k || !sameValue(v, n.value[1], meter)) return false;
    }
    return true;
  }
  return false;
}

export function isNumericString(s: string): boolean {
  return leadingNumber(s).whole && /\d/.test(s);
}

/** PHP 8 loose comparison `==`; undefined when unknown. `meter` pays for the strings and arrays compared. */
export function looseEquals(a: Value, b: Value, meter?: WorkMeter): boolean | undefined {
  if (a instanceof Unknown || b instanceof Unknown || a instanceof PerMethod || b instanceof PerMethod) return undefined;
  if (a === null && b === null) return true;
  if (typeof a === 'boolean' || typeof b === 'boolean' || a === null || b === null) {
    if (typeof a === 'string' && b === null) return a === '';
    if (typeof b === 'string' && a === null) return b === '';
    return toBool(a) === toBool(b);
  }
  if (typeof a === 'string' && typeof b === 'string') {
    meter?.charge(a.length + b.length);
    if (isNumericString(a) && isNumericString(b)) return Number(a.trim()) === Number(b.trim());
    return a === b;
  }
  const num = (v: Value): number | undefined =>
    typeof v === 'number' ? v : v instanceof PhpFloat ? v.value : undefined;
  const na = num(a);
  const nb = num(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (na !== undefined && typeof b === 'string') return isNumericString(b) ? na === Number(b.trim()) : String(floatOrInt(a)) === b;
  if (nb !== undefined && typeof a === 'string') return isNumericString(a) ? nb === Number(a.trim()) : String(floatOrInt(b)) === a;
  if (a instanceof PhpArray && b instanceof PhpArray) {
    if (a.size !== b.size) return false;
    meter?.charge(a.size * ENTRY_UNITS);
    for (const [k, v] of a.entries()) {
      const w = b.get(k);
      if (w === undefined) return false;
      const eq = looseEquals(v, w, meter);
      if (eq !== true) return eq;
    }
    return true;
  }
  return a === b;
}

function floatOrInt(v: Value): string {
  return v instanceof PhpFloat ? floatToString(v.value) : String(v);
}

/** PHP strict comparison `===`; undefined when unknown. `meter` pays for the strings and arrays compared. */
export function strictEquals(a: Value, b: Value, meter?: WorkMeter): boolean | undefined {
  if (a instanceof Unknown || b instanceof Unknown || a instanceof PerMethod || b instanceof PerMethod) return undefined;
  if (a instanceof PhpFloat && b instanceof PhpFloat) return a.value === b.value;
  if (a instanceof PhpArray && b instanceof PhpArray) return sameValue(a, b, meter);
  if (typeof a === 'string' && typeof b === 'string') meter?.charge(Math.min(a.length, b.length));
  return a === b;
}

/** Renders a value as PHP source would show it, for hovers and messages. */
export function describeValue(v: Value, depth = 0): string {
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null) return 'null';
  if (v instanceof PhpFloat) return floatToString(v.value);
  if (v instanceof PhpClosure) return 'function () {…}';
  if (v instanceof Unknown) return `‹unknown: ${v.reason}›`;
  if (v instanceof PerMethod) return '‹differs by request method›';
  if (depth > 2) return '[…]';
  const parts: string[] = [];
  let expect = 0;
  for (const [k, val] of v.entries()) {
    const shown = describeValue(val, depth + 1);
    parts.push(k === expect ? shown : `${typeof k === 'number' ? k : describeValue(k)} => ${shown}`);
    if (typeof k === 'number') expect = k + 1;
    if (parts.length > 8) {
      parts.push('…');
      break;
    }
  }
  return `[${parts.join(', ')}]`;
}

import { floatToString } from '../runtime/convert';
import type { MethodResult } from './evaluate-file';
import { PerMethod, PhpArray, PhpClosure, PhpFloat, Unknown, keyToString, type Value } from '../runtime/values';
import { isDynamicKey } from '../library/records';

/** A PHP value as the conformance vectors write it. */
export type JsonValue = string | number | boolean | null | { '<array>': [string, JsonValue][] } | { '<unknown>': string };

/** The conformance vectors' OUTCOME object for one request method. */
export interface OutcomeJson {
  routes: [string, JsonValue][] | null;
  named: [string, JsonValue][];
  error: { class: string; message: string } | null;
  warnings: string[];
}

export function valueToJson(v: Value): JsonValue {
  if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return v;
  if (v instanceof PhpFloat) return Number.isFinite(v.value) ? v.value : floatToString(v.value);
  if (v instanceof PhpClosure) return '<callable>';
  if (v instanceof PhpArray) return { '<array>': [...v.entries()].map(([k, x]) => [keyToString(k), valueToJson(x)]) };
  if (v instanceof Unknown) return { '<unknown>': v.reason };
  if (v instanceof PerMethod) return { '<unknown>': 'differs by request method' };
  return null;
}

/** Keys of routes whose path is unknown are shown as `<dynamic>`. */
function jsonKey(k: string | number): string {
  return isDynamicKey(k) ? '<dynamic>' : keyToString(k);
}

/** Converts one method's result to the conformance format (routes are null after any error). */
export function outcomeToJson(result: MethodResult): OutcomeJson {
  const routes = result.error || !result.routes ? null : [...result.routes.entries()].map(([k, v]): [string, JsonValue] => [jsonKey(k), valueToJson(v)]);
  // PHP runs nothing of a file it cannot parse: no name, no warning (what the editor evaluated
  // of it while being typed is not what PHP does).
  const unparsed = result.error?.class === 'ParseError';
  return {
    routes,
    named: unparsed ? [] : [...result.library.named.entries()].map(([k, v]) => [keyToString(k), valueToJson(v)]),
    error: result.error ? { class: result.error.class, message: result.error.message } : null,
    warnings: unparsed ? [] : result.warnings,
  };
}

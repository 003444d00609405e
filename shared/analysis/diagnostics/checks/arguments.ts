import { PerMethod, PhpArray, PhpClosure, type Value } from '../../../runtime/values';
import { maskNames, maskOf, type MethodMask } from '../../../runtime/methods';
import type { Check } from '../core/context';
import { CallGroups, methodsAtSite } from '../core/call-groups';
import { isRouteMethod } from '../../model/origins';
import { finding, type Finding } from '../core/types';

const VERB_INDEX: Record<string, number> = { get: 0, post: 1, put: 2, delete: 3, head: 4, patch: 5, options: 6 };

function anyValue(v: Value | undefined, test: (x: Value) => boolean): boolean {
  if (v === undefined) return false;
  if (v instanceof PerMethod) return v.byMethod.some(test);
  return test(v);
}

/** The methods under which a route call registers anything. */
function registeringMask(method: string, mask: MethodMask): MethodMask {
  return method === 'any' ? mask : mask & maskOf(VERB_INDEX[method]);
}

const isClosure = (v: Value): boolean => v instanceof PhpClosure;

/** A closure as `$to` of any()/verb methods: map() throws a TypeError on PHP 8. */
export const closureTargets: Check = ({ evaluation }) => {
  // The library notes such a route as it declares it: nearly every file has none.
  if (!evaluation.methods.some((r) => r.library.closureTarget)) return [];
  const out: Finding[] = [];
  const seen = new Set<number>();
  for (const call of evaluation.calls) {
    const { args } = call;
    if (!isRouteMethod(call.site.method)) continue;
    const site = evaluation.places.site(call.site);
    if (!anyValue(args[1], isClosure)) continue;
    const span = site.argSpans[1];
    if (!span || seen.has(span.start)) continue;
    seen.add(span.start);
    const methods = maskNames(registeringMask(site.method, call.mask));
    if (methods.length === 0) continue;
    out.push(
      finding(
        'closure-target',
        span,
        'A closure as the target of a Route:: route: Route::map() throws a TypeError on PHP 8 and the whole file fails.',
        { methods, details: "map() passes every target to str_replace(), which refuses a Closure: assign closure routes to $route after map() instead ($route['path'] = function (...) {...};)" },
      ),
    );
  }
  return out;
};

/** Turns `array('a', 'b')` / `['a', 'b']` source text into `'a', 'b'`. */
export function spreadArrayLiteral(source: string): string | undefined {
  const m = /^\s*(?:array\s*\(([\s\S]*)\)|\[([\s\S]*)\])\s*$/i.exec(source);
  if (!m) return undefined;
  const inner = (m[1] ?? m[2]).trim().replace(/,\s*$/, '');
  if (/=>/.test(inner)) return undefined;
  return inner;
}

/** `Route::block([...])` registers the path 'Array' and blocks nothing. */
export const blockArrays: Check = ({ evaluation, text }) => {
  const out: Finding[] = [];
  const seen = new Set<number>();
  for (const call of CallGroups.of(evaluation).of('block')) {
    call.args.forEach((arg, i) => {
      // The argument first: placing the call makes a moved copy of it (every call below an edit
      // that changed the text's length), and nearly every block() call passes strings.
      if (!anyValue(arg, (v) => v instanceof PhpArray)) return;
      const span = evaluation.places.argSpan(call.site, i);
      if (!span || seen.has(span.start)) return;
      seen.add(span.start);
      const paths = arg instanceof PhpArray ? [...arg.values()].filter((v): v is string => typeof v === 'string') : [];
      const spread = spreadArrayLiteral(text.slice(span.start, span.end));
      out.push(
        finding(
          'block-array',
          span,
          `Route::block() given an array blocks nothing: it registers the path 'Array'.`,
          {
            details: `it takes each path as a separate argument${paths.length ? `: ${paths.map((p) => `'${p}'`).join(', ')} stay${paths.length === 1 ? 's' : ''} reachable` : ''} (PHP warns "Array to string conversion")`,
            methods: maskNames(methodsAtSite(evaluation, call)),
            fixes: spread ? [{ title: 'Pass the paths as separate arguments', edits: [{ span, newText: spread }], preferred: true }] : [],
          },
        ),
      );
    });
  }
  return out;
};

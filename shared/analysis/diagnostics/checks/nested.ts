import { PhpClosure, keyToString, type Value } from '../../../runtime/values';
import { REQUEST_METHODS, type RequestMethod } from '../../../runtime/methods';
import type { RecordedSite, RouteRecord } from '../../../library/records';
import { compileRouteKey } from '../../../router/pattern';
import type { Check } from '../core/context';
import { routeApi } from '../../../library/route-api';
import { MethodGroups, describeMethods, sortMethods } from '../../model/origins';
import { finding, type Finding } from '../core/types';


/** Where a method takes its `$nested` callable (the Route API's table). */
function nestedArgIndex(method: string): number | undefined {
  return routeApi(method)?.nestedAt;
}

function list(keys: string[], max = 6): string {
  const shown = keys.slice(0, max).map((k) => `'${k}'`).join(', ');
  return keys.length > max ? `${shown} and ${keys.length - max} more` : shown;
}

/**
 * The `$nested` callable's quirks: it runs once per route its call registers (repeating its
 * routes under each), only the first route inside sees the nesting depth, a nested callable
 * inside another is skipped or runs with a doubled path, and returning clears the nested prefix.
 */
export const nestedCallables: Check = ({ evaluation }) => {
  // Nearly every file has no $nested callable at all: then there is nothing to look at.
  // The interpreter notes a closure passed as `$nested` as it records the call.
  if (!evaluation.nestedClosure && !evaluation.methods.some((res) => res.library.createdNested)) return [];
  const out: Finding[] = [];
  const places = evaluation.places;
  // The same call: two evaluations of one call (a loop) made two sites at one place.
  const same = (a: RecordedSite, b: RecordedSite) => a === b || places.start(a) === places.start(b);
  const records: { method: RequestMethod; r: RouteRecord }[] = [];
  evaluation.methods.forEach((res, m) => res.library.created.forEach((r) => records.push({ method: REQUEST_METHODS[m], r })));

  // Repeated: the callable ran more than once under a method.
  const seenSites = new Set<number>();
  for (const call of evaluation.calls) {
    const idx = nestedArgIndex(call.site.method);
    if (idx === undefined || seenSites.has(places.start(call.site))) continue;
    const nested: Value | undefined = call.args[idx];
    if (!(nested instanceof PhpClosure)) continue;
    seenSites.add(places.start(call.site));
    const runs = new Map<RequestMethod, Set<string>>();
    const produced = new Map<RequestMethod, string[]>();
    for (const { method, r } of records) {
      if (!r.nested || !same(r.nested.parent, call.site)) continue;
      (runs.get(method) ?? runs.set(method, new Set()).get(method)!).add(r.nestedPrefix);
      (produced.get(method) ?? produced.set(method, []).get(method)!).push(keyToString(r.key));
    }
    const repeated = [...runs.entries()].filter(([, prefixes]) => prefixes.size > 1);
    if (repeated.length === 0) continue;
    const counts = [...runs.entries()].map(([m, p]) => `${m}: ${p.size} time${p.size === 1 ? '' : 's'}`).join(', ');
    const [firstMethod] = repeated[0];
    out.push(
      finding(
        'nested-callable-repeated',
        places.site(call.site).argSpans[idx] ?? places.site(call.site).nameSpan,
        `This $nested callable runs once per route Route::${call.site.written}() registers: its routes are repeated.`,
        { methods: sortMethods(runs.keys()), details: `${counts}, each time under that route's path: under ${firstMethod} it produces ${list(produced.get(firstMethod) ?? [])}` },
      ),
    );
  }

  // Depth quirks of routes created inside a nested callable.
  const misnumbered = new MethodGroups<{ site: RecordedSite; parent: RecordedSite }>();
  const shifted = new MethodGroups<{ site: RecordedSite; parent: RecordedSite; key: string; to: string; groups: number }>();
  const doubledPrefix = new MethodGroups<{ site: RecordedSite; key: string; prefix: string }>();
  const lostNesting = new MethodGroups<{ site: RecordedSite; key: string; parent: RecordedSite }>();
  for (const { method, r } of records) {
    const n = r.nested;
    if (!n) {
      const parent = r.via.find((s) => nestedArgIndex(s.method) !== undefined && records.some((x) => x.r.nested && same(x.r.nested.parent, s)));
      if (parent && r.nestedPrefix === '' && places.start(r.site) > places.start(parent)) {
        lostNesting.add(`${places.start(r.site)}`, method, () => ({ site: r.site, key: keyToString(r.key), parent }));
      }
      continue;
    }
    if (r.site.method === 'resources' && n.nestOffset === false && !same(r.site, n.parent)) {
      misnumbered.add(`${places.start(r.site)}`, method, () => ({ site: r.site, parent: n.parent }));
    }
    const parentGroups = compileRouteKey(r.nestedPrefix.replace(/\/$/, '')).groups;
    const compensated = r.site.method === 'resources' && n.nestOffset === true;
    if (parentGroups > 0 && !compensated && typeof r.to === 'string' && !misnumbered.has(`${places.start(r.site)}`)) {
      const refs = [...r.to.matchAll(/\$\{?(\d{1,2})\}?/g)].map((x) => Number(x[1])).filter((x) => x >= 1 && x <= parentGroups);
      if (refs.length) {
        shifted.add(`${places.start(r.site)}`, method, () => ({ site: r.site, parent: n.parent, key: keyToString(r.key), to: r.to as string, groups: parentGroups }));
      }
    }
    if (r.prefix !== '' && r.nestedPrefix.includes(r.prefix)) {
      doubledPrefix.add(`${places.start(r.site)}`, method, () => ({ site: r.site, key: keyToString(r.key), prefix: r.prefix }));
    }
  }
  for (const { value, methods } of misnumbered.entries()) {
    out.push(
      finding(
        'nested-depth',
        places.site(value.site).nameSpan,
        `Not the first route of its $nested callable: its '$1' receives the parent's id, not its own.`,
        {
          methods,
          related: [{ span: places.site(value.parent).nameSpan, message: 'the route whose $nested callable this is' }],
          details: `only the first route declared inside a $nested callable sees the nesting depth: under ${describeMethods(methods)} this one's targets get neither the parent route's '/$1' nor a raised offset`,
        },
      ),
    );
  }
  for (const { value, methods } of shifted.entries()) {
    out.push(
      finding(
        'nested-depth',
        places.site(value.site).nameSpan,
        `'${value.to}' numbers its back-references as if the parent's path had no group: its '$1' receives the parent's value.`,
        {
          methods,
          related: [{ span: places.site(value.parent).nameSpan, message: 'the route whose $nested callable this is' }],
          details: `declared inside a $nested callable, the pattern '${value.key}' starts with the parent route's path, which has ${value.groups} group${value.groups === 1 ? '' : 's'}`,
        },
      ),
    );
  }
  for (const { value, methods } of doubledPrefix.entries()) {
    out.push(
      finding('nested-depth', places.site(value.site).nameSpan, `The prefix '${value.prefix.replace(/\/$/, '')}' is applied twice here: this declares '${value.key}'.`, { methods, details: "inside a $nested callable, once in the parent route's path and once again here" }),
    );
  }
  for (const { value, methods } of lostNesting.entries()) {
    out.push(
      finding(
        'nested-depth',
        places.site(value.site).nameSpan,
        `Returning from a $nested callable clears the nested path, so this route, declared after one, is not under its parent route: it declares '${value.key}'.`,
        { methods, related: [{ span: places.site(value.parent).nameSpan, message: 'the route whose $nested callable ran' }] },
      ),
    );
  }

  // A nested callable inside a nested callable: skipped, or run with a doubled path.
  const inner = new Set<number>();
  for (const call of evaluation.calls) {
    const idx = nestedArgIndex(call.site.method);
    if (idx === undefined || !(call.args[idx] instanceof PhpClosure) || inner.has(places.start(call.site))) continue;
    const insideNested = call.via.some((s) => records.some((x) => x.r.nested && same(x.r.nested.parent, s)));
    if (!insideNested) continue;
    inner.add(places.start(call.site));
    const ran = records.filter((x) => x.r.nested && same(x.r.nested.parent, call.site));
    const message = ran.length === 0
      ? 'This $nested callable never runs: the library runs a nested callable only when no other is running, and here one is.'
      : `This $nested callable runs only after the nesting depth dropped back to 0, under the doubled path '${ran[0].r.nestedPrefix}': it declares ${list([...new Set(ran.map((x) => keyToString(x.r.key)))])}.`;
    out.push(finding('nested-depth', places.site(call.site).argSpans[idx] ?? places.site(call.site).nameSpan, message, { methods: sortMethods(ran.map((x) => x.method)) }));
  }
  return out;
};

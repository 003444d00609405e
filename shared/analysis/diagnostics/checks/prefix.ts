import { keyToString } from '../../../runtime/values';
import { REQUEST_METHODS, type RequestMethod } from '../../../runtime/methods';
import type { CallSite } from '../../../library/records';
import type { RouteCall } from '../../../evaluate/interpreter';
import type { Check } from '../core/context';
import { CallGroups } from '../core/call-groups';
import { sortMethods } from '../../model/origins';
import { finding } from '../core/types';

function list(keys: Set<string>): string {
  const all = [...keys];
  const shown = all.slice(0, 4).map((k) => `'${k}'`).join(', ');
  return all.length > 4 ? `${shown} and ${all.length - 4} more` : shown;
}

interface Nesting {
  call: RouteCall;
  inner: CallSite;
  outer: CallSite;
  innerKeys: Set<string>;
  lostKeys: Set<string>;
  methods: Set<RequestMethod>;
}

/** `prefix()` inside `prefix()`: the inner one replaces the outer prefix and then clears it. */
export const prefixNesting: Check = ({ evaluation, describe }) => {
  const nestings: Nesting[] = [];
  const done = new Set<number>();
  const prefixCalls = CallGroups.of(evaluation).of('prefix');
  for (const call of prefixCalls) {
    if (done.has(evaluation.places.start(call.site))) continue;
    let outer: CallSite | undefined;
    for (const s of call.via) if (s.method === 'prefix') outer = evaluation.places.site(s);
    if (!outer) continue;
    done.add(evaluation.places.start(call.site));
    nestings.push({ call, inner: evaluation.places.site(call.site), outer, innerKeys: new Set(), lostKeys: new Set(), methods: new Set() });
  }
  if (nestings.length === 0) return [];
  // One pass over the records for every nested prefix() (a large file has thousands of records
  // per method, and hundreds of nested prefix() calls): each record's call stack is looked up.
  const byInner = new Map<number, Nesting>();
  const byOuter = new Map<number, Nesting[]>();
  for (const n of nestings) {
    byInner.set(n.inner.span.start, n);
    const list = byOuter.get(n.outer.span.start);
    if (list) list.push(n);
    else byOuter.set(n.outer.span.start, [n]);
  }
  const inside = new Set<Nesting>();
  evaluation.methods.forEach((result, m) => {
    const created = result.library.created;
    for (let ri = 0; ri < created.length; ri++) {
      const r = created[ri];
      if (r.via.length === 0) continue;
      inside.clear();
      for (const s of r.via) {
        const n = byInner.get(evaluation.places.start(s));
        if (n === undefined || inside.has(n)) continue;
        inside.add(n);
        n.innerKeys.add(keyToString(r.key));
        n.methods.add(REQUEST_METHODS[m]);
      }
      if (r.prefix !== '') continue;
      for (const s of r.via) {
        const outerOf = byOuter.get(evaluation.places.start(s));
        if (outerOf === undefined) continue;
        for (const n of outerOf) {
          if (inside.has(n) || evaluation.places.start(r.site) <= n.inner.span.start) continue;
          n.lostKeys.add(keyToString(r.key));
          n.methods.add(REQUEST_METHODS[m]);
        }
      }
    }
  });
  const callAt = new Map<number, RouteCall>();
  for (const c of prefixCalls) {
    const start = evaluation.places.start(c.site);
    if (!callAt.has(start)) callAt.set(start, c);
  }
  return nestings.map(({ call, inner, outer, innerKeys, lostKeys, methods }) => {
    const outerCall = callAt.get(outer.span.start);
    const name = (v: unknown) => (typeof v === 'string' ? `'${v}'` : 'its prefix');
    const parts: string[] = [];
    if (innerKeys.size) parts.push(`routes declared in here get only this prefix (${list(innerKeys)})`);
    if (lostKeys.size) parts.push(`when it returns the prefix is cleared: the routes after it in the outer closure get none (${list(lostKeys)})`);
    const message = `prefix() does not nest: ${name(call.args[0])} replaces the enclosing prefix ${name(outerCall?.args[0])} (line ${describe.line(outer.span)}) instead of adding to it.`;
    return finding('prefix-not-nested', inner.nameSpan, message, {
      ...(parts.length ? { details: parts.join('; ') } : {}),
      methods: sortMethods(methods),
      related: [{ span: outer.nameSpan, message: 'the enclosing prefix()' }],
    });
  });
};

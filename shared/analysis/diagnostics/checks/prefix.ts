import type { Places } from '../../../evaluate/places';
import { keyToString } from '../../../runtime/values';
import { REQUEST_METHODS, type RequestMethod } from '../../../runtime/methods';
import type { CallSite, RecordedSite } from '../../../library/records';
import type { RouteCall } from '../../../evaluate/interpreter';
import type { Check } from '../core/context';
import { CallGroups } from '../core/call-groups';
import { sortMethods } from '../../model/origins';
import { finding } from '../core/types';

/** Whether a call stack (a record's `via`) holds the call at `start`; a loop, not a closure per record. */
function holds(via: readonly RecordedSite[], start: number, places: Places): boolean {
  for (let i = 0; i < via.length; i++) if (places.start(via[i]) === start) return true;
  return false;
}

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
  // One pass over the records for every nested prefix() (a large file has thousands of records per method).
  evaluation.methods.forEach((result, m) => {
    const created = result.library.created;
    for (let ri = 0; ri < created.length; ri++) {
      const r = created[ri];
      if (r.via.length === 0) continue;
      for (const n of nestings) {
        if (holds(r.via, n.inner.span.start, evaluation.places)) {
          n.innerKeys.add(keyToString(r.key));
          n.methods.add(REQUEST_METHODS[m]);
        } else if (holds(r.via, n.outer.span.start, evaluation.places) && r.prefix === '' && evaluation.places.start(r.site) > n.inner.span.start) {
          n.lostKeys.add(keyToString(r.key));
          n.methods.add(REQUEST_METHODS[m]);
        }
      }
    }
  });
  return nestings.map(({ call, inner, outer, innerKeys, lostKeys, methods }) => {
    const outerCall = prefixCalls.find((c) => evaluation.places.start(c.site) === outer.span.start);
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

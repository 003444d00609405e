import { keyToString } from '../../../evaluate/values';
import { REQUEST_METHODS } from '../../../library/methods';
import type { CallSite } from '../../../library/records';
import type { Check } from '../context';
import { sortMethods } from '../../origins';
import { finding, type Finding } from '../types';

const sameSite = (a: CallSite, b: CallSite) => a.span.start === b.span.start;

function list(keys: Set<string>): string {
  const all = [...keys];
  const shown = all.slice(0, 4).map((k) => `'${k}'`).join(', ');
  return all.length > 4 ? `${shown} and ${all.length - 4} more` : shown;
}

/** `prefix()` inside `prefix()`: the inner one replaces the outer prefix and then clears it. */
export const prefixNesting: Check = ({ evaluation, describe }) => {
  const out: Finding[] = [];
  const done = new Set<number>();
  for (const call of evaluation.calls) {
    if (call.site.method !== 'prefix' || done.has(call.site.span.start)) continue;
    const outers = call.via.filter((s) => s.method === 'prefix');
    if (outers.length === 0) continue;
    done.add(call.site.span.start);
    const inner = call.site;
    const outer = outers[outers.length - 1];
    const innerKeys = new Set<string>();
    const lostKeys = new Set<string>();
    const methods = new Set<(typeof REQUEST_METHODS)[number]>();
    evaluation.methods.forEach((result, m) => {
      for (const r of result.library.created) {
        if (r.via.some((s) => sameSite(s, inner))) {
          innerKeys.add(keyToString(r.key));
          methods.add(REQUEST_METHODS[m]);
        } else if (r.via.some((s) => sameSite(s, outer)) && r.prefix === '' && r.site.span.start > inner.span.start) {
          lostKeys.add(keyToString(r.key));
          methods.add(REQUEST_METHODS[m]);
        }
      }
    });
    const outerCall = evaluation.calls.find((c) => sameSite(c.site, outer));
    const name = (v: unknown) => (typeof v === 'string' ? `'${v}'` : 'its prefix');
    const parts = [
      `prefix() does not nest: ${name(call.args[0])} replaces the prefix ${name(outerCall?.args[0])} of the enclosing prefix() at line ${describe.line(outer.span)} instead of adding to it`,
    ];
    if (innerKeys.size) parts.push(`routes declared in here get only this prefix (${list(innerKeys)})`);
    if (lostKeys.size) parts.push(`and when it returns the prefix is cleared, so the routes after it in the outer closure get no prefix at all (${list(lostKeys)})`);
    out.push(
      finding('prefix-not-nested', inner.nameSpan, `${parts.join('; ')}.`, {
        methods: sortMethods(methods),
        related: [{ span: outer.nameSpan, message: 'the enclosing prefix()' }],
      }),
    );
  }
  return out;
};

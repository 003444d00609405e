import { keyToString, normalizeStringKey } from '../../../runtime/values';
import { maskNames } from '../../../runtime/methods';
import type { Check } from '../core/context';
import { CallGroups, methodsAtSite } from '../core/call-groups';
import { namesOf, unknownNameMessage } from '../../model/name-declarations';
import { finding, type Finding } from '../core/types';

/**
 * `Route::named('x')` inside a route file for a name no route has. The workspace-wide check (all
 * route files, every PHP file's usages) lives in the workspace layer and replaces this one there.
 */
export function namedLookups(knownNames?: ReadonlySet<string>): Check {
  return ({ evaluation, text }) => {
    // The file's own names always count; the workspace adds the other route files'.
    let known: Set<string> | undefined;
    let own: Set<string> | undefined;
    const ownNames = (): Set<string> => {
      if (own) return own;
      own = new Set();
      for (const m of evaluation.methods) m.library.named.forEachNamed((r) => own!.add(keyToString(r.name)));
      return own;
    };
    const isKnown = (name: string) => knownNames?.has(name) || ownNames().has(name) || ownNames().has(keyToString(normalizeStringKey(name)));
    const out: Finding[] = [];
    const seen = new Set<number>();
    for (const call of CallGroups.of(evaluation).of('named')) {
      if (seen.has(evaluation.places.start(call.site))) continue;
      seen.add(evaluation.places.start(call.site));
      const name = call.args[0];
      const span = evaluation.places.site(call.site).argSpans[0];
      if (typeof name !== 'string' || !span || isKnown(name)) continue;
      known ??= new Set([...namesOf(evaluation), ...(knownNames ?? [])]);
      const quoted = /^['"]/.test(text.slice(span.start, span.start + 1));
      const inner = quoted ? { start: span.start + 1, end: span.end - 1 } : span;
      const { message, suggestions } = unknownNameMessage(name, known);
      out.push(
        finding('unknown-route-name', span, message, {
          methods: maskNames(methodsAtSite(evaluation, call)),
          fixes: quoted ? suggestions.map((s, i) => ({ title: `Change to '${s}'`, edits: [{ span: inner, newText: s }], preferred: i === 0 })) : [],
        }),
      );
    }
    return out;
  };
}

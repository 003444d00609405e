import { keyToString, normalizeStringKey } from '../../../evaluate/values';
import { maskNames } from '../../../library/methods';
import { analysisLimits, type FileEvaluation } from '../../../evaluate/evaluate-file';
import type { RouteRecord } from '../../../library/records';
import type { Check } from '../context';
import { CallGroups } from '../call-groups';
import { closestNames } from '../../names';
import { finding, type Finding } from '../types';

/** Every route name the file defines under any request method. */
export function namesOf(evaluation: FileEvaluation): Set<string> {
  return namesOfRecords(namedRecordsOf(evaluation));
}

/**
 * Whether the evaluation declared every name the file declares: an analysis limit (the step
 * budget, nesting beyond the analysable, routes per method) stops it or skips a statement, and
 * the names it did not reach are unknown to the analysis though PHP would declare them. A name
 * missing from the workspace's is then no evidence of a mistake.
 */
export function namesAreComplete(evaluation: FileEvaluation): boolean {
  return analysisLimits(evaluation).length === 0;
}

/** The records that name a route, every method's in order: the same objects while an edit leaves the names alone. */
export function namedRecordsOf(evaluation: FileEvaluation): RouteRecord[] {
  const records: RouteRecord[] = [];
  for (const m of evaluation.methods) m.library.named.forEachNamed((r) => records.push(r));
  return records;
}

export function namesOfRecords(records: readonly RouteRecord[]): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < records.length; i++) names.add(keyToString(records[i].name!));
  return names;
}

/** A message and suggestions for a name no route has. */
export function unknownNameMessage(name: string, known: Iterable<string>): { message: string; suggestions: string[] } {
  const suggestions = closestNames(name, known, Math.max(2, Math.floor(name.length / 3)), 3);
  const hint = suggestions.length ? ` Did you mean ${suggestions.map((s) => `'${s}'`).join(', ')}?` : '';
  return { message: `No route is named '${name}' under any request method: Route::named('${name}') returns null here.${hint}`, suggestions };
}

/**
 * `Route::named('x')` inside a route file for a name no route has. The workspace-wide check (all
 * route files, every PHP file's usages) lives in the workspace layer and replaces this one there.
 */
export function namedLookups(knownNames?: ReadonlySet<string>): Check {
  return ({ evaluation, text }) => {
    // The file's own names always count; the workspace adds the other route files'.
    let known: Set<string> | undefined;
    const isKnown = (name: string) => knownNames?.has(name) || evaluation.methods.some((m) => m.library.named.has(name) || m.library.named.has(normalizeStringKey(name)));
    const out: Finding[] = [];
    const seen = new Set<number>();
    for (const call of CallGroups.of(evaluation).of('named')) {
      if (seen.has(call.site.span.start)) continue;
      seen.add(call.site.span.start);
      const name = call.args[0];
      const span = call.site.argSpans[0];
      if (typeof name !== 'string' || !span || isKnown(name)) continue;
      known ??= new Set([...namesOf(evaluation), ...(knownNames ?? [])]);
      const quoted = /^['"]/.test(text.slice(span.start, span.start + 1));
      const inner = quoted ? { start: span.start + 1, end: span.end - 1 } : span;
      const { message, suggestions } = unknownNameMessage(name, known);
      out.push(
        finding('unknown-route-name', span, message, {
          methods: maskNames(call.mask),
          fixes: quoted ? suggestions.map((s, i) => ({ title: `Change to '${s}'`, edits: [{ span: inner, newText: s }], preferred: i === 0 })) : [],
        }),
      );
    }
    return out;
  };
}

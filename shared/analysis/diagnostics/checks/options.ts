import { methodsAtSite } from '../core/call-groups';
import { PhpArray } from '../../../runtime/values';
import { optionKeys, optionsArgIndex } from '../../../library/route-api';
import { maskNames } from '../../../runtime/methods';
import type { RouteCall } from '../../../evaluate/interpreter';
import type { Check } from '../core/context';
import { closestName } from '../../model/names';
import { finding, type Finding } from '../core/types';
import { checkState, type IgnoredOption } from './document-state';
import type { LiteralOrigin } from '../../../library/records';

const NONE: readonly IgnoredOption[] = [];

/**
 * The option keys one call passes that its method never reads. Calls replayed from an earlier
 * evaluation are the same objects with the same arguments: each is read once, not on every edit.
 * Spans are read from the origins when reported (they move with their statement).
 */
const ignoredByCall = new WeakMap<RouteCall, readonly IgnoredOption[]>();

function ignoredOptions(call: RouteCall): readonly IgnoredOption[] {
  let found = ignoredByCall.get(call);
  if (found) return found;
  found = NONE;
  const allowed = optionKeys(call.site.method);
  const idx = allowed ? optionsArgIndex(call.site.method, (i) => call.args[i] instanceof PhpArray) : undefined;
  const options = idx === undefined ? undefined : call.args[idx];
  if (allowed && idx !== undefined && options instanceof PhpArray) {
    options.forEachEntry((_value, key, origin) => {
      if (typeof key !== 'string' || allowed.includes(key)) return;
      if (found === NONE) found = [];
      (found as IgnoredOption[]).push({ key, literal: origin as LiteralOrigin | undefined, idx });
    });
  }
  ignoredByCall.set(call, found);
  return found;
}

/**
 * An option key the method never reads is silently ignored. The calls of the document's last
 * analysis are kept by position with what each passes that is ignored (its state's
 * `ignoredOptionsAt`): most calls stay where they were.
 */
export const unknownOptions: Check = ({ evaluation }) => {
  const out: Finding[] = [];
  const seen = new Set<string>();
  const calls = evaluation.calls;
  const ignoredAt = checkState(evaluation).ignoredOptionsAt;
  for (let ci = 0; ci < calls.length; ci++) {
    const call = calls[ci];
    const ignored = ignoredAt.get(ci, call, ignoredOptions);
    if (ignored.length === 0) continue;
    const allowed = optionKeys(call.site.method) ?? [];
    for (const { key, literal: recorded, idx } of ignored) {
      const literal = recorded && evaluation.places.literal(recorded);
      const span = literal?.keySpan ?? evaluation.places.site(call.site).argSpans[idx];
      if (!span || seen.has(`${span.start}:${key}`)) continue;
      seen.add(`${span.start}:${key}`);
      const suggestion = closestName(key, allowed, 2);
      const naming = key === 'as' ? ` Route::${call.site.written}() cannot name its routes.` : '';
      out.push(
        finding(
          'unknown-option',
          span,
          `'${key}' is not an option of Route::${call.site.written}(): it is ignored.${suggestion ? ` Did you mean '${suggestion}'?` : ''}`,
          {
            details: `Route::${call.site.written}() reads only ${allowed.map((a) => `'${a}'`).join(', ')}.${naming}`,
            methods: maskNames(methodsAtSite(evaluation, call)),
            fixes: suggestion && literal?.keySpan ? [{ title: `Change to '${suggestion}'`, edits: [{ span: innerString(literal.keySpan), newText: suggestion }] }] : [],
          },
        ),
      );
    }
  }
  ignoredAt.truncate(calls.length);
  return out;
};

/** The content of a quoted key's span (without its quotes). */
function innerString(span: { start: number; end: number }): { start: number; end: number } {
  return { start: span.start + 1, end: span.end - 1 };
}

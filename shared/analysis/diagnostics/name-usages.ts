import type { NamedUsage } from '../../workspace/php-index';
import { unknownNameMessage } from '../model/name-declarations';
import { finding, type Finding } from './core/types';

/**
 * `unknown-route-name` for the `Route::named()` calls of a PHP file that is not a route file (a
 * view, a controller), as plain findings: the argument is marked, and the closest known names are
 * offered as fixes of the string's content. Dynamic names are left alone. `pastErrors`: the
 * message for each name declared only after an error where PHP stops (see namesPastErrors).
 */
export function unknownNameUsages(usages: readonly NamedUsage[], known: ReadonlySet<string>, pastErrors: ReadonlyMap<string, string> = new Map()): Finding[] {
  const out: Finding[] = [];
  for (const u of usages) {
    if (u.name === undefined) continue;
    // Known to the analysis, but declared only where PHP never gets: the cause is named.
    const pastError = pastErrors.get(u.name);
    if (pastError !== undefined) {
      out.push(finding('unknown-route-name', u.argSpan ?? u.nameSpan ?? u.callSpan, pastError));
      continue;
    }
    if (known.has(u.name)) continue;
    const { message, suggestions } = unknownNameMessage(u.name, known);
    const nameSpan = u.nameSpan;
    const fixes = nameSpan ? suggestions.map((s, i) => ({ title: `Change to '${s}'`, preferred: i === 0, edits: [{ span: nameSpan, newText: s }] })) : [];
    out.push(finding('unknown-route-name', u.argSpan ?? nameSpan ?? u.callSpan, message, { fixes }));
  }
  return out;
}

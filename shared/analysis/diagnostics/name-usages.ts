import type { NamedUsage } from '../../workspace/php-index';
import { unknownNameMessage } from './checks/named';
import { finding, type Finding } from './types';

/**
 * `unknown-route-name` for the `Route::named()` calls of a PHP file that is not a route file (a
 * view, a controller), as plain findings: the argument is marked, and the closest known names are
 * offered as fixes of the string's content. Dynamic names are left alone.
 */
export function unknownNameUsages(usages: readonly NamedUsage[], known: ReadonlySet<string>): Finding[] {
  const out: Finding[] = [];
  for (const u of usages) {
    if (u.name === undefined || known.has(u.name)) continue;
    const { message, suggestions } = unknownNameMessage(u.name, known);
    const nameSpan = u.nameSpan;
    const fixes = nameSpan ? suggestions.map((s, i) => ({ title: `Change to '${s}'`, preferred: i === 0, edits: [{ span: nameSpan, newText: s }] })) : [];
    out.push(finding('unknown-route-name', u.argSpan ?? nameSpan ?? u.callSpan, message, { fixes }));
  }
  return out;
}

import type { FileEvaluation } from '../../evaluate/evaluate-file';
import { unescapedDelimiter } from '../../router/pattern';
import { targetLiterals } from '../model/target-literals';

export interface InlayHint {
  /** Right after the back-reference (`$1|`). */
  offset: number;
  label: string;
  kind: 'parameter';
}

/**
 * The capture groups of a route key as written (`(:num)`, `([a-z]+)`), group 1 first; groups
 * are numbered by their opening parenthesis, as PCRE does. Undefined when the key is not a
 * pattern CodeIgniter can use (a `#` ends it early, or a parenthesis is unbalanced).
 */
export function patternGroups(key: string): string[] | undefined {
  if (unescapedDelimiter(key) >= 0) return undefined;
  const groups: { start: number; end: number }[] = [];
  const open: { start: number; capture: number }[] = [];
  let inClass = false;
  for (let i = 0; i < key.length; i++) {
    const c = key[i];
    if (c === '\\') i++;
    else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      if (key[i + 1] === '^') i++;
      if (key[i + 1] === ']') i++;
    } else if (c === '(') {
      const capturing = key[i + 1] !== '?' || /^\(\?(P?<[A-Za-z_]|')/.test(key.slice(i, i + 4));
      if (capturing) groups.push({ start: i, end: -1 });
      open.push({ start: i, capture: capturing ? groups.length - 1 : -1 });
    } else if (c === ')') {
      const o = open.pop();
      if (!o) return undefined;
      if (o.capture >= 0) groups[o.capture].end = i + 1;
    }
  }
  if (open.length > 0 || inClass) return undefined;
  return groups.map((g) => key.slice(g.start, g.end));
}

const MAX_LABEL = 40;
const BACK_REFERENCE = /\$\{(\d{1,2})\}|\$(\d{1,2})/g;

function groupLabel(keys: readonly string[], n: number, cache: Map<string, string[] | undefined>): string | undefined {
  const sources: string[] = [];
  for (const key of keys) {
    if (!cache.has(key)) cache.set(key, patternGroups(key));
    const groups = cache.get(key);
    // CodeIgniter substitutes only when the key has a `(`; `$0` is then the whole match.
    if (!groups || !key.includes('(')) continue;
    const source = n === 0 ? 'whole match' : groups[n - 1];
    if (source !== undefined && !sources.includes(source)) sources.push(source);
  }
  if (sources.length === 0) return undefined;
  const shown = sources.slice(0, 3).join(' | ') + (sources.length > 3 ? ' | …' : '');
  return `← ${shown.length > MAX_LABEL ? `${shown.slice(0, MAX_LABEL - 1)}…` : shown}`;
}

/**
 * After each `$n` of a target literal, the capture group of the route's pattern it receives:
 * `← (:num)`. When the literal serves several patterns (a prefix or `$nested` callable repeating
 * it), their different groups are listed. No hint when no pattern is known or the group does not
 * exist (the backreference-out-of-range diagnostic covers that).
 */
export function backReferenceHints(text: string, evaluation: FileEvaluation): InlayHint[] {
  const hints: InlayHint[] = [];
  const cache = new Map<string, string[] | undefined>();
  for (const { literal, keys } of targetLiterals(text, evaluation)) {
    if (keys.length === 0) continue;
    const raw = text.slice(literal.contentSpan.start, literal.contentSpan.end);
    if (raw.indexOf('$') < 0) continue;
    BACK_REFERENCE.lastIndex = 0;
    for (let m = BACK_REFERENCE.exec(raw); m; m = BACK_REFERENCE.exec(raw)) {
      const label = groupLabel(keys, Number(m[1] ?? m[2]), cache);
      if (label) hints.push({ offset: literal.contentSpan.start + m.index + m[0].length, label, kind: 'parameter' });
    }
  }
  return hints;
}

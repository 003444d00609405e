import { fuzzyMatches, matchGroups } from '../../../shared/analysis/features/completion/completion-match';

/** At most this many completion items per answer; past it the list is marked incomplete. */
export const MAX_COMPLETION_ITEMS = 100;

export { fuzzyMatches };

const byLabel = (a: { label: string }, b: { label: string }) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);

/** Sorts by label unless already sorted (route names come sorted: a second sort per keystroke is waste). */
function sortedByLabel<E extends { label: string }>(list: E[]): E[] {
  for (let i = 1; i < list.length; i++) if (byLabel(list[i - 1], list[i]) > 0) return list.sort(byLabel);
  return list;
}

/**
 * Keeps the entries matching what was typed before the cursor, best first (prefix matches, then
 * the rest, each by label), at most MAX_COMPLETION_ITEMS of them; `complete` is false when some
 * were left out, so the editor asks again as the user types.
 */
export function filterCompletions<E extends { label: string }>(entries: readonly E[], typedFor: (e: E) => string): { items: E[]; complete: boolean } {
  if (entries.length <= MAX_COMPLETION_ITEMS) return { items: [...entries], complete: true };
  const { prefixed, others } = matchGroups(entries, (e) => e.label.toLowerCase(), (e) => typedFor(e).toLowerCase());
  const ranked = [...sortedByLabel(prefixed), ...sortedByLabel(others)];
  return { items: ranked.slice(0, MAX_COMPLETION_ITEMS), complete: ranked.length <= MAX_COMPLETION_ITEMS };
}

import type { Places } from '../../../evaluate/places';
import { isDynamicKey } from '../../../library/records';
import { REQUEST_METHODS } from '../../../runtime/methods';
import type { EntryOriginInfo } from '../../../library/records';
import { CompiledPattern } from '../../../router/pattern';
import { steppedCheck, type Check } from '../core/context';
import { MethodGroups, fromSpan, toSpan } from '../../model/origins';
import { finding, type Finding } from '../core/types';
import { tableView, type TableView } from '../../model/table-view';
import { checkState, type PatternIssue } from './document-state';

interface Issue {
  span: { start: number; end: number };
  message: string;
}

interface BackrefIssue {
  span: { start: number; end: number };
  kind: 'nogroup' | 'beyond';
  examples: string[];
  generated: boolean;
}

function addExample(g: BackrefIssue, example: string): void {
  if (!g.examples.includes(example)) g.examples.push(example);
}

/** Where a generated route's pattern or target comes from: its options, else the call. */
function optionsSpan(origin: EntryOriginInfo, places: Places): { start: number; end: number } {
  if (origin.kind !== 'route') return places.entry(origin).valueSpan;
  const site = origin.site;
  if (site.method === 'resources') return places.argSpan(site, 1) ?? places.span(site);
  if (site.method === 'context') return places.argSpan(site, site.placed.argSpans.length - 1) ?? places.span(site);
  return toSpan(origin, places);
}

const BACKREF = /\$\{(\d{1,2})\}|\$(\d{1,2})|\\(\d{1,2})/g;

/** The back-references of a target, in order. */
function backReferences(target: string): { text: string; n: number }[] {
  return [...target.matchAll(BACKREF)].map((x) => ({ text: x[0], n: Number(x[1] ?? x[2] ?? x[3]) }));
}

/**
 * The largest back-reference number in each target (-1: none), by target text: every entry of a
 * large file is judged under each method, and most targets are judged again and again. A number,
 * not the list: the list is made only for the few targets a finding quotes. Kept for one run of
 * the check, as keySyntax's memo is.
 */
const largestRefs = new Map<string, number>();

function largestBackReference(target: string): number {
  if (!target.includes('$') && !target.includes('\\')) return -1;
  let largest = largestRefs.get(target);
  if (largest === undefined) {
    largest = -1;
    for (const ref of backReferences(target)) largest = Math.max(largest, ref.n);
    largestRefs.set(target, largest);
  }
  return largest;
}

function isGenerated(origin: EntryOriginInfo): boolean {
  return origin.kind === 'route' && (origin.site.method === 'resources' || origin.site.method === 'context');
}

/** What the check reads of a key: why PCRE rejects it for certain, or its groups. */
type KeySyntax = { readonly why: string } | { readonly groups: number; readonly substitutes: boolean };

/**
 * Keys' syntax, by key text, for one run of the check: its first run judges every entry of each
 * method's table (the same keys under each), and later runs only the entries an edit changed
 * (see EntryResults), which need no memo. Kept across runs, the memos held 3.5 MB at 10,000
 * declarations (a compiled pattern with its expanded text per key had been 6.7 MB).
 */
const syntaxOfKeys = new Map<string, KeySyntax>();
/** The answers of valid keys, shared by all keys with as many groups (most keys have none to three). */
const VALID: KeySyntax[][] = [[], []];

function keySyntax(key: string): KeySyntax {
  let syntax = syntaxOfKeys.get(key);
  if (!syntax) {
    const pattern = new CompiledPattern(key);
    const why = pattern.syntaxError;
    if (why) syntax = { why };
    else {
      const shared = VALID[pattern.substitutes ? 1 : 0]!;
      syntax = shared[pattern.groups] ??= Object.freeze({ groups: pattern.groups, substitutes: pattern.substitutes });
    }
    syntaxOfKeys.set(key, syntax);
  }
  return syntax;
}

function judgeEntry(view: TableView, i: number): PatternIssue | undefined {
  const key = view.keys[i];
  if (key === 'default_controller' || key === 'translate_uri_dashes') return undefined;
  const origin = view.origins[i];
  // An unknown key (an $route[$unknown] entry): its groups are not known.
  if (!origin || (origin.kind === 'route' && origin.dynamic) || isDynamicKey(key)) return undefined;
  // Only structural errors are reported: they make PCRE fail for certain (no compilation needed).
  const pattern = keySyntax(key);
  if ('why' in pattern) return { kind: 'invalid', why: pattern.why };
  const value = view.values[i];
  if (typeof value !== 'string') return undefined;
  const largest = largestBackReference(value);
  if (largest < 0) return undefined;
  if (!pattern.substitutes) return { kind: 'nogroup', example: `'${value}' (pattern '${key}')` };
  if (largest <= pattern.groups) return undefined;
  const beyond = backReferences(value).filter((r) => r.n > pattern.groups);
  const substituted = value.replace(BACKREF, (w, a, b, c) => (Number(a ?? b ?? c) > pattern.groups ? '' : w));
  return {
    kind: 'beyond',
    example: `${beyond.map((r) => `'${r.text}'`).join(', ')} in '${value}' (pattern '${key}', ${pattern.groups} group${pattern.groups === 1 ? '' : 's'}) becomes '${substituted}'`,
  };
}

/**
 * `invalid-pattern`: a key PCRE rejects (the route never matches); `backreference-out-of-range`:
 * a `$n` in a target beyond the key's groups, or any `$n` when the key has no group at all.
 * Entries are judged once and again only when an edit changes them (the document's
 * `patternIssues`, see EntryResults).
 */
export const patternChecks: Check = steppedCheck('patternChecks', function* ({ evaluation }) {
  const judged = checkState(evaluation).patternIssues;
  const invalid = new MethodGroups<Issue>();
  const backrefs = new MethodGroups<BackrefIssue>();
  try {
    for (const [m, result] of evaluation.methods.entries()) {
      const routes = result.routes;
      if (!routes) continue;
      const method = REQUEST_METHODS[m];
      const view = tableView(evaluation, routes);
      for (const [i, issue] of yield* judged.ofSteps(view, m, undefined, judgeEntry)) {
        const key = view.keys[i];
        const origin = view.origins[i]!;
        const generated = isGenerated(origin);
        if (issue.kind === 'invalid') {
          const span = generated && origin.kind === 'route' && origin.site.method === 'resources' && origin.row !== 'index' && origin.row !== 'create_new' && origin.row !== 'create' ? optionsSpan(origin, evaluation.places) : fromSpan(origin, evaluation.places);
          invalid.add(`${span.start}:${key}`, method, () => ({
            span,
            message: `'${key}' is not a valid regular expression (${issue.why}): this route never matches.`,
          }));
          continue;
        }
        const span = generated ? optionsSpan(origin, evaluation.places) : toSpan(origin, evaluation.places);
        const g = backrefs.add(`${span.start}:${issue.kind}`, method, () => ({ span, kind: issue.kind, examples: [], generated }));
        addExample(g, issue.example);
      }
    }
  } finally {
    // A run's memos go with it, finished or given up (see syntaxOfKeys). A run of another
    // document's check interleaved with this one (both pause) may find them emptied: it makes
    // again what it needs.
    syntaxOfKeys.clear();
    largestRefs.clear();
  }
  const out: Finding[] = [];
  for (const { value, methods } of invalid.entries()) out.push(finding('invalid-pattern', value.span, value.message, { methods, details: "CodeIgniter's preg_match() fails on it with a warning" }));
  for (const { value, methods } of backrefs.entries()) {
    const shown = value.examples.slice(0, 3).join('; ') + (value.examples.length > 3 ? `; and ${value.examples.length - 3} more` : '');
    const message =
      value.kind === 'nogroup'
        ? `The pattern has no group: its back-references reach the controller literally.`
        : `A back-reference points past the pattern's groups: CodeIgniter puts an empty string there.`;
    const details =
      value.kind === 'nogroup'
        ? `CodeIgniter substitutes back-references only for a pattern with a group: ${shown}${value.generated ? ". Give the 'constraint' a capture group, e.g. '([0-9]+)'" : ''}`
        : `${shown}${value.generated ? " (the 'offset' option shifts every back-reference)" : ''}`;
    out.push(finding('backreference-out-of-range', value.span, message, { methods, details }));
  }
  return out;
});

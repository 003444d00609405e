import { expandModuleWildcards } from '../../router/pattern';
import { mayStartWith } from '../regular/pattern-automata';
import { utf8Bytes } from '../../util/utf8-bytes';
import { buildDfa } from '../regular/dfa-build';
import { translateExpanded } from '../regular/inclusion-syntax';

/** Characters that end a key's literal prefix (regular expression syntax). */
const META = new Set([...'\\.[](){}*+?|^$']);
/** Decisions kept at most (key and module → never consulted or not). */
const MAX_DECISIONS = 50_000;

/** The text every URI a key matches starts with, as far as the key spells it out. */
function literalPrefix(expanded: string): string {
  // A top-level alternative may start anywhere: no prefix then.
  if (expanded.includes('|')) return '';
  let i = 0;
  while (i < expanded.length && !META.has(expanded[i]!)) i++;
  // `blogs?`, `blog*`, `x{0,2}`: the last letter may be absent.
  const quantified = expanded[i] === '?' || expanded[i] === '*' || expanded[i] === '{';
  return expanded.slice(0, quantified ? Math.max(0, i - 1) : i);
}

/**
 * The dash every URI a module key matches has in its first three segments, as far as the key's
 * literal prefix spells them out (`blog/my-archive/(:num)`: 'my-archive'); undefined when it
 * spells none. Under `translate_uri_dashes`, Modular Extensions' _set_request() turns those
 * segments' dashes into underscores before Modules::parse_routes() reads the module's keys.
 */
export function dashedLeadingSegment(key: string): string | undefined {
  const leading = literalPrefix(expandModuleWildcards(key)).split('/').slice(0, 3);
  return leading.find((segment) => segment.includes('-'));
}

/** Whether text starting with `prefix` can never be `module` or start with `module/`. */
export function prefixRulesOut(prefix: string, module: string): boolean {
  return !(prefix === module || prefix.startsWith(`${module}/`) || `${module}/`.startsWith(prefix));
}

/**
 * Whether no URI a module's routes file is consulted for (`module`, or `module/…`) matches the key.
 * Decided from the key's literal prefix, else from its automaton when the key can only match the
 * characters a URI may hold (a main route's target may hand the module other characters: a key
 * with `.`, a negated class, an escape or a non-ASCII character is then left undecided).
 */
function decideNeverConsulted(key: string, module: string): boolean {
  const expanded = expandModuleWildcards(key);
  if (prefixRulesOut(literalPrefix(expanded), module)) return true;
  if (/[^\x20-\x7e]|\\|\.|\[\^/.test(expanded)) return false;
  const translation = translateExpanded(expanded);
  if (!translation.ok) return false;
  try {
    return !mayStartWith(buildDfa(translation.alternatives), utf8Bytes(module));
  } catch {
    return false; // too large, or a syntax the automata do not read: undecided
  }
}

const decisions = new Map<string, boolean>();

/**
 * Whether a key, read as Modules::parse_routes() reads it (`:any` across segments), matches no URI
 * that is `module` or starts with `module/`: no URI the HMVC routers consult the module's routes
 * file for. A main route's key for which this holds never takes one of the module's URIs either
 * (CodeIgniter's `:any` is one segment: it matches less).
 */
export function neverConsulted(key: string, module: string): boolean {
  const memo = `${module}\u0000${key}`;
  let never = decisions.get(memo);
  if (never === undefined) {
    never = decideNeverConsulted(key, module);
    if (decisions.size >= MAX_DECISIONS) decisions.clear();
    decisions.set(memo, never);
  }
  return never;
}

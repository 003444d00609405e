import { REQUEST_METHODS } from '../../../library/methods';
import { expandModuleWildcards } from '../../../router/pattern';
import { buildDfa, isRoutableUri, mayStartWith } from '../../pattern-automata';
import { translateExpanded } from '../../inclusion-syntax';
import type { RouteFileRouting } from '../../target-scope';
import { MethodGroups, toSpan } from '../../origins';
import { steppedCheck, type Check } from '../context';
import { tableView } from '../table-view';
import type { Span } from '../../../php/ast';
import { finding, type Finding } from '../types';

/** Keys the router reads for themselves, never as patterns of a request. */
const RESERVED = new Set(['default_controller', '404_override', 'translate_uri_dashes']);
/** Characters that end a key's literal prefix (regular expression syntax). */
const META = new Set([...'\\.[](){}*+?|^$']);
/** Decisions kept at most (key and module → dead or not). */
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

/** Whether text starting with `prefix` can never be `module` or start with `module/`. */
function prefixRulesOut(prefix: string, module: string): boolean {
  return !(prefix === module || prefix.startsWith(`${module}/`) || `${module}/`.startsWith(prefix));
}

/**
 * Whether no URI a module's routes file is consulted for (`module`, or `module/…`) matches the key.
 * Decided from the key's literal prefix, else from its automaton when the key can only match the
 * characters a URI may hold (a main route's target may hand the module other characters: a key
 * with `.`, a negated class, an escape or a non-ASCII character is then left undecided).
 */
function neverConsulted(key: string, module: string): boolean {
  const expanded = expandModuleWildcards(key);
  if (prefixRulesOut(literalPrefix(expanded), module)) return true;
  if (/[^\x20-\x7e]|\\|\.|\[\^/.test(expanded)) return false;
  const translation = translateExpanded(expanded);
  if (!translation.ok) return false;
  try {
    return !mayStartWith(buildDfa(translation.alternatives), module);
  } catch {
    return false; // too large, or a syntax the automata do not read: undecided
  }
}

const decisions = new Map<string, boolean>();

function decide(key: string, module: string): boolean {
  const memo = `${module}\u0000${key}`;
  let dead = decisions.get(memo);
  if (dead === undefined) {
    dead = neverConsulted(key, module);
    if (decisions.size >= MAX_DECISIONS) decisions.clear();
    decisions.set(memo, dead);
  }
  return dead;
}

const ROUTER_NAMES = { mx: "Modular Extensions' router", bonfire: "Bonfire's router" } as const;

/**
 * `unreachable-route` in a module's routes file: a key no URI of the module matches. The HMVC
 * routers consult `modules/<m>/config/routes.php` only for a URI (after the main routes) whose
 * first segment is `<m>` (Modules::parse_routes($segments[0], …)), and match each key against the
 * whole URI: a key that cannot start with `<m>/` (nor be `<m>`) is never tried.
 */
export function moduleKeyReach(routing: RouteFileRouting | undefined): Check {
  return steppedCheck('moduleKeyReach', function* ({ evaluation }) {
    const module = routing?.module;
    if (module === undefined || routing!.flavour === 'ci' || !isRoutableUri(module)) return [];
    const router = ROUTER_NAMES[routing!.flavour];
    const groups = new MethodGroups<{ span: Span; message: string }>();
    let work = 0;
    for (const [m, result] of evaluation.methods.entries()) {
      if (!result.routes || result.error) continue;
      const view = tableView(result.routes);
      for (let i = 0; i < view.keys.length; i++) {
        if (++work % 512 === 0) yield;
        const key = view.keys[i]!;
        const origin = view.origins[i];
        if (RESERVED.has(key) || !origin || (origin.kind === 'route' && origin.dynamic) || !decide(key, module)) continue;
        const span = origin.kind === 'route' && origin.row ? origin.site.span : toSpan(origin);
        groups.add(`${span.start}:${key}`, REQUEST_METHODS[m]!, () => ({
          span,
          message: `'${key}' is never reached: ${router} reads module ${module}'s routes file only for URIs that are '${module}' or start with '${module}/', and this key matches none of them. Write the key from the module's name ('${module}/…').`,
        }));
      }
    }
    const out: Finding[] = [];
    for (const { value, methods } of groups.entries()) out.push(finding('unreachable-route', value.span, value.message, { methods }));
    return out;
  });
}

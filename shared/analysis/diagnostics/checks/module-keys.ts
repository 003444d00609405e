import type { FileEvaluation } from '../../../evaluate/evaluate-file';
import type { MainRoutes } from '../../model/main-routes';
import { PhpArray, keyToString, type Value } from '../../../runtime/values';
import { REQUEST_METHODS, type RequestMethod } from '../../../runtime/methods';
import { isDynamicKey } from '../../../library/records';
import { LineIndex } from '../../../php/line-index';
import { InclusionChecker } from '../../regular/inclusion';
import { compileModuleRouteKey, expandModuleWildcards } from '../../../router/pattern';
import { ROUTER_SETTING_KEYS } from '../../../router/ci-router';
import { SYMBOLS, isRoutableUri, mayContinue, mayStartWith } from '../../regular/pattern-automata';
import { buildDfa } from '../../regular/dfa-build';
import { translateExpanded } from '../../regular/inclusion-syntax';
import type { RouteFileRouting } from '../../model/target-scope';
import { MethodGroups, toSpan } from '../../model/origins';
import { steppedCheck, type Check } from '../core/context';
import { tableView, type TableView } from '../../model/table-view';
import type { Span } from '../../../php/ast';
import { finding, type Finding } from '../core/types';

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

/** Characters written with a backslash in a key made here. */
const REGEX_SPECIAL = /[\\^$.|?*+()[\]{}#/-]/g;
const escapeKey = (text: string) => text.replace(REGEX_SPECIAL, '\\$&');

/**
 * Keys (CodeIgniter's syntax) matching every URI that is neither `module` nor starts with
 * `module/`: with the main routes' keys, they cover a module key exactly when every URI of the
 * module it matches is matched by a main route.
 */
function outsideModule(module: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < module.length; i++) {
    const head = escapeKey(module.slice(0, i));
    out.push(`${head}[^${escapeKey(module[i]!)}].*`);
    if (i > 0) out.push(head);
  }
  out.push(`${escapeKey(module)}[^/].*`);
  return out;
}

/** A main route as the module check reads it: its key, and where it is declared (copied: the evaluation's spans may move). */
interface MainEntry {
  key: string;
  start: number;
  /** The included file it lies in, if not the main file itself. */
  file?: { path: string; text: string };
}

/**
 * What one method's main table tells the module check: its keys in order, or why it cannot be
 * read (a key that is not known, a target that may lead into the module). Read once per table,
 * before any pause: the evaluation it comes from may be replayed by the next version of the main file.
 */
type MainTable = { entries: MainEntry[]; into: ({ uri: string } | { prefix: string })[]; lines: () => LineIndex } | { undecided: true };

/** `line 12`, or `api.php line 3` for a route of a file the main file included. */
function whereDeclared(entry: MainEntry, mainLines: () => LineIndex): string {
  if (!entry.file) return `line ${mainLines().lineOf(entry.start) + 1}`;
  return `${entry.file.path.split(/[\\/]/).pop()} line ${new LineIndex(entry.file.text).lineOf(entry.start) + 1}`;
}

/**
 * Where a main route's target may send a request, for `module`: nowhere in it; to one URI of it
 * (a target without back-references is the URI the module's routes file is read for); or
 * anywhere in it (a back-reference, a closure's answer, an unknown value).
 */
function leadsInto(value: Value, module: string): 'no' | { uri: string } | { prefix: string } | 'any' {
  if (typeof value !== 'string') return 'any';
  if (value === '') return 'no'; // a blocked path goes to the default controller, read on its own
  const literal = value.split('$')[0]!;
  // Module folders may be found whatever the case on some file systems: compared in lower case.
  if (prefixRulesOut(literal.toLowerCase(), module.toLowerCase())) return 'no';
  if (!value.includes('$')) return { uri: value };
  // `shop/orders/show/$1`: the URIs it makes start with what comes before the back-reference, and
  // go on with URI characters (what the back-references copy) and the target's own text.
  const ownText = value.replace(/\$\{?\d+\}?/g, '');
  return literal.toLowerCase().startsWith(`${module.toLowerCase()}/`) && [...ownText].every((c) => SYMBOLS.includes(c)) ? { prefix: literal } : 'any';
}

function readMainTable(main: FileEvaluation, routes: PhpArray, method: RequestMethod, module: string, lines: () => LineIndex): MainTable {
  const view = tableView(main, routes);
  const places = main.places;
  const verb = method === 'CLI' ? 'cli' : method.toLowerCase();
  const entries: MainEntry[] = [];
  const into: ({ uri: string } | { prefix: string })[] = [];
  for (let i = 0; i < view.keys.length; i++) {
    const key = view.keys[i]!;
    const origin = view.origins[i];
    let value: Value = view.values[i]!;
    // Dashes turned into underscores before the module is looked up: URIs are then not read as written.
    if (key === 'translate_uri_dashes') {
      if (value !== false) return { undecided: true };
      continue;
    }
    // The default controller and 404_override are looked up through the module's routes too.
    if (key === 'default_controller' || key === '404_override') {
      if (leadsInto(value, module) !== 'no') return { undecided: true };
      continue;
    }
    if ((origin && origin.kind === 'route' && origin.dynamic) || isDynamicKey(key)) return { undecided: true };
    if (value instanceof PhpArray) {
      const hit = [...value.entries()].find(([k]) => keyToString(k).toLowerCase() === verb);
      if (!hit) continue;
      value = hit[1];
    }
    const lead = leadsInto(value, module);
    if (lead === 'any') return { undecided: true };
    if (lead !== 'no') into.push(lead);
    const span = origin ? toSpan(origin, places) : { start: 0, end: 0 };
    entries.push(span.file ? { key, start: span.start, file: { path: span.file.path, text: span.file.text } } : { key, start: span.start });
  }
  return { entries, into, lines };
}

/** Whether the key (a module's) may match a URI starting with `prefix` (true when that cannot be decided). */
function mayMatchAfter(key: string, prefix: string): boolean {
  const translation = translateExpanded(expandModuleWildcards(key));
  if (!translation.ok) return true;
  try {
    return mayContinue(buildDfa(translation.alternatives), prefix);
  } catch {
    return true;
  }
}

/** The main routes' checker (CodeIgniter's wildcards; a module key is handed over written out). */
const mainChecker = new InclusionChecker();

/** The main routes that match every URI of `module` the key matches, when they do (their targets all lead elsewhere). */
function coveredByMain(key: string, module: string, main: { entries: MainEntry[]; into: ({ uri: string } | { prefix: string })[] }): MainEntry[] | undefined {
  // A main route's target that is a URI of the module this key matches, or makes URIs it may match, reaches it.
  if (main.into.length && main.into.some((lead) => (('uri' in lead) ? compileModuleRouteKey(key).match(lead.uri) !== null : mayMatchAfter(key, lead.prefix)))) return undefined;
  const outside = outsideModule(module);
  const c = mainChecker.coverage(expandModuleWildcards(key), [...main.entries.map((e) => e.key), ...outside]);
  if (c.kind !== 'covered') return undefined;
  return c.by.filter((i) => i < main.entries.length).map((i) => main.entries[i]!);
}

/** Each method's main table as the check reads it (none where the main file has no table). */
function mainTablesOf(main: MainRoutes | undefined, module: string): (MainTable | undefined)[] {
  if (!main) return [];
  let index: LineIndex | undefined;
  const text = main.text;
  const lines = () => (index ??= new LineIndex(text));
  // Methods often share one table: read once per table and method's verb (`$route[key]['post']`).
  const byTable = new Map<PhpArray, Map<string, MainTable>>();
  return main.evaluation.methods.map((result, m) => {
    if (!result.routes || result.error) return undefined;
    const method = REQUEST_METHODS[m]!;
    let byVerb = byTable.get(result.routes);
    if (!byVerb) byTable.set(result.routes, (byVerb = new Map()));
    let table = byVerb.get(method);
    if (!table) byVerb.set(method, (table = readMainTable(main.evaluation, result.routes, method, module, lines)));
    return table;
  });
}

const ROUTER_NAMES = { mx: "Modular Extensions' router", bonfire: "Bonfire's router" } as const;

/**
 * `unreachable-route` in a module's routes file: a key no URI of the module matches. The HMVC
 * routers consult `modules/<m>/config/routes.php` only for a URI (after the main routes) whose
 * first segment is `<m>` (Modules::parse_routes($segments[0], …)), and match each key against the
 * whole URI: a key that cannot start with `<m>/` (nor be `<m>`) is never tried.
 */
export function moduleKeyReach(routing: RouteFileRouting | undefined, main?: MainRoutes): Check {
  return steppedCheck('moduleKeyReach', function* ({ evaluation }) {
    const module = routing?.module;
    if (module === undefined || routing!.flavour === 'ci' || !isRoutableUri(module)) return [];
    const router = ROUTER_NAMES[routing!.flavour];
    const mainTables = mainTablesOf(main, module);
    const groups = new MethodGroups<{ span: Span; message: string }>();
    let work = 0;
    for (const [m, result] of evaluation.methods.entries()) {
      if (!result.routes) continue;
      const view: TableView = tableView(evaluation, result.routes);
      const mainTable = mainTables[m];
      for (let i = 0; i < view.keys.length; i++) {
        if (++work % 64 === 0) yield;
        const key = view.keys[i]!;
        const origin = view.origins[i];
        if (ROUTER_SETTING_KEYS.has(key) || isDynamicKey(key) || !origin || (origin.kind === 'route' && origin.dynamic)) continue;
        const span = origin.kind === 'route' && origin.row ? evaluation.places.site(origin.site).span : toSpan(origin, evaluation.places);
        if (decide(key, module)) {
          groups.add(`${span.start}:${key}`, REQUEST_METHODS[m]!, () => ({
            span,
            message: `'${key}' is never reached: ${router} reads module ${module}'s routes file only for URIs that are '${module}' or start with '${module}/', and this key matches none of them. Write the key from the module's name ('${module}/…').`,
          }));
          continue;
        }
        const by = mainTable && 'entries' in mainTable ? coveredByMain(key, module, mainTable) : undefined;
        if (!by) continue;
        const firsts = by.map((e) => `'${e.key}' (${whereDeclared(e, (mainTable as { lines: () => LineIndex }).lines)})`).join(', ');
        groups.add(`${span.start}:${key}:main`, REQUEST_METHODS[m]!, () => ({
          span,
          message: `'${key}' is never reached: every URI of module ${module} it matches is matched first by the main routes file, by ${firsts}, whose targets lead elsewhere; ${router} reads this file only for what the main routes leave to the module.`,
        }));
      }
    }
    const out: Finding[] = [];
    for (const { value, methods } of groups.entries()) out.push(finding('unreachable-route', value.span, value.message, { methods }));
    return out;
  });
}

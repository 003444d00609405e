import type { MainRoutes } from '../../model/main-routes';
import { mainTablesOf, type MainEntry, type MainLead } from '../../model/main-tables';
import { dashedLeadingSegment, neverConsulted } from '../../model/module-uris';
import { translatesDashesUnder } from '../../model/target-dispatch';
import { moduleOfRouteFile } from '../../../app/layout';
import { describeIncludedPlace } from '../../model/included-places';
import { REQUEST_METHODS } from '../../../runtime/methods';
import { isDynamicKey } from '../../../library/records';
import { LineIndex } from '../../../php/line-index';
import { InclusionChecker } from '../../regular/inclusion';
import { compileModuleRouteKey, expandModuleWildcards } from '../../../router/pattern';
import { ROUTER_SETTING_KEYS } from '../../../router/ci-router';
import { isRoutableUri, mayContinue } from '../../regular/pattern-automata';
import { utf8Bytes } from '../../../util/utf8-bytes';
import { buildDfa } from '../../regular/dfa-build';
import { translateExpanded } from '../../regular/inclusion-syntax';
import { keyWithinDefaultChars } from '../../regular/default-chars-keys';
import type { RouteFileRouting } from '../../model/target-scope';
import { MethodGroups, toSpan } from '../../model/origins';
import { steppedCheck, type Check } from '../core/context';
import { tableView, type TableView } from '../../model/table-view';
import type { Span } from '../../../php/ast';
import { finding, type Finding, type RelatedInfo } from '../core/types';

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

/** `line 12`, or `api.php line 3` for a route of a file the main file included. */
function whereDeclared(entry: MainEntry, mainLines: () => LineIndex): string {
  return entry.file ? describeIncludedPlace({ start: entry.start, end: entry.end, file: entry.file }) : `line ${mainLines().lineOf(entry.start) + 1}`;
}

/** Where a main route is declared, for related information: in the main file (when its path is known) or a file it included. */
function declaredAt(entry: MainEntry, main: MainRoutes): RelatedInfo | undefined {
  const message = `matched first in the main routes: '${entry.key}'`;
  if (entry.file) return { span: { start: entry.start, end: entry.end, file: entry.file }, file: entry.file.path, message };
  return main.file === undefined ? undefined : { span: { start: entry.start, end: entry.end }, file: main.file, text: main.text, message };
}

/** Whether the key (a module's) may match a URI starting with `prefix` (true when that cannot be decided). */
function mayMatchAfter(key: string, prefix: string): boolean {
  // On bytes, as the router's preg_match() reads them (see utf8Bytes).
  const translation = translateExpanded(utf8Bytes(expandModuleWildcards(key)));
  if (!translation.ok) return true;
  try {
    return mayContinue(buildDfa(translation.alternatives), utf8Bytes(prefix));
  } catch {
    return true;
  }
}

/** The main routes' checker (CodeIgniter's wildcards; a module key is handed over written out). */
const mainChecker = new InclusionChecker();

/** The main routes that match every URI of `module` the key matches, when they do (their targets all lead elsewhere). */
function coveredByMain(key: string, module: string, main: { entries: MainEntry[]; into: MainLead[] }): MainEntry[] | undefined {
  // A main route's target that is a URI of the module this key matches, or makes URIs it may match, reaches it.
  if (main.into.length && main.into.some((lead) => (('uri' in lead) ? compileModuleRouteKey(key).match(lead.uri) !== null : mayMatchAfter(key, lead.prefix)))) return undefined;
  const outside = outsideModule(module);
  const c = mainChecker.coverage(expandModuleWildcards(key), [...main.entries.map((e) => e.key), ...outside]);
  if (c.kind !== 'covered') return undefined;
  return c.by.filter((i) => i < main.entries.length).map((i) => main.entries[i]!);
}

/** A main table without the routes of the module's own routes file, which the main file included. */
function withoutOwn(table: { entries: MainEntry[]; into: MainLead[] }, module: string): { entries: MainEntry[]; into: MainLead[] } {
  return { entries: table.entries.filter((e) => !e.file || moduleOfRouteFile(e.file.path) !== module), into: table.into };
}

const ROUTER_NAMES = { mx: "Modular Extensions' router", bonfire: "Bonfire's router" } as const;

/**
 * `unreachable-route` in a module's routes file: a key no URI of the module matches. The HMVC
 * routers consult `modules/<m>/config/routes.php` only for a URI (after the main routes) whose
 * first segment is `<m>` (Modules::parse_routes($segments[0], …)), and match each key against the
 * whole URI: a key that cannot start with `<m>/` (nor be `<m>`) is never tried.
 */
export function moduleKeyReach(
  routing: RouteFileRouting | undefined,
  main?: MainRoutes,
  /** The main routes file includes this one: its keys are main routes too (reached as such), and its own keys among the main ones take nothing from it. */
  mainRoutesToo = false,
  /** Only keys every URI of which is of CodeIgniter's default characters are judged (see reachability's literalKeysOnly). */
  literalKeysOnly = false,
): Check {
  return steppedCheck('moduleKeyReach', function* ({ evaluation }) {
    const module = routing?.module;
    if (module === undefined || routing!.flavour === 'ci' || !isRoutableUri(utf8Bytes(module))) return [];
    const router = ROUTER_NAMES[routing!.flavour];
    const mainTables = mainTablesOf(main, module);
    let mainIndex: LineIndex | undefined;
    const mainLines = () => (mainIndex ??= LineIndex.of(main!.text));
    const groups = new MethodGroups<{ span: Span; message: string; related: RelatedInfo[] }>();
    let work = 0;
    for (const [m, result] of evaluation.methods.entries()) {
      if (!result.routes) continue;
      const view: TableView = tableView(evaluation, result.routes);
      const mainTable = mainTables[m];
      // Modular Extensions turns the first three segments' dashes into underscores first (translate_uri_dashes).
      const dashesTranslated = routing!.flavour === 'mx' && !mainRoutesToo && main !== undefined && translatesDashesUnder(main.evaluation, m);
      for (let i = 0; i < view.keys.length; i++) {
        if (++work % 64 === 0) yield;
        const key = view.keys[i]!;
        const origin = view.origins[i];
        if (ROUTER_SETTING_KEYS.has(key) || isDynamicKey(key) || !origin || (origin.kind === 'route' && origin.dynamic)) continue;
        if (literalKeysOnly && !keyWithinDefaultChars(key)) continue;
        const span = origin.kind === 'route' && origin.row ? evaluation.places.site(origin.site).span : toSpan(origin, evaluation.places);
        if (neverConsulted(key, module)) {
          if (mainRoutesToo) continue;
          groups.add(`${span.start}:${key}`, REQUEST_METHODS[m]!, () => ({
            span,
            message: `'${key}' is never reached: ${router} reads module ${module}'s routes file only for URIs that are '${module}' or start with '${module}/', and this key matches none of them. Write the key from the module's name ('${module}/…').`,
            related: [],
          }));
          continue;
        }
        const dashed = dashesTranslated ? dashedLeadingSegment(key) : undefined;
        if (dashed !== undefined) {
          groups.add(`${span.start}:${key}:dashes`, REQUEST_METHODS[m]!, () => ({
            span,
            message: `'${key}' is never reached: config/routes.php sets translate_uri_dashes to TRUE, and ${router} turns '-' into '_' in a URI's first three segments before it reads module ${module}'s routes file, so no URI it reads has the '${dashed}' this key needs. Write it with '_' ('${dashed.replace(/-/g, '_')}').`,
            related: [],
          }));
          continue;
        }
        const by = mainTable && 'entries' in mainTable ? coveredByMain(key, module, mainRoutesToo ? withoutOwn(mainTable, module) : mainTable) : undefined;
        if (!by) continue;
        groups.add(`${span.start}:${key}:main`, REQUEST_METHODS[m]!, () => ({
          span,
          message: `'${key}' is never reached: every URI of module ${module} it matches is matched first by the main routes file, by ${by.map((e) => `'${e.key}' (${whereDeclared(e, mainLines)})`).join(', ')}, whose targets lead elsewhere; ${router} reads this file only for what the main routes leave to the module.`,
          related: by.map((e) => declaredAt(e, main!)).filter((r): r is RelatedInfo => r !== undefined),
        }));
      }
    }
    const out: Finding[] = [];
    for (const { value, methods } of groups.entries()) out.push(finding('unreachable-route', value.span, value.message, { methods, related: value.related }));
    return out;
  });
}

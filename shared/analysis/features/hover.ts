import type { Places } from '../../evaluate/places';
import type { Span } from '../../php/ast';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { CallSite } from '../../library/records';
import { expandWildcards, countGroups } from '../../router/pattern';
import { Describer, fromSpan } from '../model/origins';
import type { Fate } from '../model/fate';
import { ProducedIndex, producedBy, type ProducedRow } from '../model/produced';
import { countsNested, declarationSummary, methodsLabel, summarize, summaryTitle } from '../model/declarations';
import { REQUEST_METHODS, type RequestMethod } from '../../runtime/methods';
import { nameDeclarations } from '../model/name-declarations';
import { callsAround } from '../model/calls-at';
import type { RouteCall } from '../../evaluate/interpreter';
import { declaresWithin } from '../../library/route-api';
import { markdownCode, markdownCodeCell, markdownText, markdownUrl } from '../../util/escape';
import { EMPTY_TARGET } from '../model/route-table';

export interface HoverResult {
  markdown: string;
  span: Span;
}

const MAX_ROWS = 40;

/** A key or target in a table cell: the text as it is, in a code span that neither it nor a `|` can end. */
function cell(s: string): string {
  return s === '' ? `*${EMPTY_TARGET}*` : markdownCodeCell(s);
}

function fateText(fate: Fate, d: Describer, places: Places): string {
  switch (fate.kind) {
    case 'active':
      return '';
    case 'replaced':
      return `replaced by line ${d.line(fromSpan(fate.by, places))}`;
    case 'reset':
      return `dropped by reset() at line ${d.line(fate.at.span)}`;
    case 'not-mapped':
      return fate.lastMap ? `lost: after the last map() (line ${d.line(fate.lastMap.span)})` : 'lost: map() is never called';
    case 'unknown':
      return `not known: the analysis stopped at line ${d.line(fate.stop)} (see the diagnostic there)`;
    case 'overwritten':
      return fate.by ? `overwritten in $route at line ${d.line(fromSpan(fate.by, places))}` : "lost: map()'s result is not assigned to $route";
    case 'error':
      return fate.at ? `lost: PHP stops at line ${d.line(fate.at)}` : `lost: ${markdownText(fate.message)}`;
  }
}

/** One route of a declaration in a hover's table: a (key, target) pair, the methods it is in `$route` under, and what became of it under the others. */
interface FoldedRow {
  route: ProducedRow['route'];
  active: RequestMethod[];
  /** Fate text → the methods it happened under, in method order. */
  lost: Map<string, RequestMethod[]>;
}

/**
 * The rows folded into routes as the lenses and the outline count them (see summarize()): one row
 * per distinct (key, target) pair, with the methods it is in `$route` under and, per fate, those
 * it is lost under.
 */
function foldRows(rows: ProducedRow[], d: Describer, places: Places): FoldedRow[] {
  const byIdentity = new Map<string, FoldedRow>();
  for (const r of rows) {
    const identity = `${r.route.key}\u0000${r.route.target}`;
    let row = byIdentity.get(identity);
    if (!row) byIdentity.set(identity, (row = { route: r.route, active: [], lost: new Map() }));
    if (r.fate.kind === 'active') {
      if (!row.active.includes(r.method)) row.active.push(r.method);
      continue;
    }
    const text = fateText(r.fate, d, places);
    const list = row.lost.get(text) ?? [];
    if (!list.includes(r.method)) list.push(r.method);
    row.lost.set(text, list);
  }
  const ordered = (ms: RequestMethod[]) => REQUEST_METHODS.filter((m) => ms.includes(m));
  return [...byIdentity.values()].map((row) => ({ route: row.route, active: ordered(row.active), lost: new Map([...row.lost].map(([t, ms]) => [t, ordered(ms)])) }));
}

/**
 * A compact table of a declaration's routes, one row per route (a (key, target) pair, counted once
 * whatever methods have it, as the lens above the declaration counts it); with a document URI,
 * each row links to its declaration.
 */
export function routesTable(rows: ProducedRow[], d: Describer, places: Places, uri?: string): string {
  if (rows.length === 0) return '*No route under any request method.*';
  const folded = foldRows(rows, d, places);
  const lines = ['| Methods | URI | Target | Name | |', '|---|---|---|---|---|'];
  for (const r of folded.slice(0, MAX_ROWS)) {
    const { key, target, names, record } = r.route;
    const line = d.line(places.site(record.site).span);
    const where = uri ? ` [line ${line}](${markdownUrl(uri)}#L${line})` : '';
    const lostUnder = [...r.lost.values()].flat();
    const methods = r.active.length ? r.active : REQUEST_METHODS.filter((m) => lostUnder.includes(m));
    // Lost under every method it has, for one reason: the reason alone; else each reason says under which methods.
    const fates = r.active.length === 0 && r.lost.size === 1 ? [...r.lost.keys()] : [...r.lost].map(([text, ms]) => `${methodsLabel(ms, ' ')}: ${text}`);
    lines.push(`| ${methodsLabel(methods, ' ')} | ${cell(key)} | ${cell(target)} | ${names.map(markdownText).join(', ')} | ${fates.join('; ')}${where} |`);
  }
  if (folded.length > MAX_ROWS) lines.push(`| … | ${folded.length - MAX_ROWS} more | | | |`);
  return lines.join('\n');
}

/** The innermost call around `offset`: its site in this version, and the site as recorded (the same object in every version). */
function innermostCall(evaluation: FileEvaluation, offset: number): { site: CallSite; recorded: RouteCall['site'] } | undefined {
  let best: { site: CallSite; recorded: RouteCall['site'] } | undefined;
  for (const c of callsAround(evaluation, offset)) {
    const site = evaluation.places.site(c.site);
    const s = site.span;
    if (!best || s.end - s.start < best.site.span.end - best.site.span.start) best = { site, recorded: c.site };
  }
  return best;
}

/**
 * A declaration's hover, by evaluation, recorded site and document URI: an editor asks again and
 * again as the pointer rests on or moves along one call, and a table of many routes costs more
 * than a request should.
 */
const declarationHovers = new WeakMap<FileEvaluation, Map<RouteCall['site'], Map<string, HoverResult>>>();

function wildcardHover(text: string, offset: number, site: CallSite): HoverResult | undefined {
  const from = site.argSpans[0];
  if (!from || offset < from.start || offset > from.end) return undefined;
  const source = text.slice(from.start, from.end);
  const re = /\(:(any|num)\)|\((?!\?)/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const start = from.start + m.index;
    const end = m[0] === '(' ? start + 1 : start + m[0].length;
    if (offset < start || offset > end) continue;
    const groupNumber = countGroups(expandWildcards(source.slice(0, m.index))) + 1;
    const regex = m[1] === 'any' ? '[^/]+' : m[1] === 'num' ? '[0-9]+' : undefined;
    const what = regex ? `\`${m[0]}\` becomes \`(${regex})\`` : 'A regular-expression group';
    return { span: { start, end }, markdown: `${what}: it captures group ${groupNumber}, which \`$${groupNumber}\` in the target receives.` };
  }
  return undefined;
}

/** Where a named route's target dispatches, as the host found it: the controller method with a link to it, or why there is none. */
export type ControllerLink = { label: string; /** The file, as shown. */ file: string; /** A file URI with a `#L<line>` fragment. */ uri: string; /** The controller has no such method. */ missing?: boolean } | { none: string };

/** A named route, as its hover shows it. */
export interface NamedRoute {
  /** The URI pattern Route::named() returns. */
  from: string;
  target: string;
  /** The target is a string the router dispatches (not a closure or a verb array): only then is its controller looked up. */
  dispatches: boolean;
  methods: readonly string[];
}

/** The hover of a route name: its URI pattern, target and methods, the controller method it reaches, and where it is declared. */
function namedRouteMarkdown(name: string, route: NamedRoute, declared: string, controller: ControllerLink | undefined): string {
  const methods = REQUEST_METHODS.filter((m) => route.methods.includes(m));
  const lines = [
    `**Route ${markdownCode(name)}**`,
    '',
    `- URI pattern: ${markdownCode(route.from)}`,
    `- Target: ${route.target === '' ? `*${EMPTY_TARGET}*` : markdownCode(route.target)}`,
    `- Methods: ${methods.length ? methodsLabel(methods, ' ') : '—'}`,
  ];
  if (controller && 'none' in controller) lines.push(`- Controller: none known (${markdownText(controller.none)})`);
  else if (controller) lines.push(`- Controller: [${markdownText(controller.label)}](${markdownUrl(controller.uri)}) in ${markdownCode(controller.file)}${controller.missing ? ', which has no such public method: CodeIgniter answers 404' : ''}`);
  lines.push('', declared);
  return lines.join('\n');
}

/**
 * A route name's declarations in the workspace (hover on `Route::named('x')` outside route files);
 * `controllerOf` is the host's look-up of a declaration's target.
 */
export function namedRouteHover<D extends NamedRoute & { file: string; line: number }>(name: string, declarations: readonly D[], controllerOf?: (declaration: D) => ControllerLink | undefined): string {
  if (declarations.length === 0) return `No route is named ${markdownCode(name)}: ${markdownCode(`Route::named('${name}')`)} returns null.`;
  return declarations.map((d) => namedRouteMarkdown(name, d, `Declared in ${markdownText(`${d.file}:${d.line + 1}`)}.`, d.dispatches ? controllerOf?.(d) : undefined)).join('\n\n---\n\n');
}

/**
 * Hover on a Route:: call (the routes it really produces), named() lookups and `(:any)` groups.
 * `controllerOf`: the host's look-up of a target's controller, for a named() route's link.
 */
export function hoverAt(text: string, evaluation: FileEvaluation, offset: number, uri?: string, controllerOf?: (target: string) => ControllerLink | undefined): HoverResult | undefined {
  const innermost = innermostCall(evaluation, offset);
  if (!innermost) return undefined;
  const { site } = innermost;
  const d = Describer.of(text);
  const w = wildcardHover(text, offset, site);
  if (w) return w;
  if (site.method === 'named') {
    const call = callsAround(evaluation, site.span.start).find((c) => evaluation.places.start(c.site) === site.span.start);
    const name = call?.args[0];
    if (typeof name !== 'string') return { span: site.span, markdown: 'The route name is not known statically.' };
    const decl = nameDeclarations(evaluation).get(name);
    if (!decl) return { span: site.span, markdown: `No route in this file is named ${markdownCode(name)}: ${markdownCode(`Route::named('${name}')`)} returns null here.` };
    return { span: site.span, markdown: namedRouteMarkdown(name, decl, `Declared at line ${d.line(decl.site.span)}.`, decl.dispatches ? controllerOf?.(decl.target) : undefined) };
  }
  let bySite = declarationHovers.get(evaluation);
  if (!bySite) declarationHovers.set(evaluation, (bySite = new Map()));
  let byUri = bySite.get(innermost.recorded);
  if (!byUri) bySite.set(innermost.recorded, (byUri = new Map()));
  const known = byUri.get(uri ?? '');
  if (known) return known;
  const made = declarationHover(evaluation, site, d, uri);
  byUri.set(uri ?? '', made);
  return made;
}

/** The hover of a declaration: its lens's title and the table of its routes. */
function declarationHover(evaluation: FileEvaluation, site: CallSite, d: Describer, uri: string | undefined): HoverResult {
  // The header is the lens's title: the same count of the same routes, in the same words.
  const own = countsNested(site.method);
  const summary = declarationSummary(evaluation, site);
  const rows = producedBy(evaluation, site, own);
  const header = `**Route::${site.written}()** — ${summaryTitle(summary)}`;
  let more = '';
  if (!own && declaresWithin(site.method)) {
    // A `$nested` callable's routes are its own declarations' (each has its lens): said apart.
    const inner = ProducedIndex.of(evaluation).of(site, true).slice(ProducedIndex.of(evaluation).of(site, false).length);
    const n = summarize(evaluation, inner).routes.length;
    if (n > 0) more = `\n\nIts \`$nested\` callable declares ${n} more route${n === 1 ? '' : 's'}, counted at the declarations inside it.`;
  }
  return { span: site.nameSpan, markdown: `${header}\n\n${routesTable(rows, d, evaluation.places, uri)}${more}` };
}

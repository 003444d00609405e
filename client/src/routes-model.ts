import type { ProtocolLocation, RouteTableResult } from '../../shared/protocol/route-table';
import type { WorkspaceRoute, WorkspaceRoutesResult } from '../../shared/protocol/workspace-routes';
import { visibleControls as v } from '../../shared/util/escape';

/**
 * The routes explorer's tree as plain data: grouping, merged methods, filter and sort, with no
 * `vscode` (routes-explorer.ts adapts the nodes to a TreeView). Labels are workspace text: the
 * tree shows them as plain text, never as Markdown, with their controls and bidirectional
 * characters made visible.
 */

/** How the routes are grouped: application → file → declaration, or application → first URI segment. */
export type Grouping = 'file' | 'prefix';
/** How routes are ordered within their group. */
export type SortOrder = 'declaration' | 'uri' | 'name';

export interface ViewOptions {
  grouping: Grouping;
  sort: SortOrder;
  /** Words that must each occur in the route's methods, URI, target or names (any case); '' shows every route. */
  filter: string;
}

/** A route as the tree knows it: the server's row, with its file and place in the file's table. */
export interface ModelRoute extends WorkspaceRoute {
  /** The route file's URI and its name (path from the project folder). */
  file: string;
  fileName: string;
  module?: string;
  /** Its position in its file's table (the order CodeIgniter matches in). */
  order: number;
}

interface NodeBase {
  /** Unique in the tree, stable across refreshes (expansion state follows it). */
  id: string;
  label: string;
  /** Ranges of `label` that the filter matched, [start, end) pairs. */
  highlights?: [number, number][];
  description: string;
  tooltip: string;
}

export type RouteNode =
  | (NodeBase & { kind: 'application'; uri: string; children: RouteNode[] })
  | (NodeBase & { kind: 'file'; uri: string; error: boolean; children: RouteNode[] })
  | (NodeBase & { kind: 'prefix'; children: RouteNode[] })
  | (NodeBase & { kind: 'declaration'; location: ProtocolLocation; children: RouteNode[] })
  | (NodeBase & { kind: 'route'; route: ModelRoute; location?: ProtocolLocation; children?: undefined });

/** The request methods a route file is evaluated under (a route under all of them is ANY, as `ci-routes list` says). */
const ALL_METHODS = 8;

/** `GET|POST`, or `ANY` for a route under every method. */
export function methodsLabel(methods: readonly string[]): string {
  return methods.length === ALL_METHODS ? 'ANY' : methods.join('|');
}

/** Every route of the answer, with its file, in application, file and table order. */
export function flattenRoutes(result: WorkspaceRoutesResult): ModelRoute[] {
  const out: ModelRoute[] = [];
  for (const app of result.applications) {
    for (const file of app.files) {
      file.rows.forEach((row, order) =>
        out.push({
          ...row,
          uri: v(row.uri),
          target: v(row.target),
          names: row.names.map(v),
          ...(row.unknown !== undefined ? { unknown: v(row.unknown) } : {}),
          ...(row.declaration !== undefined ? { declaration: v(row.declaration) } : {}),
          file: file.uri,
          fileName: v(file.name),
          ...(file.module !== undefined ? { module: v(file.module) } : {}),
          order,
        }),
      );
    }
  }
  return out;
}

/** The filter's words, lower case. */
function words(filter: string): string[] {
  return filter.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Whether each word of the filter occurs in the route's methods, URI, target or names. */
export function matchesFilter(route: WorkspaceRoute, filter: string): boolean {
  const text = `${methodsLabel(route.methods)} ${route.methods.join(' ')} ${route.uri} ${route.target} ${route.names.join(' ')}`.toLowerCase();
  return words(filter).every((w) => text.includes(w));
}

/** Where the filter's words occur in a label, merged into ranges. */
export function highlightsOf(label: string, filter: string): [number, number][] {
  const lower = label.toLowerCase();
  const marked = new Array<boolean>(label.length).fill(false);
  for (const w of words(filter)) {
    for (let at = lower.indexOf(w); at >= 0; at = lower.indexOf(w, at + 1)) marked.fill(true, at, at + w.length);
  }
  const out: [number, number][] = [];
  for (let i = 0; i < marked.length; i++) {
    if (!marked[i]) continue;
    const start = i;
    while (i < marked.length && marked[i]) i++;
    out.push([start, i]);
  }
  return out;
}

function compareLocations(a: ProtocolLocation | undefined, b: ProtocolLocation | undefined): number {
  if (!a || !b) return (a ? 0 : 1) - (b ? 0 : 1);
  return a.uri.localeCompare(b.uri) || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
}

function byText(a: string, b: string): number {
  return a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true }) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The routes in the order asked for; ties keep their file's table order. */
export function sortRoutes(routes: readonly ModelRoute[], order: SortOrder): ModelRoute[] {
  const tableOrder = (a: ModelRoute, b: ModelRoute) => a.file.localeCompare(b.file) || a.order - b.order;
  const compare: Record<SortOrder, (a: ModelRoute, b: ModelRoute) => number> = {
    declaration: (a, b) => compareLocations(a.location, b.location) || tableOrder(a, b),
    uri: (a, b) => byText(a.uri, b.uri) || tableOrder(a, b),
    // Named routes first, by name; the others by URI.
    name: (a, b) => (a.names.length ? 0 : 1) - (b.names.length ? 0 : 1) || byText(a.names[0] ?? '', b.names[0] ?? '') || byText(a.uri, b.uri) || tableOrder(a, b),
  };
  return [...routes].sort(compare[order]);
}

function plural(n: number, what: string): string {
  return `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
}

function line(location: ProtocolLocation | undefined): number | undefined {
  return location ? location.range.start.line + 1 : undefined;
}

function routeNode(route: ModelRoute, options: ViewOptions, idPrefix: string): RouteNode {
  const label = `${methodsLabel(route.methods)} ${route.uri}`;
  const target = route.target === '' ? '(blocked)' : route.target;
  const where = route.location ? `${route.location.uri === route.file ? route.fileName : fileNameOf(route.location.uri)}:${line(route.location)}` : route.fileName;
  const tooltip = [
    `${label} → ${target}`,
    ...(route.names.length ? [`name: ${route.names.join(', ')}`] : []),
    ...(route.module !== undefined ? [`module ${route.module} (its targets are relative to the module)`] : []),
    ...(route.unknown !== undefined ? [`path not known statically: ${route.unknown}`] : []),
    `declared at ${where}`,
    ...(route.declaration ? [route.declaration] : []),
  ].join('\n');
  return {
    kind: 'route',
    id: `${idPrefix}route:${route.file}#${route.order}`,
    label,
    ...(options.filter ? { highlights: highlightsOf(label, options.filter) } : {}),
    description: `→ ${target}${route.names.length ? ` · ${route.names.join(', ')}` : ''}${options.grouping === 'prefix' && route.module !== undefined ? ` · module ${route.module}` : ''}`,
    tooltip,
    route,
    ...(route.location ? { location: route.location } : {}),
  };
}

/** The last folders of a file URI, to name an included file. */
function fileNameOf(uri: string): string {
  let p = uri.replace(/^file:\/\//, '');
  try {
    p = decodeURIComponent(p);
  } catch {
    // as sent
  }
  return v(p.split('/').slice(-3).join('/'));
}

/** A file's routes, those of one declaration (resources(), context()…) under a node of their own. */
function declarationGroups(routes: ModelRoute[], options: ViewOptions, idPrefix: string): RouteNode[] {
  const key = (r: ModelRoute) => (r.location ? `${r.location.uri}:${r.location.range.start.line}:${r.location.range.start.character}` : `#${r.order}`);
  const groups = new Map<string, ModelRoute[]>();
  for (const r of routes) {
    const k = key(r);
    const list = groups.get(k);
    if (list) list.push(r);
    else groups.set(k, [r]);
  }
  return [...groups.entries()].map(([k, list]) => {
    const first = list[0]!;
    if (list.length === 1 || !first.location) return routeNode(first, options, idPrefix);
    const label = first.declaration || `line ${line(first.location)}`;
    return {
      kind: 'declaration',
      id: `${idPrefix}declaration:${first.file}@${k}`,
      label,
      description: `line ${line(first.location)} · ${plural(list.length, 'route')}`,
      tooltip: `${label}\n${plural(list.length, 'route')} declared at ${first.location.uri === first.file ? first.fileName : fileNameOf(first.location.uri)}:${line(first.location)}`,
      location: first.location,
      children: list.map((r) => routeNode(r, options, idPrefix)),
    };
  });
}

/** The first segment of a route's URI, its group under 'prefix'. */
export function prefixOf(uri: string): string {
  return uri.split('/')[0] || '/';
}

/**
 * The tree for the options: applications, then files and declarations, or URI prefixes; routes
 * the filter leaves out are gone, and so are the groups left empty (a file with no route at all
 * stays, to say so, unless a filter is set).
 */
export function buildTree(result: WorkspaceRoutesResult, options: ViewOptions): RouteNode[] {
  const all = flattenRoutes(result);
  const shown = new Set(options.filter ? all.filter((r) => matchesFilter(r, options.filter)) : all);
  // Filtering expands what it finds: other ids, so the tree does not reuse the collapsed state.
  const idPrefix = options.filter ? 'filtered:' : '';
  const nodes: RouteNode[] = [];
  for (const app of result.applications) {
    const routes = sortRoutes(
      all.filter((r) => shown.has(r) && app.files.some((f) => f.uri === r.file)),
      options.sort,
    );
    const total = app.files.reduce((n, f) => n + f.rows.length + (f.more ?? 0), 0);
    if (options.filter && routes.length === 0) continue;
    let children: RouteNode[];
    if (options.grouping === 'file') {
      children = app.files.flatMap((file): RouteNode[] => {
        const own = routes.filter((r) => r.file === file.uri);
        if (options.filter && own.length === 0) return [];
        const count = options.filter ? `${own.length} of ${plural(file.rows.length, 'route')}` : plural(file.rows.length, 'route');
        const module = file.module !== undefined ? v(file.module) : undefined;
        const tooltip = [
          v(file.name),
          ...(module !== undefined ? [`module ${module}: read after the main routes for URIs whose first segment is ${module}; targets relative to the module`] : ['the main routes, read first']),
          ...(file.error ? [`PHP stops: ${v(file.error)}`] : []),
          ...(file.limits ?? []).map((l) => `not the whole file: ${v(l)}`),
          ...(file.more ? [`${plural(file.more, 'more route')} not listed`] : []),
        ].join('\n');
        return [
          {
            kind: 'file',
            id: `${idPrefix}file:${file.uri}`,
            label: v(file.name),
            description: `${module !== undefined ? `module ${module} · ` : ''}${count}${file.error ? ' · PHP stops' : ''}${file.limits?.length ? ' · not the whole file' : ''}`,
            tooltip,
            uri: file.uri,
            error: Boolean(file.error),
            children: declarationGroups(own, options, idPrefix),
          },
        ];
      });
    } else {
      const prefixes = new Map<string, ModelRoute[]>();
      for (const r of routes) {
        const p = prefixOf(r.uri);
        const list = prefixes.get(p);
        if (list) list.push(r);
        else prefixes.set(p, [r]);
      }
      // Prefixes alphabetically; the sort orders the routes within each.
      children = [...prefixes.entries()].sort(([a], [b]) => byText(a, b)).map(([p, list]) => ({
        kind: 'prefix' as const,
        id: `${idPrefix}prefix:${app.uri}:${p}`,
        label: `${p}/`,
        description: plural(list.length, 'route'),
        tooltip: `${plural(list.length, 'route')} whose URI starts with ${p}`,
        children: list.map((r) => routeNode(r, options, idPrefix)),
      }));
    }
    nodes.push({
      kind: 'application',
      id: `${idPrefix}application:${app.uri}`,
      label: v(app.name),
      description: options.filter ? `${routes.length} of ${plural(total, 'route')}` : plural(total, 'route'),
      tooltip: `${v(app.name)}: ${plural(app.files.length, 'route file')}, ${plural(total, 'route')}`,
      uri: app.uri,
      children,
    });
  }
  return nodes;
}

/** How many routes the filter shows of how many (for the view's message). */
export function filterCounts(result: WorkspaceRoutesResult, filter: string): { shown: number; total: number } {
  const all = flattenRoutes(result);
  return { shown: filter ? all.filter((r) => matchesFilter(r, filter)).length : all.length, total: all.length };
}

/**
 * The distinct routes of a route table answer, counted as `ci-routes list` counts them: each
 * method's rows merged into one per route (same URI, target, declaration and names), settings
 * such as default_controller left out.
 */
export function distinctRoutes(table: Pick<RouteTableResult, 'methods'>): number {
  const seen = new Set<string>();
  for (const m of table.methods) {
    for (const r of m.rows) {
      if (r.reserved) continue;
      const at = r.location ? `${r.location.uri}:${r.location.range.start.line}:${r.location.range.start.character}` : '';
      seen.add(`${r.uri}\u0000${r.target}\u0000${at}\u0000${r.names.join(',')}`);
    }
  }
  return seen.size;
}

import * as path from 'node:path';
import picomatch from 'picomatch';
import { formatPhpVersion } from '../../../shared/runtime/php-version';
import { describePhpVersion } from '../../../shared/app/php-version-choice';
import { emptyTargetLabel, hasTargetFor, mergedRows, routeRows, type MergedRow } from '../../../shared/analysis/model/route-table';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { LineIndex } from '../../../shared/php/line-index';
import { REQUEST_METHODS, type RequestMethod } from '../../../shared/runtime/methods';
import { describeEnvironment, environmentFileRun } from '../../../shared/app/environment';
import type { RouteFileContext } from '../host/route-file';
import { terminalJson, terminalText as t } from '../../../shared/util/escape';
import { declaredAt, shownPath } from './declared-at';
import { renderTable, style, type Styler } from './table';
import { UsageError } from './usage';

interface Io {
  out(text: string): void;
  isTTY: boolean;
}

/** How `list` orders each table: `file` is the table's own order (the order the router tries the routes). */
export type ListSort = 'file' | 'uri' | 'name';

/** What `list` shows of each table: `--method`, `--path`, `--name`, `--sort`. */
export interface ListFilters {
  method: RequestMethod | undefined;
  /** Whether a route's URI pattern is kept (`--path`). */
  path: ((key: string) => boolean) | undefined;
  /** Whether a route name is kept (`--name`): a route is kept when one of its names is. */
  name: ((name: string) => boolean) | undefined;
  sort: ListSort;
}

/**
 * A text test for `--path` and `--name`: the text is the glob itself, or matches it (picomatch:
 * `*` within a segment, `**` across them, `?`, `[abc]`, `{a,b}`). Parentheses are plain text, so
 * route keys' `(:any)`, `(:num)` and regex groups match themselves; `\` escapes the next character.
 */
export function globTest(option: string, glob: string): (text: string) => boolean {
  if (glob === '') throw new UsageError(`${option} expects a pattern, got ''`);
  const escaped = glob.replace(/\\.|[()]/gs, (c) => (c.length === 2 ? c : `\\${c}`));
  let isMatch: (text: string) => boolean;
  try {
    isMatch = picomatch(escaped, { dot: true, noextglob: true });
  } catch (e) {
    throw new UsageError(`${option}: '${glob}' is not a glob (${(e as Error).message})`);
  }
  return (text) => text === glob || isMatch(text);
}

/** `--path`, `--name`, `--sort` as given. */
export function parseListFilters(method: RequestMethod | undefined, values: { path?: string; name?: string; sort?: string }): ListFilters {
  const sort = values.sort ?? 'file';
  if (sort !== 'file' && sort !== 'uri' && sort !== 'name') throw new UsageError(`unknown --sort order '${sort}' (expected file, uri or name)`);
  // Keys are written without a leading slash; a URI is often typed with one.
  const pathGlob = values.path?.replace(/^\/+(?=.)/, '');
  return {
    method,
    path: pathGlob === undefined ? undefined : globTest('--path', pathGlob),
    name: values.name === undefined ? undefined : globTest('--name', values.name),
    sort,
  };
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The rows `list` prints for a route file: each method's, or the methods merged; those the
 * filters keep, in the order asked (a stable sort: the table's order breaks ties). A route whose
 * path is unknown matches no `--path`.
 */
export function rowsOf(evaluation: FileEvaluation, filters: ListFilters): MergedRow[] {
  const all = filters.method ? routeRows(evaluation, REQUEST_METHODS.indexOf(filters.method)).filter((r) => hasTargetFor(r, r.method)).map((r) => ({ ...r, methods: [r.method] })) : mergedRows(evaluation);
  const rows = all.filter((r) => (!filters.path || (r.unknown === undefined && filters.path(r.key))) && (!filters.name || r.names.some(filters.name)));
  if (filters.sort === 'uri') rows.sort((a, b) => compare(a.key, b.key));
  if (filters.sort === 'name') rows.sort((a, b) => (a.names.length && b.names.length ? compare(a.names[0]!, b.names[0]!) : b.names.length - a.names.length));
  return rows;
}

/** Whether a filter leaves rows out (the counts then say of how many). */
const filtering = (filters: ListFilters): boolean => filters.path !== undefined || filters.name !== undefined;

/** Another route file of the application `list` shows after the one given, evaluated as the router reads it. */
export interface OtherRouteFile {
  ctx: RouteFileContext;
  module: string | undefined;
  evaluation: FileEvaluation;
}

/**
 * The application's other route files, in the order its router reads them: the main file, then
 * each module's (an environment's route file runs within the main file's evaluation).
 */
export function otherRouteFiles(ctx: RouteFileContext, load: (file: string) => RouteFileContext, evaluate: (ctx: RouteFileContext) => FileEvaluation): OtherRouteFile[] {
  if (!ctx.app) return [];
  const given = path.resolve(ctx.file);
  const out: OtherRouteFile[] = [];
  for (const { file, module } of ctx.app.routeFilesInRouterOrder()) {
    if (path.resolve(file) === given) continue;
    try {
      const other = load(file);
      out.push({ ctx: other, module, evaluation: evaluate(other) });
    } catch {
      // unreadable: left out, as the workspace index leaves it out
    }
  }
  return out;
}

/** `n routes`, or `n of m routes` when filters left some out. */
function countLine(shown: number, filters: ListFilters, total: () => number): string {
  const of = filtering(filters) ? ` of ${total()}` : '';
  return `${shown}${of} route${(of ? total() : shown) === 1 ? '' : 's'}`;
}

/** `ci-routes list`: the route file's table, then the application's other route files' tables. Returns the exit code. */
export function list(ctx: RouteFileContext, evaluation: FileEvaluation, filters: ListFilters, json: boolean, io: Io, others: readonly OtherRouteFile[] = []): number {
  const { method } = filters;
  const lines = LineIndex.of(ctx.text);
  const rows = rowsOf(evaluation, filters);
  const unfiltered = { ...filters, path: undefined, name: undefined };
  const errors = evaluation.methods.filter((m) => m.error && (!method || m.method === method));
  const ranEnvironment = environmentFileRun(evaluation.included);
  const at = (file: string, fileLines: LineIndex, r: MergedRow) => declaredAt(file, fileLines, r.span) || null;
  if (json) {
    io.out(
      `${terminalJson({
        file: ctx.file,
        dialect: ctx.dialect,
        dialect_source: ctx.dialectSource,
        php_version: formatPhpVersion(ctx.php.version),
        php_version_source: ctx.php.source,
        router: ctx.router,
        router_source: ctx.routerSource,
        environment: ctx.environment.name ?? null,
        environment_source: ctx.environment.source,
        environment_routes: ranEnvironment ? shownPath(ranEnvironment.path) : null,
        routes: rows.map((r) => ({ methods: r.methods, uri: r.key, target: r.targetText, names: r.names, reserved: r.reserved, declared_at: at(ctx.file, lines, r) })),
        errors: errors.map((m) => ({ method: m.method, class: m.error?.class, message: m.error?.message })),
        other_files: others.map((o) => {
          const otherLines = LineIndex.of(o.ctx.text);
          return {
            file: o.ctx.file,
            module: o.module ?? null,
            routes: rowsOf(o.evaluation, filters).map((r) => ({ methods: r.methods, uri: r.key, target: r.targetText, names: r.names, reserved: r.reserved, declared_at: at(o.ctx.file, otherLines, r) })),
          };
        }),
      })}\n`,
    );
    return errors.length ? 1 : 0;
  }
  const s: Styler = style(io.isTTY && !process.env.NO_COLOR);
  const tableRows = (file: string, fileLines: LineIndex, of: readonly MergedRow[]) =>
    of.filter((r) => !r.reserved).map((r) => [methodLabel(r.methods), t(r.key), r.target === '' ? s.dim(emptyTargetLabel(r.key)) : t(r.targetText), t(r.names.join(', ')), s.dim(t(declaredAt(file, fileLines, r.span)))]);
  const body = tableRows(ctx.file, lines, rows);
  io.out(`${s.bold(t(path.relative(process.cwd(), ctx.file) || ctx.file))}  ${s.dim(t(`dialect ${ctx.dialect} (${ctx.dialectSource})  ${describePhpVersion(ctx.php)}  router ${ctx.router} (${ctx.routerSource})  ${describeEnvironment(ctx.environment, ctx.environmentRoutes, ranEnvironment !== undefined, ctx.app?.environmentsWithRoutes() ?? [])}`))}\n`);
  for (const r of rows.filter((x) => x.reserved)) io.out(`${s.dim(`${t(r.key)} =`)} ${t(r.targetText)}\n`);
  io.out(renderTable(['METHOD', 'URI', 'TARGET', 'NAME', 'DECLARED AT'], body, s));
  io.out(`${s.dim(countLine(body.length, filters, () => rowsOf(evaluation, unfiltered).filter((r) => !r.reserved).length))}\n`);
  for (const m of errors) {
    io.out(`${s.red(t(`${m.method}: ${m.error?.class}: ${m.error?.message}`))}${m.error?.span ? s.dim(` (${t(declaredAt(ctx.file, lines, m.error.span))})`) : ''}\n`);
  }
  for (const o of others) {
    const otherLines = LineIndex.of(o.ctx.text);
    const otherRows = tableRows(o.ctx.file, otherLines, rowsOf(o.evaluation, filters));
    // An application's own router reading route files otherwise (_set_routing()) may read a module's as main routes, or not at all.
    const override = o.module !== undefined ? ctx.app?.routingOverridden() : undefined;
    const reading = override?.reading ? override.why : undefined;
    const what =
      o.module === undefined
        ? 'the main routes, read first'
        : reading !== undefined
          ? `module ${o.module}: how the application's router reads it is not known (${reading})`
          : `module ${o.module}: read after the main routes for URIs whose first segment is ${o.module}; targets relative to the module`;
    io.out(`\n${s.bold(t(shownPath(o.ctx.file)))}  ${s.dim(t(what))}\n`);
    if (otherRows.length) io.out(renderTable(['METHOD', 'URI', 'TARGET', 'NAME', 'DECLARED AT'], otherRows, s));
    io.out(`${s.dim(countLine(otherRows.length, filters, () => rowsOf(o.evaluation, unfiltered).filter((r) => !r.reserved).length))}\n`);
    for (const m of o.evaluation.methods.filter((r) => r.error && (!method || r.method === method)).slice(0, 1)) io.out(`${s.red(t(`${m.method}: ${m.error?.class}: ${m.error?.message}`))}\n`);
  }
  return errors.length ? 1 : 0;
}

function methodLabel(methods: RequestMethod[]): string {
  if (methods.length === REQUEST_METHODS.length) return 'ANY';
  return methods.join('|');
}

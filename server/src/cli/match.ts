import { unknownsOf, requestRouter, type RoutedRequest } from '../../../shared/analysis/model/request-routing';
import { unknownRoutes } from '../../../shared/analysis/model/route-table';
import { analysisLimits } from '../../../shared/evaluate/evaluate-file';
import { requestUriPath } from '../../../shared/router/request-uri';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS, type RequestMethod } from '../../../shared/runtime/methods';
import { LineIndex } from '../../../shared/php/line-index';
import { normalizeAppPath, type AppTree } from '../../../shared/router/app-tree';
import { terminalJson, terminalText as t } from '../../../shared/util/escape';
import { DEFAULT_SETTINGS } from '../../../shared/workspace/settings';
import type { RouteFileContext } from '../host/route-file';
import { declaredAt, shownPath } from './declared-at';
import { controllerCall } from '../../../shared/protocol/test-url';
import { style } from './table';
import { shownError } from '../../../shared/router/hmvc/router-stop';

interface Io {
  out(text: string): void;
  err(text: string): void;
  isTTY: boolean;
}

/** A root with no file at all: a route file outside any `config/` folder is routed from its text alone. */
const NOTHING: AppTree = { isFile: () => false, isDir: (p) => normalizeAppPath(p) === '' };


/** One routed URI as `match --json` prints it: the HMVC vectors' fields, then where the routes are declared. */
export type MatchJson = Omit<RoutedRequest, 'main_span' | 'module_declaration' | 'order_unsure' | 'conditional'> & {
  /** Another route that matches too and may come first, depending on the condition declared at `condition_at`. */
  order_unsure?: { other_key: string; condition_at: string };
  /** Entries the answer rests on that exist only where the condition at `condition_at` holds. */
  conditional?: { key: string; condition_at: string }[];
  /** The URI CodeIgniter routes for the one given, when they differ (see requestUriPath). */
  routed_uri?: string;
  declared_at: string | null;
  module_route_declared_at: string | null;
};

/**
 * `ci-routes match`: each URI routed as the application's router routes it (main routes file,
 * module route files read from disk, controller look-up, dispatch).
 */
export function match(ctx: RouteFileContext, evaluation: FileEvaluation, method: RequestMethod, uris: string[], json: boolean, maxSteps: number | undefined, io: Io): number {
  const m = REQUEST_METHODS.indexOf(method);
  const result = evaluation.methods[m];
  if (!result.routes || result.error) {
    const why = result.error ? `${result.error.class}: ${result.error.message}` : 'the file never assigns an array to $route';
    io.err(`ci-routes: no route table under ${method}: ${t(why)}\n`);
    return 1;
  }
  const root = ctx.app?.root();
  const router = requestRouter({
    flavour: ctx.router,
    root: root?.tree ?? NOTHING,
    main: evaluation,
    read: (p) => root?.read(p),
    // Module route files include files as the main one does, relative to their own folder.
    evaluate: { dialect: ctx.dialect, maxSteps, maxMilliseconds: DEFAULT_SETTINGS.maxEvaluationMs, includes: ctx.includes, phpVersion: ctx.php.version },
    fileName: (p) => root?.absolute(p) ?? p,
    ...unknownsOf(ctx.app?.controllerLookUpUnknown(ctx.router), ctx.app?.routingUnknown(), ctx.app?.moduleRoutesUnknown(ctx.router)),
    ...(ctx.app ? { methodsOf: (file: string) => ctx.app?.controllers().methods(file), uriFilter: ctx.app.uriFilter(ctx.environment.name) } : {}),
  });
  const mainLines = LineIndex.of(ctx.text);
  // What CodeIgniter's URI class cuts from the end of a URI (config.php's url_suffix).
  const urlSuffix = ctx.app?.urlSuffix(ctx.environment.name) ?? { suffix: '', source: 'no application folder' };
  const results = uris.map((uri): MatchJson => {
    // As CodeIgniter reads REQUEST_URI: host, query, the front controller, empty and `..` segments
    // and the URL suffix gone. `uri` stays the request as given; `routed_uri` says what was routed when that differs.
    const cleaned = requestUriPath(uri, undefined, urlSuffix.suffix ?? '');
    const { main_span, module_declaration, order_unsure, conditional, ...r } = router.route(cleaned === uri.replace(/^\/+|\/+$/g, '') ? uri : cleaned, method);
    const moduleAt = module_declaration && root ? `${shownPath(root.absolute(module_declaration.file))}:${LineIndex.of(module_declaration.text).lineOf(module_declaration.span.start) + 1}` : null;
    return {
      ...r,
      uri,
      ...(r.uri !== uri ? { routed_uri: cleaned } : {}),
      declared_at: declaredAt(ctx.file, mainLines, main_span) || null,
      module_route_declared_at: moduleAt,
      ...(order_unsure ? { order_unsure: { other_key: order_unsure.other_key, condition_at: declaredAt(ctx.file, mainLines, order_unsure.condition) } } : {}),
      ...(conditional ? { conditional: conditional.map((c) => ({ key: c.key, condition_at: declaredAt(ctx.file, mainLines, c.condition) })) } : {}),
    };
  });
  // A route whose place depends on an undecidable condition may take a URI before the one matched.
  for (const r of results) {
    if (r.order_unsure) io.err(`ci-routes: warning: ${t(r.order_unsure.condition_at)}: which of '${t(r.main_matched_key ?? '')}' and '${t(r.order_unsure.other_key)}' comes first depends on this condition: either may take '${t(r.uri)}'\n`);
    for (const c of r.conditional ?? []) io.err(`ci-routes: warning: ${t(c.condition_at)}: '${t(c.key)}', which the answer for '${t(r.uri)}' rests on, is set only where this condition holds, which cannot be decided\n`);
  }
  // Routes whose path or target is unknown may stand anywhere in the table: any of them may take a URI first.
  const unknown = unknownRoutes(evaluation, m).filter((u) => u.pathUnknown).map((u) => ({ declared_at: declaredAt(ctx.file, mainLines, u.span) || null, reason: u.reason }));
  for (const u of unknown) io.err(`ci-routes: warning: ${t(u.declared_at ?? ctx.file)}: a route that cannot be known statically (${t(u.reason)}): it may take a URI before the route matched\n`);
  // Where the evaluation stopped short (an include not read, a limit reached), the table may lack routes that take a URI.
  const limits = analysisLimits(evaluation).map((p) => ({ declared_at: declaredAt(ctx.file, mainLines, p.span) || null, reason: p.message }));
  for (const l of limits) io.err(`ci-routes: warning: ${t(l.declared_at ?? ctx.file)}: ${t(l.reason)}: the table may lack routes that take a URI\n`);
  // The router model is CodeIgniter 3's: CodeIgniter 2 reads `(:any)` across segments, tries literal keys first and looks controllers up otherwise.
  const ci = ctx.app?.codeIgniter();
  const olderRouter = ci && ci.major < 3 ? `this application runs CodeIgniter ${ci.version} (${ci.source}), whose router differs: the answer is CodeIgniter 3's router's` : undefined;
  if (olderRouter) io.err(`ci-routes: warning: ${t(olderRouter)}\n`);
  const code = unknown.length || limits.length || olderRouter || results.some((r) => r.order_unsure || r.conditional) ? 1 : 0;
  if (json) {
    io.out(`${terminalJson({ file: ctx.file, method, router: ctx.router, router_source: ctx.routerSource, dialect: ctx.dialect, url_suffix: urlSuffix.suffix ?? null, url_suffix_source: urlSuffix.source, results, unknown_routes: unknown, limits })}\n`);
    return code;
  }
  const s = style(io.isTTY && !process.env.NO_COLOR);
  const suffixNote = urlSuffix.suffix === undefined ? `  url_suffix unknown (${urlSuffix.source}): not cut from URIs` : urlSuffix.suffix !== '' ? `  url_suffix ${urlSuffix.suffix} (${urlSuffix.source})` : '';
  io.out(`${s.bold(t(shownPath(ctx.file)))}  ${s.dim(t(`router ${ctx.router} (${ctx.routerSource})${suffixNote}`))}\n`);
  for (const r of results) {
    // A URL as given; a URI from the site's root.
    io.out(`${s.bold(`${method} ${/^[a-z][a-z0-9+.-]*:\/\//i.test(r.uri) ? t(r.uri) : `/${t(r.uri.replace(/^\/+/, ''))}`}`)}\n`);
    if (r.routed_uri !== undefined) io.out(`  ${'routed as'.padEnd(13)}/${t(r.routed_uri)}\n`);
    const line = (label: string, text: string) => io.out(`  ${label.padEnd(13)}${text}\n`);
    if (r.default_controller_route) line('main route', s.dim('none: an empty URI goes to the default controller'));
    else if (r.main_target_segments === null) {
      // Not routed (the application's own router reads the table otherwise): the `unknown` line says why.
    } else if (r.main_matched_key === null) line('main route', s.dim('none matches: the URI segments are used as they are'));
    else line('main route', `${t(r.main_matched_key)}  ${s.dim(t(r.declared_at ?? ''))}`);
    if (r.main_target_segments) line('target', t(r.main_target_segments.join('/')));
    if (r.flavour !== 'ci' && (r.main_target_segments !== null || r.default_controller_route)) {
      if (r.module_route) line('module route', `${t(r.module_route.key)} => ${t(r.module_route.value)}  ${s.dim(t(r.module_route_declared_at ?? (r.module_route_file ? shownPath(root?.absolute(r.module_route_file) ?? r.module_route_file) : '')))}`);
      else if (r.unknown !== undefined && r.locate_calls.length === 0) {
        // Not followed: the `unknown` line says why.
      } else {
        const consulted = r.locate_calls[0]?.module_routes_consulted;
        line('module route', s.dim(consulted ? t(`none of module ${consulted}'s routes matches`) : 'none: no module routes file was consulted'));
      }
      if (r.module_route) line('segments', t(r.module_route.segments.join('/')));
      if (r.module !== null) line('module', t(r.module));
    }
    if (r.rsegments) line('routed', t(r.rsegments.join('/')));
    if (r.directory) line('directory', t(r.directory));
    const notes = `${r.used_default_controller ? s.dim('  (default controller)') : ''}${r.dispatch_404_override ? s.dim('  (served by 404_override)') : ''}`;
    if (r.controller_file !== null && r.class !== null) {
      const file = root ? shownPath(root.absolute(r.controller_file)) : r.controller_file;
      line('controller', `${t(controllerCall(r))}  ${s.dim(t(file))}${notes}`);
    } else if (r.controller && !r.controller.found && r.unknown === undefined) {
      // (When the outcome is unknown, the `unknown` line below says why, once.)
      line('controller', `${s.yellow(t(r.controller.reason))}${notes}`);
    }
    if (r.error !== null) line('error', s.red(t(shownError(r.error))));
    if (r.uri_refused) line('why', s.yellow(t(r.uri_refused.why)));
    if (r.unknown !== undefined) line('unknown', s.yellow(t(r.unknown)));
    if (r.order_unsure) line('unsure', s.yellow(t(`'${r.order_unsure.other_key}' matches too and may come first: their order depends on the condition at ${r.order_unsure.condition_at}`)));
    for (const c of r.conditional ?? []) line('unsure', s.yellow(t(`'${c.key}' is set only where the condition at ${c.condition_at} holds (it cannot be decided): otherwise this URI is routed differently`)));
    if (unknown.length) line('unsure', s.yellow(t(`${unknown.length} route${unknown.length === 1 ? '' : 's'} of the table cannot be known statically (${unknown.map((u) => u.declared_at).join(', ')}): ${unknown.length === 1 ? 'it' : 'one of them'} may take this URI first`)));
    if (olderRouter) line('unsure', s.yellow(t(olderRouter)));
    if (limits.length) line('unsure', s.yellow(t(`the table may lack routes: the evaluation stopped short at ${limits.map((l) => l.declared_at).join(', ')}; a route it lacks may take this URI first`)));
  }
  return code;
}

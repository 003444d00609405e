import type { RouteFileSetup } from '../../../shared/app/application';
import { stoppingError } from '../../../shared/evaluate/evaluate-file';
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';
import { includedLines } from '../../../shared/analysis/model/included-places';
import { RequestType, type Connection, type TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { unknownsOf, requestRouter } from '../../../shared/analysis/model/request-routing';
import { unknownRoutes } from '../../../shared/analysis/model/route-table';
import { routeMisses } from '../../../shared/analysis/model/route-misses';
import { LineIndex } from '../../../shared/php/line-index';
import { REQUEST_METHODS, methodIndex } from '../../../shared/runtime/methods';
import { EMPTY_TREE } from '../../../shared/router/app-tree';
import type { FolderSettings } from '../../../shared/workspace/settings';
import { includedRange, spanToRange } from './convert';
import { limitsOf } from './custom-requests';
import { requestUriPath } from '../../../shared/router/request-uri';
import { moduleOfRouteFile } from '../../../shared/app/layout';
import type { RouteService } from './route-service';

export type { TestUrlError, TestUrlResult } from '../../../shared/protocol/test-url';
import { MAX_NOT_MATCHED, type TestUrlError, type TestUrlResult } from '../../../shared/protocol/test-url';
import { shownError } from '../../../shared/router/hmvc/router-stop';

/** `ciRoutes/testUrl`: how the application routes `GET /photos/12`: main route, module route, controller. */
export const TestUrlRequest = new RequestType<{ uri: string; method: string; url: string }, TestUrlResult | TestUrlError | null, void>('ciRoutes/testUrl');

interface Deps {
  documents: TextDocuments<TextDocument>;
  service: RouteService;
  ensureAnalysed(doc: TextDocument): void;
  settingsFor(uri: string): FolderSettings;
  uriToPath(uri: string): string | undefined;
}

export function registerTestUrl(connection: Connection, deps: Deps): void {
  /** An open document's text for a file on disk: open documents win over the disk. */
  const openText = (file: string): string | undefined => deps.documents.all().find((d) => deps.uriToPath(d.uri) === file)?.getText();

  connection.onRequest(TestUrlRequest, (params) => {
    // A request is routed by the application's main routes file: asked from a module's, the main one answers.
    const file = deps.uriToPath(params.uri);
    const module = file === undefined ? undefined : moduleOfRouteFile(file);
    if (file !== undefined && module !== undefined) {
      const appDir = deps.service.applications.of(file)?.appDir;
      const main = appDir === undefined ? undefined : path.join(appDir, 'config', 'routes.php');
      const mainDoc = main === undefined ? undefined : deps.documents.all().find((d) => deps.uriToPath(d.uri) === main);
      if (mainDoc) return routeTestUrl({ ...params, uri: mainDoc.uri });
      const m = methodIndex(params.method);
      return { request_method: m === undefined ? params.method : REQUEST_METHODS[m], uri: params.url, error: `requests are routed by the application's main routes file, not module ${module}'s: ask for ${main ?? 'config/routes.php'} (open it to test URLs from it)` };
    }
    return routeTestUrl(params);
  });

  function routeTestUrl({ uri, method, url }: { uri: string; method: string; url: string }) {
    const doc = deps.documents.get(uri);
    const m = methodIndex(method);
    if (!doc || m === undefined) return null;
    deps.ensureAnalysed(doc);
    const a = deps.service.last(uri);
    if (!a) return null;
    const result = a.evaluation.methods[m];
    const limits = limitsOf(doc, a.evaluation);
    // Routes whose path or target is unknown may stand anywhere in the table: one may take the URI first.
    const unknownRoutesOfTable = unknownRoutes(a.evaluation, m).filter((u) => u.pathUnknown).map((u) => `line ${u.span ? (u.span.file ? LineIndex.of(u.span.file.text).lineOf(u.span.start) : doc.positionAt(u.span.start).line) + 1 : '?'}: ${u.reason}`);
    const limitsField = { ...(limits.length ? { limits } : {}), ...(unknownRoutesOfTable.length ? { unknownRoutes: unknownRoutesOfTable } : {}) };
    // What PHP does: a request stops at the file's first error, whatever the editor's analysis went on past.
    const error = stoppingError(a.evaluation, m);
    if (!result.routes || error) {
      return { request_method: REQUEST_METHODS[m], uri: url, error: error ? `${error.class}: ${error.message}${error.span && !error.span.file ? ` (line ${doc.positionAt(error.span.start).line + 1})` : ''}` : 'the file never assigns an array to $route', ...limitsField };
    }
    const settings = deps.settingsFor(uri);
    const app = deps.service.application(a.appDir);
    const root = app?.root();
    const mainFile = deps.uriToPath(uri);
    const router = requestRouter({
      flavour: a.router.flavour,
      root: root?.tree ?? EMPTY_TREE,
      main: a.evaluation,
      read: (p) => root?.read(p, openText),
      // Module route files include files as the main one does, relative to their own folder.
      evaluate: { dialect: a.dialect, maxSteps: settings.maxSteps, maxMilliseconds: settings.maxEvaluationMs, maxRoutes: settings.maxRoutes, ...(mainFile ? moduleSetup(deps.service.applications.setupFor(mainFile, { phpVersion: settings.phpVersion })) : {}) },
      fileName: (p) => root?.absolute(p) ?? p,
      ...unknownsOf(app?.controllerLookUpUnknown(a.router.flavour), app?.routingUnknown(), app?.moduleRoutesUnknown(a.router.flavour)),
      ...(app ? { methodsOf: (file: string) => app.controllers().methods(file), uriFilter: app.uriFilter(a.environment.choice.name) } : {}),
    });
    // As CodeIgniter reads REQUEST_URI, and as `ci-routes match` does: host, query, the front
    // controller, empty and `..` segments and config.php's url_suffix gone, percent-escapes kept
    // (CI_URI routes REQUEST_URI undecoded).
    const suffix = app?.urlSuffix(a.environment.choice.name).suffix ?? '';
    const { main_span, module_declaration, order_unsure, conditional, ...routed } = router.route(requestUriPath(url, undefined, suffix), REQUEST_METHODS[m]);
    const moduleFile = module_declaration && root ? root.absolute(module_declaration.file) : undefined;
    // An empty URI goes to the default controller: no route is tried.
    const misses = routed.default_controller_route ? undefined : routeMisses(a.evaluation, m, routed.segments.join('/'), routed.main_matched_key, MAX_NOT_MATCHED);
    return {
      ...routed,
      error: routed.error === null ? null : shownError(routed.error),
      request_method: REQUEST_METHODS[m],
      router_source: a.router.source,
      ...limitsField,
      ...(order_unsure ? { orderUnsure: `'${order_unsure.other_key}' matches too and may come first: their order depends on the condition at line ${doc.positionAt(order_unsure.condition.start).line + 1}` } : {}),
      ...(conditional
        ? { conditional: conditional.map((c) => `'${c.key}' is set only where the condition at ${c.condition.file ? `${path.basename(c.condition.file.path)} ` : ''}line ${(c.condition.file ? includedLines(c.condition.file).lineOf(c.condition.start) : doc.positionAt(c.condition.start).line) + 1} holds (it cannot be decided): otherwise this URI is routed differently`) }
        : {}),
      ...(routed.controller_file !== null && root ? { controllerUri: pathToFileURL(root.absolute(routed.controller_file)).toString() } : {}),
      ...(main_span ? { location: { uri, range: spanToRange(doc, main_span) } } : {}),
      ...(misses
        ? {
            tried: misses.tried,
            notMatched: misses.misses.map(({ span, ...miss }) => ({ ...miss, ...(span ? { location: span.file ? { uri: pathToFileURL(span.file.path).toString(), range: includedRange(span) } : { uri, range: spanToRange(doc, span) } } : {}) })),
            ...(misses.more ? { notMatchedMore: misses.more } : {}),
          }
        : {}),
      ...(module_declaration && moduleFile
        ? { moduleLocation: { uri: pathToFileURL(moduleFile).toString(), range: spanToRange(TextDocument.create(pathToFileURL(moduleFile).toString(), 'php', 0, module_declaration.text), module_declaration.span) } }
        : {}),
    };
  }
}

/** What module route files take from the main file's setup: its includes reader and PHP version. */
function moduleSetup(setup: RouteFileSetup): { includes: RouteFileSetup['includes']; phpVersion: RouteFileSetup['php']['version'] } {
  return { includes: setup.includes, phpVersion: setup.php.version };
}

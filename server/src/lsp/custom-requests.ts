import { RequestType, type Connection, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { mergedRows, routeRows } from '../../../shared/analysis/model/route-table';
import { LineIndex } from '../../../shared/php/line-index';
import { analysisLimits, stoppingError, type FileEvaluation, type PhpError } from '../../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS } from '../../../shared/runtime/methods';
import { includedRange, spanToRange } from './convert';
import { describeEnvironment, environmentFileRun } from '../../../shared/app/environment';
import { pathToFileURL } from 'node:url';
import type { RouteService } from './route-service';
import type { WorkspaceIndex } from './workspace-index';

export type { RouteFileTable, RouteTableResult, RouteTableRow } from '../../../shared/protocol/route-table';
import { MAX_OTHER_FILE_ROWS, type RouteFileTable, type RouteTableResult } from '../../../shared/protocol/route-table';

/** `ciRoutes/routeTable`: every route of a route file per request method, and the application's other route files. */
export const RouteTableRequest = new RequestType<{ uri: string }, RouteTableResult | null, void>('ciRoutes/routeTable');
interface Deps {
  documents: TextDocuments<TextDocument>;
  service: RouteService;
  index: WorkspaceIndex;
  uriToPath(uri: string): string | undefined;
  ensureAnalysed(doc: TextDocument): void;
}

/** The other route files of the document's application, as the index holds them (see RouteTableResult.otherFiles). */
function otherRouteFiles(deps: Deps, file: string | undefined, appDir: string | undefined): RouteFileTable[] {
  const app = deps.service.application(appDir);
  if (!app || file === undefined) return [];
  const order = app.routeFilesInRouterOrder().filter((f) => f.file !== file);
  const wanted = new Set(order.map((f) => f.file));
  const inputs = new Map(deps.index.routeFileInputs((f) => wanted.has(f)).map((input) => [input.file, input]));
  const out: RouteFileTable[] = [];
  for (const { file: other, module } of order) {
    const input = inputs.get(other);
    if (!input) continue;
    const lines = LineIndex.of(input.text);
    const uri = pathToFileURL(other).toString();
    const rows = mergedRows(input.evaluation).filter((r) => !r.reserved);
    const failedAt = REQUEST_METHODS.findIndex((_, m) => stoppingError(input.evaluation, m));
    const failed = failedAt < 0 ? null : stoppingError(input.evaluation, failedAt);
    out.push({
      file: uri,
      ...(module !== undefined ? { module } : {}),
      ...(failed ? { error: `${REQUEST_METHODS[failedAt]}: ${failed.class}: ${failed.message}` } : {}),
      rows: rows.slice(0, MAX_OTHER_FILE_ROWS).map((r) => ({
        methods: r.methods,
        uri: r.key,
        target: r.targetText,
        names: r.names,
        ...(r.span ? { location: r.span.file ? { uri: pathToFileURL(r.span.file.path).toString(), range: includedRange(r.span) } : { uri, range: { start: lines.position(r.span.start), end: lines.position(r.span.end) } } } : {}),
      })),
      ...(rows.length > MAX_OTHER_FILE_ROWS ? { more: rows.length - MAX_OTHER_FILE_ROWS } : {}),
    });
  }
  return out;
}

/** A method's stopping error for the route table, with its line: the rows are then what the file declares without the failing statements. */
function errorField(doc: TextDocument, error: PhpError | null): { error?: string } {
  if (!error) return {};
  return { error: `${error.class}: ${error.message}${error.span && !error.span.file ? ` (line ${doc.positionAt(error.span.start).line + 1})` : ''}` };
}

/** The analysis limits an evaluation reached, each with its line (`line 3: evaluation stopped after …`). */
export function limitsOf(doc: TextDocument, evaluation: FileEvaluation): string[] {
  return analysisLimits(evaluation).map((p) => `line ${doc.positionAt(p.span.start).line + 1}: ${p.message}`);
}

export function registerCustomRequests(connection: Connection, deps: Deps): void {
  connection.onRequest(RouteTableRequest, ({ uri }) => {
    const doc = deps.documents.get(uri);
    if (!doc) return null;
    deps.ensureAnalysed(doc);
    const a = deps.service.last(uri);
    if (!a) return null;
    const limits = limitsOf(doc, a.evaluation);
    const ran = environmentFileRun(a.evaluation.included);
    const otherFiles = otherRouteFiles(deps, deps.uriToPath(uri), a.appDir);
    return {
      file: uri,
      dialect: a.dialect,
      dialectSource: a.dialectSource,
      php: a.php,
      router: a.router.flavour,
      routerSource: a.router.source,
      environment: a.environment.choice.name ?? null,
      environmentSource: a.environment.choice.source,
      ...(ran ? { environmentRoutes: pathToFileURL(ran.path).toString() } : {}),
      environmentLine: describeEnvironment(a.environment.choice, a.environment.routes, ran !== undefined, deps.service.application(a.appDir)?.environmentsWithRoutes() ?? []),
      ...(limits.length ? { limits } : {}),
      methods: REQUEST_METHODS.map((method, m) => ({
        method,
        ...errorField(doc, stoppingError(a.evaluation, m)),
        rows: routeRows(a.evaluation, m).map((r) => ({
          index: r.index,
          uri: r.key,
          target: r.targetText,
          names: r.names,
          reserved: r.reserved,
          ...(r.span ? { location: r.span.file ? { uri: pathToFileURL(r.span.file.path).toString(), range: includedRange(r.span) } : { uri, range: spanToRange(doc, r.span) } } : {}),
        })),
      })),
      ...(otherFiles.length ? { otherFiles } : {}),
    };
  });
}

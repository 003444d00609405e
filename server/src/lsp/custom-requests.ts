import { RequestType, type Connection, type Location, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { routeRows } from '../../../shared/analysis/route-table';
import { analysisLimits, type FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS } from '../../../shared/library/methods';
import { includedRange, spanToRange } from './convert';
import { describeEnvironment, environmentFileRun, environmentsWithRoutes } from '../host/environment';
import { pathToFileURL } from 'node:url';
import type { RouteService } from './route-service';

export interface RouteTableRow {
  index: number;
  uri: string;
  target: string;
  names: string[];
  reserved: boolean;
  location?: Location;
}

export interface RouteTableResult {
  file: string;
  dialect: string;
  /** How the dialect was chosen (`detected from …`, `given`, `default`…). */
  dialectSource: string;
  /** The router that routes the application's requests (Test URL), and how it was chosen. */
  router: string;
  routerSource: string;
  /** ENVIRONMENT the route files run in (null when given but not a string), and how it was chosen. */
  environment: string | null;
  environmentSource: string;
  /** The environment's route file the router ran after this main route file, if it did. */
  environmentRoutes?: string;
  /** One line saying all of it, for the route table's header (see describeEnvironment). */
  environmentLine: string;
  /** The analysis limits the evaluation reached (`line 3: evaluation stopped after …`): the tables are then not all the file does. */
  limits?: string[];
  methods: { method: string; error?: string; rows: RouteTableRow[] }[];
}

/** `ciRoutes/routeTable`: every method's final route table of a route document. */
export const RouteTableRequest = new RequestType<{ uri: string }, RouteTableResult | null, void>('ciRoutes/routeTable');
interface Deps {
  documents: TextDocuments<TextDocument>;
  service: RouteService;
  ensureAnalysed(doc: TextDocument): void;
}

/** Percent-decodes a typed URL path; a malformed escape (`%ZZ`, a lone `%E9`) leaves the path as typed. */
export function decodePath(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
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
    return {
      file: uri,
      dialect: a.dialect,
      dialectSource: a.dialectSource,
      router: a.router.flavour,
      routerSource: a.router.source,
      environment: a.environment.choice.name ?? null,
      environmentSource: a.environment.choice.source,
      ...(ran ? { environmentRoutes: pathToFileURL(ran.path).toString() } : {}),
      environmentLine: describeEnvironment(a.environment.choice, a.environment.routes, ran !== undefined, environmentsWithRoutes(a.appDir)),
      ...(limits.length ? { limits } : {}),
      methods: REQUEST_METHODS.map((method, m) => ({
        method,
        ...(a.evaluation.methods[m].error ? { error: `${a.evaluation.methods[m].error?.class}: ${a.evaluation.methods[m].error?.message}` } : {}),
        rows: routeRows(a.evaluation, m).map((r) => ({
          index: r.index,
          uri: r.key,
          target: r.targetText,
          names: r.names,
          reserved: r.reserved,
          ...(r.span ? { location: r.span.file ? { uri: pathToFileURL(r.span.file.path).toString(), range: includedRange(r.span) } : { uri, range: spanToRange(doc, r.span) } } : {}),
        })),
      })),
    };
  });
}

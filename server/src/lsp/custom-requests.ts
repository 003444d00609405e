import { RequestType, type Connection, type Location, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { routeRows } from '../../../shared/analysis/route-table';
import { analysisLimits, type FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS } from '../../../shared/library/methods';
import { spanToRange } from './convert';
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
    return {
      file: uri,
      dialect: a.dialect,
      dialectSource: a.dialectSource,
      router: a.router.flavour,
      routerSource: a.router.source,
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
          ...(r.span ? { location: { uri, range: spanToRange(doc, r.span) } } : {}),
        })),
      })),
    };
  });
}

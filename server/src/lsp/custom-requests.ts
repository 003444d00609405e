import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RequestType, type Connection, type Location, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { routeRows } from '../../../shared/analysis/route-table';
import { analysisLimits, type FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS, methodIndex } from '../../../shared/library/methods';
import { EMPTY_TREE } from '../../../shared/router/app-tree';
import { routeUri, type UrlMatch } from '../../../shared/router/ci-router';
import { resolveController, type ControllerResolution } from '../../../shared/router/controllers';
import { DiskTree } from '../host/disk-tree';
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
  /** The analysis limits the evaluation reached (`line 3: evaluation stopped after …`): the tables are then not all the file does. */
  limits?: string[];
  methods: { method: string; error?: string; rows: RouteTableRow[] }[];
}

export interface TestUrlResult extends UrlMatch {
  method: string;
  /** As RouteTableResult's: the answer may not be what PHP does. */
  limits?: string[];
  controller: ControllerResolution | null;
  /** The controller file, when found. */
  controllerUri?: string;
  /** The declaration of the matched route. */
  location?: Location;
  error?: string;
}

/** `ciRoutes/routeTable`: every method's final route table of a route document. */
export const RouteTableRequest = new RequestType<{ uri: string }, RouteTableResult | null, void>('ciRoutes/routeTable');
/** `ciRoutes/testUrl`: which route CodeIgniter picks for `GET /photos/12`, and where it lands. */
export const TestUrlRequest = new RequestType<{ uri: string; method: string; url: string }, TestUrlResult | null, void>('ciRoutes/testUrl');

interface Deps {
  documents: TextDocuments<TextDocument>;
  service: RouteService;
  ensureAnalysed(doc: TextDocument): void;
}

/** Percent-decodes a typed URL path; a malformed escape (`%ZZ`, a lone `%E9`) leaves the path as typed. */
function decodePath(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/** The analysis limits an evaluation reached, each with its line (`line 3: evaluation stopped after …`). */
function limitsOf(doc: TextDocument, evaluation: FileEvaluation): string[] {
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

  connection.onRequest(TestUrlRequest, ({ uri, method, url }) => {
    const doc = deps.documents.get(uri);
    const m = methodIndex(method);
    if (!doc || m === undefined) return null;
    deps.ensureAnalysed(doc);
    const a = deps.service.last(uri);
    if (!a) return null;
    const result = a.evaluation.methods[m];
    const limits = limitsOf(doc, a.evaluation);
    const base = { method: REQUEST_METHODS[m], uri: url, matched_key: null, target_segments: null, default_controller_route: false, controller: null, ...(limits.length ? { limits } : {}) };
    if (!result.routes || result.error) {
      return { ...base, dispatch: { directory: null, class: '', method: 'index', rsegments: [], default_controller_used: false }, error: result.error ? `${result.error.class}: ${result.error.message}` : 'the file never assigns an array to $route' };
    }
    const tree = a.appDir ? new DiskTree(a.appDir) : EMPTY_TREE;
    const path0 = url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/[?#].*$/, '');
    const match = routeUri(result.routes, decodePath(path0), { method: REQUEST_METHODS[m], tree, callClosure: (c, args) => a.evaluation.callClosure(m, c, args) });
    const d = match.dispatch;
    const segments = d.rsegments.length ? [...(d.directory ? d.directory.split('/').filter(Boolean) : []), ...d.rsegments] : [];
    const controller = segments.length ? resolveController(segments, tree) : null;
    const rows = routeRows(a.evaluation, m);
    const row = match.matchedIndex === undefined ? undefined : rows[match.matchedIndex];
    return {
      ...match,
      method: REQUEST_METHODS[m],
      ...(limits.length ? { limits } : {}),
      controller,
      ...(controller?.found && a.appDir ? { controllerUri: pathToFileURL(path.join(a.appDir, controller.target.file)).toString() } : {}),
      ...(row?.span ? { location: { uri, range: spanToRange(doc, row.span) } } : {}),
    };
  });
}

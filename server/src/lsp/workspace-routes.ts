import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RequestType, type Connection } from 'vscode-languageserver';
import { mergedRows, type MergedRow } from '../../../shared/analysis/model/route-table';
import { includedLines } from '../../../shared/analysis/model/included-places';
import { analysisLimits, stoppingError } from '../../../shared/evaluate/evaluate-file';
import type { Span } from '../../../shared/php/ast';
import { LineIndex } from '../../../shared/php/line-index';
import { REQUEST_METHODS } from '../../../shared/runtime/methods';
import { moduleOfRouteFile } from '../../../shared/app/layout';
import type { ProtocolLocation } from '../../../shared/protocol/route-table';
import {
  MAX_DECLARATION_TEXT,
  MAX_WORKSPACE_FILE_ROWS,
  type WorkspaceApplication,
  type WorkspaceRoute,
  type WorkspaceRouteFile,
  type WorkspaceRoutesResult,
} from '../../../shared/protocol/workspace-routes';
import type { RouteService } from './route-service';
import type { RouteFileInput, WorkspaceIndex } from './workspace-index';
import { compareIgnoringCase } from '../../../shared/util/without-icu';

export type { WorkspaceRoutesResult } from '../../../shared/protocol/workspace-routes';

/** `ciRoutes/workspaceRoutes`: every route of every route file of the workspace, by application. */
export const WorkspaceRoutesRequest = new RequestType<Record<string, never> | null, WorkspaceRoutesResult, void>('ciRoutes/workspaceRoutes');
/** Sent (no params) when a route file's routes may have changed, to a client that has asked `ciRoutes/workspaceRoutes`: it asks again. */
export const ROUTES_CHANGED_NOTIFICATION = 'ciRoutes/routesChanged';

interface Deps {
  index: WorkspaceIndex;
  service: RouteService;
  /** Whether the first scan of the workspace is done. */
  indexed(): boolean;
}

/** The declaration's first line as written, trimmed and cut to MAX_DECLARATION_TEXT characters. */
function declarationText(text: string, span: Span): string {
  const source = span.file ? span.file.text : text;
  const lineEnd = source.indexOf('\n', span.start);
  const line = source.slice(span.start, Math.min(span.end, lineEnd < 0 ? source.length : lineEnd)).trim();
  return line.length > MAX_DECLARATION_TEXT ? `${line.slice(0, MAX_DECLARATION_TEXT - 1)}…` : line;
}

/** One route file's routes as the explorer shows them (see WorkspaceRouteFile). */
export function routeFileRoutes(input: RouteFileInput, name: string): WorkspaceRouteFile {
  const { file, text, evaluation } = input;
  const uri = pathToFileURL(file).toString();
  const lines = LineIndex.of(text);
  const location = (span: Span): ProtocolLocation =>
    span.file
      ? { uri: pathToFileURL(span.file.path).toString(), range: { start: includedLines(span.file).position(span.start), end: includedLines(span.file).position(span.end) } }
      : { uri, range: { start: lines.position(span.start), end: lines.position(span.end) } };
  const rows = mergedRows(evaluation).filter((r) => !r.reserved);
  const failedAt = REQUEST_METHODS.findIndex((_, m) => stoppingError(evaluation, m));
  const failed = failedAt < 0 ? null : stoppingError(evaluation, failedAt);
  const limits = analysisLimits(evaluation).map((p) => `line ${(p.span.file ? includedLines(p.span.file) : lines).lineOf(p.span.start) + 1}: ${p.message}`);
  const module = moduleOfRouteFile(file);
  const row = (r: MergedRow): WorkspaceRoute => ({
    methods: r.methods,
    uri: r.key,
    target: r.targetText,
    names: r.names,
    ...(r.unknown !== undefined ? { unknown: r.unknown } : {}),
    ...(r.span ? { location: location(r.span), declaration: declarationText(text, r.span) } : {}),
  });
  return {
    uri,
    name,
    ...(module !== undefined ? { module } : {}),
    ...(failed ? { error: `${REQUEST_METHODS[failedAt]}: ${failed.class}: ${failed.message}${failed.span ? ` (line ${(failed.span.file ? includedLines(failed.span.file) : lines).lineOf(failed.span.start) + 1})` : ''}` } : {}),
    ...(limits.length ? { limits } : {}),
    rows: rows.slice(0, MAX_WORKSPACE_FILE_ROWS).map(row),
    ...(rows.length > MAX_WORKSPACE_FILE_ROWS ? { more: rows.length - MAX_WORKSPACE_FILE_ROWS } : {}),
  };
}

/**
 * Answers `ciRoutes/workspaceRoutes` from the workspace index. A file's routes are built again
 * only when the index's version of it changed (an edit, a change on disk): asking again after
 * each notification costs the files that changed, and a file the index let go is not evaluated
 * again to say what it said before.
 */
export class WorkspaceRoutes {
  private readonly built = new Map<string, { version: number; name: string; routes: WorkspaceRouteFile }>();

  /** Whether the client asked for the routes: then, and only then, it is told when they change (ROUTES_CHANGED_NOTIFICATION). */
  asked = false;

  constructor(private readonly deps: Deps) {}

  answer(): WorkspaceRoutesResult {
    this.asked = true;
    const { index, service } = this.deps;
    const files = index.routeFiles();
    const byApp = new Map<string, { dir: string; files: string[] }>();
    for (const file of files) {
      // A route file in no application's layout stands for its own folder.
      const dir = service.applications.applicationDirOf(file) ?? path.dirname(file);
      const group = byApp.get(dir) ?? { dir, files: [] };
      group.files.push(file);
      byApp.set(dir, group);
    }
    const wanted = new Set(files);
    for (const file of this.built.keys()) if (!wanted.has(file)) this.built.delete(file);
    const applications: WorkspaceApplication[] = [];
    for (const { dir, files: own } of [...byApp.values()].sort((a, b) => compareIgnoringCase(a.dir, b.dir))) {
      // The router's order: the main file, then each module's; any other after them.
      const order = service.application(dir)?.routeFilesInRouterOrder().map((f) => f.file) ?? [];
      const rank = (f: string) => (order.includes(f) ? order.indexOf(f) : order.length);
      const sorted = [...own].sort((a, b) => rank(a) - rank(b) || compareIgnoringCase(a, b));
      applications.push({ uri: pathToFileURL(dir).toString(), name: this.appName(dir), files: sorted.map((f) => this.fileRoutes(f, path.dirname(dir))) });
    }
    return { indexing: !this.deps.indexed(), applications };
  }

  private fileRoutes(file: string, projectDir: string): WorkspaceRouteFile {
    const { index } = this.deps;
    const version = index.routeFileVersion(file);
    const name = path.relative(projectDir, file).split(path.sep).join('/');
    const known = this.built.get(file);
    if (known && known.version === version && known.name === name) return known.routes;
    const input = index.routeFileInputs((f) => f === file)[0];
    const routes = input ? routeFileRoutes(input, name) : { uri: pathToFileURL(file).toString(), name, rows: [] };
    this.built.set(file, { version, name, routes });
    return routes;
  }

  private appName(dir: string): string {
    const folder = this.deps.index.folderOf(dir);
    const rel = folder ? path.relative(folder.path, dir).split(path.sep).join('/') : '';
    return rel || path.basename(dir);
  }
}

export function registerWorkspaceRoutes(connection: Connection, routes: WorkspaceRoutes): void {
  connection.onRequest(WorkspaceRoutesRequest, () => routes.answer());
}

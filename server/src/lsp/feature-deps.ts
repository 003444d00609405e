import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FolderSettings } from '../../../shared/workspace/settings';
import type { NamedUsage } from '../../../shared/workspace/php-index';
import type { RouteService } from './route-service';
import type { RouteFileInput, WorkspaceIndex } from './workspace-index';

/** What the request handlers need from the server. */
export interface FeatureDeps {
  documents: TextDocuments<TextDocument>;
  service: RouteService;
  index: WorkspaceIndex;
  uriToPath(uri: string): string | undefined;
  /** Makes sure the document's analysis is current (route files) before answering. */
  ensureAnalysed(doc: TextDocument): void;
  settingsFor(file: string): FolderSettings;
  /** A line in the server's log. */
  log(message: string): void;
}

/**
 * Every route file (or those `wanted`) with its current text and evaluation: open documents win
 * over the index (each at its current version), which evaluates again, when read, a file whose
 * evaluation it let go.
 */
export function routeInputs(deps: FeatureDeps, wanted?: RouteFileInput[]): RouteFileInput[] {
  const byFile = new Map((wanted ?? deps.index.routeFileInputs()).map((r) => [r.file, r] as const));
  for (const doc of deps.documents.all()) {
    const file = deps.uriToPath(doc.uri);
    if (!file || !deps.index.isRouteFile(file) || (wanted && !byFile.has(file))) continue;
    // Places are given in the document's current text: an edit the requests have not evaluated
    // yet is evaluated first (an older evaluation's spans would point elsewhere in this text).
    if (deps.service.last(doc.uri)?.version !== doc.version) deps.ensureAnalysed(doc);
    const last = deps.service.last(doc.uri);
    if (last) byFile.set(file, { file, text: last.text, evaluation: last.evaluation });
  }
  return [...byFile.values()];
}

/**
 * What references and rename read for these names: the route files that declare one of them (or
 * are open or held), and the `Route::named()` uses of the others, without evaluating those again.
 */
export function referenceInputs(deps: FeatureDeps, names: readonly string[]): { routeFiles: RouteFileInput[]; usages: { file: string; usages: NamedUsage[] }[] } {
  const { routeFiles, usages } = deps.index.referenceInputs(names);
  const open = routeInputs(deps, routeFiles);
  const full = new Set(open.map((r) => r.file));
  return {
    routeFiles: open,
    usages: [...usages.filter((u) => !full.has(u.file)), ...deps.index.usageFiles().map(([file, list]) => ({ file, usages: list }))],
  };
}

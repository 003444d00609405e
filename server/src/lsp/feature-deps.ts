import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import type { FolderSettings } from '../../../shared/workspace/settings';
import type { RouteService } from './route-service';
import type { WorkspaceIndex } from './workspace-index';

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

/** Every route file with its current text and evaluation: open documents win over the index. */
export function routeInputs(deps: FeatureDeps): { file: string; text: string; evaluation: FileEvaluation }[] {
  const byFile = new Map(deps.index.routeFileInputs().map((r) => [r.file, r] as const));
  for (const doc of deps.documents.all()) {
    const file = deps.uriToPath(doc.uri);
    const last = deps.service.last(doc.uri);
    if (file && last && deps.index.isRouteFile(file)) byFile.set(file, { file, text: last.text, evaluation: last.evaluation });
  }
  return [...byFile.values()];
}

import { pathToFileURL } from 'node:url';
import {
  CompletionItemKind,
  MarkupKind,
  type CompletionItem,
  type Connection,
  type Hover,
  type Location,
  type TextDocuments,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { completeNamed, completeRouteMethods, type CompletionEntry } from '../../../shared/analysis/completion';
import { hoverAt } from '../../../shared/analysis/hover';
import { nameDeclarations } from '../../../shared/analysis/produced';
import type { NamedUsage } from '../../../shared/workspace/php-index';
import { spanToRange } from './convert';
import type { RouteService } from './route-service';
import type { WorkspaceIndex } from './workspace-index';

const KIND: Record<CompletionEntry['kind'], CompletionItemKind> = {
  'route-name': CompletionItemKind.Constant,
  method: CompletionItemKind.Method,
  option: CompletionItemKind.Property,
  wildcard: CompletionItemKind.Snippet,
};

interface Deps {
  documents: TextDocuments<TextDocument>;
  service: RouteService;
  index: WorkspaceIndex;
  uriToPath(uri: string): string | undefined;
  /** Makes sure the document's analysis is current (route files) before answering. */
  ensureAnalysed(doc: TextDocument): void;
}

/** The literal name of the `Route::named()` call under the cursor, in any PHP file. */
function namedAt(deps: Deps, doc: TextDocument, offset: number): string | undefined {
  const file = deps.uriToPath(doc.uri);
  if (!file) return undefined;
  if (deps.index.isRouteFile(file)) {
    const a = deps.service.last(doc.uri);
    const call = a?.evaluation.calls.find((c) => c.site.method === 'named' && offset >= c.site.span.start && offset <= c.site.span.end);
    return typeof call?.args[0] === 'string' ? call.args[0] : undefined;
  }
  const usages: NamedUsage[] = deps.index.updatePhpFile(file, doc.getText());
  return usages.find((u) => offset >= u.callSpan.start && offset <= u.callSpan.end)?.name;
}

function declarationLocations(deps: Deps, name: string): Location[] {
  return deps.index.declarationsOf(name).map((d) => ({
    uri: pathToFileURL(d.file).toString(),
    range: { start: { line: d.line, character: d.character }, end: { line: d.endLine, character: d.endCharacter } },
  }));
}

export function registerFeatures(connection: Connection, deps: Deps): void {
  connection.onHover((params, token): Hover | null => {
    const doc = deps.documents.get(params.textDocument.uri);
    if (!doc || token.isCancellationRequested) return null;
    deps.ensureAnalysed(doc);
    const offset = doc.offsetAt(params.position);
    const file = deps.uriToPath(doc.uri);
    const analysed = deps.service.last(doc.uri);
    if (file && deps.index.isRouteFile(file) && analysed) {
      const h = hoverAt(analysed.text, analysed.evaluation, offset);
      if (h) return { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: spanToRange(doc, h.span) };
      return null;
    }
    const name = namedAt(deps, doc, offset);
    if (name === undefined) return null;
    const decls = deps.index.declarationsOf(name);
    const value = decls.length
      ? decls.map((d) => `**Route \`${name}\`** → \`${d.from}\`\n\nUnder ${d.methods.join(', ')}; declared in ${d.file}:${d.line + 1}.`).join('\n\n---\n\n')
      : `No route is named \`${name}\`: \`Route::named('${name}')\` returns null.`;
    return { contents: { kind: MarkupKind.Markdown, value } };
  });

  connection.onCompletion((params, token): CompletionItem[] | null => {
    const doc = deps.documents.get(params.textDocument.uri);
    if (!doc || token.isCancellationRequested) return null;
    const text = doc.getText();
    const offset = doc.offsetAt(params.position);
    const names = deps.index.allNames();
    const analysed = deps.service.last(doc.uri);
    if (analysed) for (const [n, d] of nameDeclarations(analysed.evaluation)) names.set(n, { from: d.from, methods: d.methods });
    const entries = completeNamed(text, offset, names) ?? completeRouteMethods(text, offset);
    if (!entries) return null;
    return entries.map((e) => ({
      label: e.label,
      kind: KIND[e.kind],
      detail: e.detail,
      documentation: e.documentation ? { kind: MarkupKind.Markdown, value: e.documentation } : undefined,
      textEdit: { range: spanToRange(doc, e.replace), newText: e.insertText ?? e.label },
      filterText: e.label,
    }));
  });

  connection.onDefinition((params, token): Location[] | null => {
    const doc = deps.documents.get(params.textDocument.uri);
    if (!doc || token.isCancellationRequested) return null;
    deps.ensureAnalysed(doc);
    const name = namedAt(deps, doc, doc.offsetAt(params.position));
    if (name === undefined) return null;
    const locations = declarationLocations(deps, name);
    // The open route document's own declarations are the freshest.
    const analysed = deps.service.last(doc.uri);
    const own = analysed && nameDeclarations(analysed.evaluation).get(name);
    if (own) {
      const mine = { uri: doc.uri, range: spanToRange(doc, own.span) };
      return [mine, ...locations.filter((l) => l.uri !== doc.uri)];
    }
    return locations.length ? locations : null;
  });
}

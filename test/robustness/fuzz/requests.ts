import type { Diagnostic, Position } from 'vscode-languageserver-protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';

export interface FuzzRequest {
  method: string;
  params: unknown;
}

const URLS = ['', '/', 'articles/12', '/api/v2/photos/3?x=1', 'admin/setup', 'http://host/photos/12#top', 'a%2Fb/%ZZ', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-', 'é/😀', '../../etc/passwd'];
const VERBS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS', 'CLI', 'get', 'BREW'];
const NAMES = ['about', 'x', '', 'new-name', 'a b', "it's"];

const pick = <T>(list: readonly T[], rnd: () => number): T => list[Math.floor(rnd() * list.length)];

/** A position in the document, sometimes a stale one past its end (clients lag behind edits). */
function positionIn(doc: TextDocument, rnd: () => number): Position {
  if (rnd() < 0.03) return { line: doc.lineCount + Math.floor(rnd() * 3), character: Math.floor(rnd() * 200) };
  return doc.positionAt(Math.floor(rnd() * (doc.getText().length + 1)));
}

function randomUrl(rnd: () => number): string {
  if (rnd() < 0.7) return pick(URLS, rnd);
  const segments = 1 + Math.floor(rnd() * 4);
  return Array.from({ length: segments }, () => pick(['photos', 'api', 'v1', '12', 'admin', 'x-y', '(:any)', 'é'], rnd)).join('/');
}

/** The request kinds an editor sends about a document, with their parameters at a random place. */
const KINDS: ((doc: TextDocument, rnd: () => number, diagnostics: Diagnostic[]) => FuzzRequest)[] = [
  (d, r) => ({ method: 'textDocument/hover', params: { textDocument: { uri: d.uri }, position: positionIn(d, r) } }),
  (d, r) => ({ method: 'textDocument/completion', params: { textDocument: { uri: d.uri }, position: positionIn(d, r), context: { triggerKind: 1 } } }),
  (d, r) => ({ method: 'textDocument/definition', params: { textDocument: { uri: d.uri }, position: positionIn(d, r) } }),
  (d, r) => ({ method: 'textDocument/references', params: { textDocument: { uri: d.uri }, position: positionIn(d, r), context: { includeDeclaration: r() < 0.5 } } }),
  (d) => ({ method: 'textDocument/documentSymbol', params: { textDocument: { uri: d.uri } } }),
  (d) => ({ method: 'textDocument/codeLens', params: { textDocument: { uri: d.uri } } }),
  (d, r) => {
    const a = positionIn(d, r);
    return { method: 'textDocument/inlayHint', params: { textDocument: { uri: d.uri }, range: r() < 0.5 ? { start: { line: 0, character: 0 }, end: { line: d.lineCount, character: 0 } } : { start: a, end: a } } };
  },
  (d) => ({ method: 'textDocument/documentLink', params: { textDocument: { uri: d.uri } } }),
  (d, r) => ({ method: 'textDocument/signatureHelp', params: { textDocument: { uri: d.uri }, position: positionIn(d, r), context: { triggerKind: 1, isRetrigger: false } } }),
  (d, r, diags) => {
    const a = positionIn(d, r);
    return { method: 'textDocument/codeAction', params: { textDocument: { uri: d.uri }, range: { start: a, end: a }, context: { diagnostics: diags.slice(0, 1 + Math.floor(r() * 5)) } } };
  },
  (d, r) => ({ method: 'textDocument/prepareRename', params: { textDocument: { uri: d.uri }, position: positionIn(d, r) } }),
  (d, r) => ({ method: 'textDocument/rename', params: { textDocument: { uri: d.uri }, position: positionIn(d, r), newName: pick(NAMES, r) } }),
  (_d, r) => ({ method: 'workspace/symbol', params: { query: pick(['', 'photos', 'api/', '(:num)', 'zzz'], r) } }),
  (d) => ({ method: 'ciRoutes/routeTable', params: { uri: d.uri } }),
  (d, r) => ({ method: 'ciRoutes/testUrl', params: { uri: d.uri, method: pick(VERBS, r), url: randomUrl(r) } }),
];

export function randomRequest(doc: TextDocument, diagnostics: Diagnostic[], rnd: () => number): FuzzRequest {
  return pick(KINDS, rnd)(doc, rnd, diagnostics);
}

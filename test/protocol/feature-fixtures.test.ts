import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeLensRequest,
  CompletionRequest,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  HoverRequest,
  InlayHintRequest,
  SignatureHelpRequest,
  type CodeLens,
  type CompletionItem,
  type CompletionList,
  type DocumentSymbol,
  type Hover,
  type InlayHint,
  type Location,
  type MarkupContent,
  type SignatureHelp,
} from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { EXAMPLE_APP, ROOT } from '../helpers/paths';

/**
 * Editor features as data-driven fixtures (see test/fixtures/features/README.md): one `check()`
 * asks the server what an editor asks, so a change of the engine's inside touches no test.
 */
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'features');
const MARKER = '/*|*/';
const update = process.env.UPDATE_FIXTURES === '1';

/** The text without its markers, and each marker's place in it. */
function cursors(marked: string): { text: string; at: { line: number; character: number }[] } {
  const at: { line: number; character: number }[] = [];
  let text = '';
  let rest = marked;
  for (let i = rest.indexOf(MARKER); i >= 0; i = rest.indexOf(MARKER)) {
    text += rest.slice(0, i);
    const lines = text.split('\n');
    at.push({ line: lines.length - 1, character: lines[lines.length - 1].length });
    rest = rest.slice(i + MARKER.length);
  }
  return { text: text + rest, at };
}

describe('editor features: fixtures (a cursor-marked route file ↔ what the server answers)', function () {
  this.timeout(60_000);
  let dir: string;
  let client: LspClient;
  let uri: string;
  let version = 0;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-features-'));
    fs.cpSync(path.join(EXAMPLE_APP, 'application'), path.join(dir, 'application'), { recursive: true });
    uri = pathToFileURL(path.join(dir, 'application', 'config', 'routes.php')).toString();
    client = new LspClient();
    await client.initialize(dir);
    // The workspace index read first (names from the other route files are then known).
    for (let i = 0; i < 200 && !client.logs.some((l) => l.includes('] indexed ')); i++) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => {
    await client.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const shown = (u: string) => (u === uri ? 'routes.php' : path.relative(dir, new URL(u).pathname));
  const place = (l: Location) => `${shown(l.uri)}:${l.range.start.line + 1}:${l.range.start.character + 1}-${l.range.end.line + 1}:${l.range.end.character + 1}`;

  async function check(file: string): Promise<string> {
    const { text, at } = cursors(fs.readFileSync(path.join(FIXTURES, file), 'utf8'));
    version++;
    if (version === 1) await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version, text } });
    else await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    await client.waitForDiagnostics(uri, (p) => p.version === version);
    const out: string[] = [];
    for (const [i, position] of at.entries()) {
      const p = { textDocument: { uri }, position };
      out.push(`@${i + 1} ${position.line + 1}:${position.character + 1}`);
      const hover = (await client.connection.sendRequest(HoverRequest.type, p)) as Hover | null;
      out.push(`hover: ${hover ? (hover.contents as MarkupContent).value.replace(/file:\/\/[^)\s]*/g, (u) => shown(u) + new URL(u).hash) : '-'}`);
      const completion = (await client.connection.sendRequest(CompletionRequest.type, p)) as CompletionItem[] | CompletionList | null;
      const items = Array.isArray(completion) ? completion : (completion?.items ?? []);
      out.push(`completion: ${items.length ? items.slice(0, 12).map((c) => c.label + (c.detail ? ` (${c.detail})` : '')).join(', ') + (items.length > 12 ? `, … ${items.length} in all` : '') : '-'}`);
      const definition = (await client.connection.sendRequest(DefinitionRequest.type, p)) as Location[] | null;
      out.push(`definition: ${definition?.length ? definition.map(place).join(', ') : '-'}`);
      const signature = (await client.connection.sendRequest(SignatureHelpRequest.type, p)) as SignatureHelp | null;
      out.push(`signature: ${signature?.signatures.length ? `${signature.signatures[signature.activeSignature ?? 0].label} [parameter ${signature.activeParameter ?? 0}]` : '-'}`);
      out.push('');
    }
    const symbols = ((await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[] | null) ?? [];
    const outline = (list: DocumentSymbol[], depth: number): string[] => list.flatMap((s) => [`${'  '.repeat(depth)}${s.name}${s.detail ? ` — ${s.detail}` : ''} (line ${s.range.start.line + 1})`, ...outline(s.children ?? [], depth + 1)]);
    out.push('outline:', ...outline(symbols, 1));
    const lenses = ((await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) as CodeLens[] | null) ?? [];
    out.push('lenses:', ...lenses.map((l) => `  line ${l.range.start.line + 1}: ${l.command?.title ?? '-'}`));
    const lines = text.split('\n').length;
    const hints = ((await client.connection.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: lines, character: 0 } } })) as InlayHint[] | null) ?? [];
    out.push('inlay hints:', ...hints.map((h) => `  ${h.position.line + 1}:${h.position.character + 1} ${typeof h.label === 'string' ? h.label : h.label.map((x) => x.value).join('')}`));
    return `${out.join('\n')}\n`;
  }

  for (const file of fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.php')).sort()) {
    it(file, async () => {
      const actual = await check(file);
      const expectedFile = path.join(FIXTURES, file.replace(/\.php$/, '.expected'));
      if (update || !fs.existsSync(expectedFile)) fs.writeFileSync(expectedFile, actual);
      assert.equal(actual, fs.readFileSync(expectedFile, 'utf8'), `${path.relative(ROOT, expectedFile)} (UPDATE_FIXTURES=1 rewrites it)`);
    });
  }

  it('reads the cursors of a marked text', () => {
    assert.deepEqual(cursors('ab/*|*/c\nd/*|*/'), { text: 'abc\nd', at: [{ line: 0, character: 2 }, { line: 1, character: 1 }] });
  });
});

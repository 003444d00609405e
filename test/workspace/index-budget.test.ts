import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DefinitionRequest,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  ReferencesRequest,
  type Hover,
  type Location,
  type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { WeightedLru } from '../../shared/util/weighted-lru';
import type { IndexStats } from '../../server/src/lsp/workspace-index';
import { LspClient } from '../helpers/lsp-client';

const MODULES = 6;
/** Every module's route file has the same length (one-digit module numbers), so the budget holds a known count. */
const routesOf = (i: number) => `<?php\nRoute::get('m${i}/a', 'welcome/index', array('as' => 'name_${i}_a'));\nRoute::get('m${i}/b', 'welcome/index');\n$route = Route::map($route);\n`;
const FILE_BYTES = Buffer.byteLength(routesOf(0));
/** Two files and a half: two closed files' evaluations are held. */
const BUDGET = Math.floor(FILE_BYTES * 2.5);

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

describe('weighted LRU', () => {
  it('keeps the most recently used keys within the budget, and always the last one', () => {
    const lru = new WeightedLru<string>(10);
    assert.deepEqual(lru.touch('a', 4), []);
    assert.deepEqual(lru.touch('b', 4), []);
    assert.deepEqual(lru.touch('a', 4), [], 'a is used again: b is now the oldest');
    assert.deepEqual(lru.touch('c', 4), ['b']);
    assert.deepEqual(lru.keys(), ['a', 'c']);
    assert.deepEqual(lru.touch('huge', 50), ['a', 'c'], 'the last used stays, alone over the budget');
    assert.equal(lru.weight, 50);
    assert.deepEqual(lru.setBudget(100), []);
    lru.touch('d', 1);
    assert.deepEqual(lru.setBudget(2), ['huge']);
  });
});

describe('language server: the index holds a bounded number of evaluations', function () {
  this.timeout(60_000);
  let base: string;
  let client: LspClient;
  let files: string[];
  const view = () => path.join(base, 'application', 'views', 'page.php');
  const stats = () => client.connection.sendRequest('ciRoutes/indexStats') as Promise<IndexStats>;

  before(async () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-budget-'));
    files = [];
    for (let i = 0; i < MODULES; i++) {
      const file = path.join(base, 'application', 'modules', `m${i}`, 'config', 'routes.php');
      write(file, routesOf(i));
      files.push(file);
    }
    write(path.join(base, 'application', 'controllers', 'Welcome.php'), "<?php\nclass Welcome extends CI_Controller {\n  public function index() {}\n}\n");
    client = new LspClient();
    await client.initialize(base, { debounceMs: 0, evaluationBudgetBytes: BUDGET });
    for (let waited = 0; !client.logs.some((l) => /indexed \d+ route file/.test(l)); waited += 20) {
      assert.ok(waited < 20_000, `not indexed: ${client.logs.join('\n')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  after(async () => {
    await client.shutdown();
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** A route file the index let go, with the name it declares. */
  async function droppedFile(): Promise<{ file: string; name: string }> {
    const held = new Set((await stats()).heldClosedFiles);
    const i = files.findIndex((f) => !held.has(f));
    assert.ok(i >= 0);
    return { file: files[i], name: `name_${i}_a` };
  }

  it('keeps the evaluations of the most recently used closed files up to the budget, and says so in its log', async () => {
    const s = await stats();
    assert.equal(s.routeFiles, MODULES);
    assert.equal(s.budgetBytes, BUDGET);
    assert.equal(s.heldClosed, 2);
    assert.equal(s.held, 2);
    assert.equal(s.heldClosedBytes, 2 * FILE_BYTES);
    assert.equal(s.letGo, MODULES - 2);
    assert.equal(s.rederived, 0);
    assert.ok(client.logs.some((l) => l.startsWith('[ci-routes] evaluations held: 2 of 6 route file(s)')), client.logs.join('\n'));
  });

  it('still knows the names of the files it let go, and where they are declared, without evaluating them again', async () => {
    const dropped = await droppedFile();
    const text = `<?php\necho site_url(Route::named('${dropped.name}'));\necho site_url(Route::named('name_9_zz'));\n`;
    write(view(), text);
    const uri = pathToFileURL(view()).toString();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    const published = await client.waitForDiagnostics(uri);
    assert.deepEqual(
      published.diagnostics.map((d) => [d.code, d.range.start.line]),
      [['unknown-route-name', 2]],
      'only the misspelt name is unknown',
    );
    const definition = (await client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line: 1, character: 36 } })) as Location[];
    assert.deepEqual(
      definition.map((l) => [l.uri, l.range.start.line]),
      [[pathToFileURL(dropped.file).toString(), 1]],
    );
    assert.equal((await stats()).rederived, 0);
  });

  it('evaluates a file it let go again when a request needs it, staying within the budget', async () => {
    const dropped = await droppedFile();
    const uri = pathToFileURL(view()).toString();
    const text = `<?php\necho site_url(Route::named('${dropped.name}'));\n`;
    await client.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 2, text } });
    const before = await stats();
    const refs = (await client.connection.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position: { line: 1, character: 36 }, context: { includeDeclaration: true } })) as Location[];
    assert.deepEqual(refs.map((l) => [path.basename(path.dirname(path.dirname(new URL(l.uri).pathname))), l.range.start.line]).sort(), [[path.basename(path.dirname(path.dirname(dropped.file))), 1], ['application', 1]].sort());
    const after = await stats();
    assert.equal(after.rederived, before.rederived + 1, 'the declaring file alone was evaluated again');
    assert.ok(after.heldClosedFiles.includes(dropped.file));
    assert.equal(after.heldClosed, 2);
  });

  it('evaluates a file it let go when it is opened; open files do not count against the budget', async () => {
    const dropped = await droppedFile();
    const uri = pathToFileURL(dropped.file).toString();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: fs.readFileSync(dropped.file, 'utf8') } });
    await client.waitForDiagnostics(uri);
    const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 8 } })) as Hover;
    assert.match((hover.contents as MarkupContent).value, new RegExp(`m${files.indexOf(dropped.file)}/a`));
    const open = await stats();
    assert.equal(open.held, 3);
    assert.equal(open.heldClosed, 2);
    assert.ok(!open.heldClosedFiles.includes(dropped.file));
    await client.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    await client.waitForDiagnostics(uri, (p) => p.diagnostics.length === 0 && p.version === undefined);
    const closed = await stats();
    assert.equal(closed.held, 2);
    assert.equal(closed.heldClosed, 2);
    assert.equal(closed.heldClosedFiles[1], dropped.file, 'the file just closed is the most recently used');
  });
});

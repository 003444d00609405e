import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification, HoverRequest, InitializedNotification, InitializeRequest, WorkspaceSymbolRequest, type Hover, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';

const CONTROLLER = "<?php\nclass Welcome extends CI_Controller {\n  public function index() {}\n}\n";
/** A route file whose first route's path is a constant of the application's constants.php; `nope/index` names no controller. */
const ROUTES = "<?php\nRoute::get(AREA . '/x', 'welcome/index', array('as' => 'area_x'));\nRoute::get('y', 'nope/index');\n$route = Route::map($route);\n";

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/**
 * `ws/` (the workspace folder: an application whose constants.php defines AREA 'inside-area'),
 * and outside it: `stray.php` at the top, `out1/` (a plain constants.php defining AREA as a
 * secret) and `out2/` (its constants.php a symlink to `secret.php`, another secret).
 */
function makeFenceLayout(): { base: string; ws: string; stray: string; inside: string; out1: string; out2: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-fence-'));
  const ws = path.join(base, 'ws');
  const app = (root: string) => path.join(root, 'application');
  write(path.join(app(ws), 'config', 'routes.php'), ROUTES);
  write(path.join(app(ws), 'config', 'constants.php'), "<?php\ndefine('AREA', 'inside-area');\n");
  write(path.join(app(ws), 'controllers', 'Welcome.php'), CONTROLLER);
  write(path.join(base, 'stray.php'), '<?php\necho 1;\n');
  for (const out of ['out1', 'out2']) {
    write(path.join(app(path.join(base, out)), 'config', 'routes.php'), ROUTES);
    write(path.join(app(path.join(base, out)), 'controllers', 'Welcome.php'), CONTROLLER);
  }
  write(path.join(app(path.join(base, 'out1')), 'config', 'constants.php'), "<?php\ndefine('AREA', 'SECRET-ONE');\n");
  write(path.join(base, 'secret.php'), "<?php\ndefine('AREA', 'SECRET-TWO');\n");
  fs.symlinkSync(path.join(base, 'secret.php'), path.join(app(path.join(base, 'out2')), 'config', 'constants.php'));
  const routes = (root: string) => path.join(app(root), 'config', 'routes.php');
  return { base, ws, stray: path.join(base, 'stray.php'), inside: routes(ws), out1: routes(path.join(base, 'out1')), out2: routes(path.join(base, 'out2')) };
}

async function open(client: LspClient, file: string): Promise<string> {
  const uri = pathToFileURL(file).toString();
  await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: fs.readFileSync(file, 'utf8') } });
  return uri;
}

/** The hover on the first route's `get`, and everything the server published for the file, as text. */
async function whatTheServerSays(client: LspClient, uri: string): Promise<{ hover: string; diagnostics: string; table: string }> {
  const published = await client.waitForDiagnostics(uri);
  const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 8 } })) as Hover | null;
  const table = await client.connection.sendRequest('ciRoutes/routeTable', { uri });
  return { hover: (hover?.contents as MarkupContent | undefined)?.value ?? '', diagnostics: JSON.stringify(published.diagnostics), table: JSON.stringify(table) };
}

describe('read fence of the language server: the workspace folders and nothing else', function () {
  this.timeout(30_000);
  let t: ReturnType<typeof makeFenceLayout>;
  let client: LspClient;
  beforeEach(() => {
    t = makeFenceLayout();
    client = new LspClient();
  });
  afterEach(async () => {
    await client.shutdown();
    fs.rmSync(t.base, { recursive: true, force: true });
  });

  it('reads the application of a file inside the workspace (its constants and controllers)', async () => {
    await client.initialize(t.ws);
    const said = await whatTheServerSays(client, await open(client, t.inside));
    assert.match(said.hover, /inside-area\/x/);
    assert.match(said.diagnostics, /missing-controller/, 'controllers are read: nope/index is reported');
  });

  it('reads nothing for documents opened outside it, and opening them never widens it', async () => {
    await client.initialize(t.ws);
    // A buffer at the top of the temporary folder: it used to open the whole folder to reads.
    await open(client, t.stray);
    for (const file of [t.out1, t.out2]) {
      const said = await whatTheServerSays(client, await open(client, file));
      for (const [what, text] of Object.entries(said)) assert.doesNotMatch(text, /SECRET/, `${what} of ${path.relative(t.base, file)}: ${text}`);
      assert.match(said.hover, /Route::get\(\)/, 'the file is still analysed from its text');
      // Controllers cannot be read: a missing one would be a guess.
      assert.doesNotMatch(said.diagnostics, /missing-controller/);
    }
    const symbols = await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'SECRET' });
    assert.deepEqual(symbols, []);
    assert.ok(client.logs.some((l) => l.includes('lies outside the workspace folders')), client.logs.join('\n'));
  });

  it('reads nothing on disk without a workspace folder (a single file opened)', async () => {
    await client.connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, workspaceFolders: null, initializationOptions: { debounceMs: 0 }, capabilities: {} });
    await client.connection.sendNotification(InitializedNotification.type, {});
    for (const file of [t.out1, t.out2]) {
      const said = await whatTheServerSays(client, await open(client, file));
      for (const [what, text] of Object.entries(said)) assert.doesNotMatch(text, /SECRET/, `${what} of ${path.relative(t.base, file)}: ${text}`);
      assert.doesNotMatch(said.diagnostics, /missing-controller/);
    }
  });
});

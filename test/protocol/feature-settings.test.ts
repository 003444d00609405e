import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeLensRefreshRequest,
  CodeLensRequest,
  CompletionRequest,
  ConfigurationRequest,
  DidChangeConfigurationNotification,
  DidChangeWorkspaceFoldersNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  InlayHintRefreshRequest,
  InlayHintRequest,
  type CodeLens,
  type InlayHint,
} from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { EXAMPLE_APP } from '../helpers/paths';

/** `ciRoutes.codeLens.enabled`, `hover`, `completion` and `inlayHints`, as a client sends them, per workspace folder. */
describe('editor feature settings over stdio', function () {
  this.timeout(60_000);
  let a: string;
  let b: string;
  let client: LspClient;
  /** What `workspace/configuration` answers per folder URI. */
  const settings = new Map<string, Record<string, unknown>>();
  const refreshes = { codeLens: 0, inlayHint: 0 };

  const copyApp = (): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-settings-'));
    fs.cpSync(path.join(EXAMPLE_APP, 'application'), path.join(dir, 'application'), { recursive: true });
    return dir;
  };
  const routesOf = (dir: string) => path.join(dir, 'application', 'config', 'routes.php');
  const controllerOf = (dir: string) => path.join(dir, 'application', 'modules', 'blog', 'controllers', 'Posts.php');
  const uriOf = (file: string) => pathToFileURL(file).toString();

  before(async () => {
    a = copyApp();
    b = copyApp();
    client = new LspClient();
    client.connection.onRequest(ConfigurationRequest.type, (params) => params.items.map((item) => settings.get(item.scopeUri ?? '') ?? {}));
    client.connection.onRequest(CodeLensRefreshRequest.type, () => void refreshes.codeLens++);
    client.connection.onRequest(InlayHintRefreshRequest.type, () => void refreshes.inlayHint++);
    await client.initialize(a, { debounceMs: 0 }, {}, { codeLens: { refreshSupport: true }, inlayHint: { refreshSupport: true } });
    await client.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, { event: { added: [{ uri: uriOf(b), name: 'b' }], removed: [] } });
    for (const dir of [a, b]) {
      for (const file of [routesOf(dir), controllerOf(dir)]) {
        await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: uriOf(file), languageId: 'php', version: 1, text: fs.readFileSync(file, 'utf8') } });
      }
      await client.waitForDiagnostics(uriOf(routesOf(dir)), (p) => p.version === 1);
    }
  });
  after(async () => {
    await client.shutdown();
    for (const dir of [a, b]) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What each feature answers in a folder: lenses in the route file and the controller, a hover, a completion, inlay hints. */
  async function features(dir: string) {
    const routes = uriOf(routesOf(dir));
    const text = fs.readFileSync(routesOf(dir), 'utf8');
    const at = (needle: string, delta: number) => {
      const lines = text.slice(0, text.indexOf(needle) + delta).split('\n');
      return { line: lines.length - 1, character: lines[lines.length - 1].length };
    };
    const lenses = ((await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: routes } })) as CodeLens[] | null) ?? [];
    const controllerLenses = ((await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: uriOf(controllerOf(dir)) } })) as CodeLens[] | null) ?? [];
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: routes }, position: at("Route::any('about'", 8) });
    const completion = await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: routes }, position: at("Route::any('about'", 7) });
    const lines = text.split('\n').length;
    const hints = ((await client.connection.sendRequest(InlayHintRequest.type, { textDocument: { uri: routes }, range: { start: { line: 0, character: 0 }, end: { line: lines, character: 0 } } })) as InlayHint[] | null) ?? [];
    return { lenses: lenses.length > 0, controllerLenses: controllerLenses.length > 0, hover: hover !== null, completion: completion !== null, inlayHints: hints.length > 0 };
  }

  const all = (on: boolean) => ({ lenses: on, controllerLenses: on, hover: on, completion: on, inlayHints: on });

  it('answers every feature by default', async () => {
    assert.deepEqual(await features(a), all(true));
    assert.deepEqual(await features(b), all(true));
  });

  it("switches each off in the folder whose settings say so, asks the client to refresh what it shows, and leaves the other folder's on", async () => {
    settings.set(uriOf(a), { codeLens: { enabled: false }, hover: { enabled: false }, completion: { enabled: false }, inlayHints: { enabled: false } });
    const before = { ...refreshes };
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    for (let i = 0; i < 100 && (refreshes.codeLens === before.codeLens || refreshes.inlayHint === before.inlayHint); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(refreshes.codeLens > before.codeLens && refreshes.inlayHint > before.inlayHint, JSON.stringify(refreshes));
    assert.deepEqual(await features(a), all(false));
    assert.deepEqual(await features(b), all(true));
  });

  it('takes each switch alone', async () => {
    settings.set(uriOf(a), { hover: { enabled: false } });
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    let got = await features(a);
    for (let i = 0; i < 100 && !got.lenses; i++) got = (await new Promise((r) => setTimeout(r, 50)), await features(a));
    assert.deepEqual(got, { ...all(true), hover: false });
  });
});

import type { TestUrlAnswer } from '../../shared/protocol/test-url';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CompletionRequest,
  CompletionResolveRequest,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  type CompletionItem,
  type CompletionList,
  type Hover,
  type Location,
  type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { EXAMPLE_APP } from '../helpers/paths';
import { markdownText } from '../../shared/util/escape';

const ROUTES = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');

function lineOf(text: string, needle: string): { line: number; character: number } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `'${needle}' is in the file`);
  return { line, character: lines[line].indexOf(needle) };
}

const routesText = fs.readFileSync(ROUTES, 'utf8');
const routesUri = pathToFileURL(ROUTES).toString();

/** A server on the example app with its routes file open, for the enclosing describe block. */
function withExampleServer(textDocument: Record<string, unknown> = {}): { client: LspClient } {
  const state = {} as { client: LspClient };
  before(async () => {
    state.client = new LspClient();
    await state.client.initialize(EXAMPLE_APP, undefined, textDocument);
    await state.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: routesUri, languageId: 'php', version: 1, text: routesText } });
    await state.client.waitForDiagnostics(routesUri);
  });
  after(async () => {
    await state.client.shutdown();
  });
  return state;
}

describe('language server: hover, completion and definition over stdio', function () {
  this.timeout(30_000);
  const server = withExampleServer();

  it('hovers a resources() call with the routes it really produces, per method', async () => {
    const at = lineOf(routesText, "resources('articles'");
    const hover = (await server.client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: routesUri }, position: { line: at.line, character: at.character + 2 } })) as Hover;
    const md = (hover.contents as MarkupContent).value;
    assert.match(md, /\*\*Route::resources\(\)\*\* — 7 routes · GET POST PUT DELETE/);
    assert.match(md, /\| GET \| `articles` \| `blog\/posts\/index` \|/);
    assert.match(md, /\| PUT \| `articles\/\(:num\)` \| `blog\/posts\/update\/\$1` \|/);
  });

  it('completes route names inside Route::named(\' in another PHP file, unterminated string included', async () => {
    const view = path.join(EXAMPLE_APP, 'application', 'views', 'nav.php');
    const uri = pathToFileURL(view).toString();
    const text = "<a href=\"<?= site_url(Route::named('lo";
    await server.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    const items = (await server.client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: text.length } })) as CompletionItem[];
    const login = items.find((i) => i.label === 'login');
    assert.ok(login, `login is offered: ${items.map((i) => i.label).join(', ')}`);
    assert.equal(login.detail, 'login');
    assert.ok(items.some((i) => i.label === 'api_status' && i.detail === 'api/status'));
  });

  it('completes the names the routes file has now: one added by an edit appears, one removed goes', async () => {
    const view = path.join(EXAMPLE_APP, 'application', 'views', 'menu.php');
    const uri = pathToFileURL(view).toString();
    const text = "<?= site_url(Route::named('";
    await server.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    const labels = async () =>
      ((await server.client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: text.length } })) as CompletionItem[]).map((i) => i.label);
    const before = await labels();
    assert.ok(before.includes('login') && !before.includes('brand_new'), before.join(', '));
    const edited = routesText.replace("'as' => 'login'", "'as' => 'brand_new'");
    assert.notEqual(edited, routesText);
    await server.client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: routesUri, version: 2 }, contentChanges: [{ text: edited }] });
    await server.client.waitForDiagnostics(routesUri, (p) => p.version === 2);
    const after = await labels();
    assert.ok(after.includes('brand_new') && !after.includes('login'), after.join(', '));
    assert.deepEqual(after, [...after].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), 'sorted by name');
    await server.client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: routesUri, version: 3 }, contentChanges: [{ text: routesText }] });
    await server.client.waitForDiagnostics(routesUri, (p) => p.version === 3);
  });

  it('goes from Route::named() inside the routes file to the declaration of that name', async () => {
    const use = lineOf(routesText, "Route::named('api_status')");
    const locations = (await server.client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: routesUri }, position: { line: use.line, character: use.character + 16 } })) as Location[];
    assert.equal(locations.length, 1);
    assert.equal(locations[0].uri, routesUri);
    assert.equal(locations[0].range.start.line, lineOf(routesText, "'as' => 'api_status'").line);
  });

  it('goes from Route::named() in a controller to the declaration that names the route', async () => {
    const controller = path.join(EXAMPLE_APP, 'application', 'controllers', 'Users.php');
    const uri = pathToFileURL(controller).toString();
    const text = "<?php\nclass Users extends CI_Controller {\n    public function back() { redirect(Route::named('login')); }\n}\n";
    await server.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    const locations = (await server.client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line: 2, character: 52 } })) as Location[];
    assert.equal(locations.length, 1);
    assert.equal(locations[0].uri, routesUri);
    const decl = lineOf(routesText, "'as' => 'login'");
    assert.equal(locations[0].range.start.line, decl.line);
    assert.equal(routesText.split('\n')[decl.line].slice(locations[0].range.start.character, locations[0].range.end.character), "'login'");
  });

  it('goes from Route::named() to a name declared in a file the routes file includes, in that file', async () => {
    const api = path.join(EXAMPLE_APP, 'application', 'config', 'routes', 'api.php');
    const apiText = fs.readFileSync(api, 'utf8');
    const decl = lineOf(apiText, "'as' => 'article_feed'");
    const expectInApi = (locations: Location[]) => {
      assert.equal(locations.length, 1);
      assert.equal(locations[0].uri, pathToFileURL(api).toString());
      assert.equal(locations[0].range.start.line, decl.line);
      assert.equal(apiText.split('\n')[decl.line].slice(locations[0].range.start.character, locations[0].range.end.character), "'article_feed'");
    };
    // From another PHP file: the workspace index's declarations.
    const controller = path.join(EXAMPLE_APP, 'application', 'controllers', 'Feeds.php');
    const uri = pathToFileURL(controller).toString();
    const text = "<?php\nclass Feeds extends CI_Controller {\n    public function back() { redirect(Route::named('article_feed')); }\n}\n";
    await server.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    expectInApi((await server.client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line: 2, character: 56 } })) as Location[]);
    // From the routes file itself: its own evaluation's declarations.
    const use = lineOf(routesText, "Route::named('api_status')");
    const edited = routesText.replace("Route::named('api_status')", "Route::named('article_feed')");
    await server.client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: routesUri, version: 2 }, contentChanges: [{ text: edited }] });
    expectInApi((await server.client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: routesUri }, position: { line: use.line, character: use.character + 16 } })) as Location[]);
    await server.client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: routesUri, version: 3 }, contentChanges: [{ text: routesText }] });
  });
});

describe('language server: definitions while an edit waits for its analysis', function () {
  this.timeout(30_000);
  let client: LspClient;
  before(async () => {
    client = new LspClient();
    // The default debounce: requests come before the edit's analysis.
    await client.initialize(EXAMPLE_APP, {});
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: routesUri, languageId: 'php', version: 1, text: routesText } });
    await client.waitForDiagnostics(routesUri);
  });
  after(async () => {
    await client.shutdown();
  });

  it('goes to the declaration in the text just edited, when a request evaluated the edit first', async () => {
    const uri = pathToFileURL(path.join(EXAMPLE_APP, 'application', 'controllers', 'Users.php')).toString();
    const view = "<?php\nclass Users extends CI_Controller {\n    public function back() { redirect(Route::named('login')); }\n}\n";
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: view } });
    for (let i = 1; i <= 5; i++) {
      // A line added above the declaration, a hover that evaluates the new version (which reuses
      // the previous version's records), then at once a definition asked from another file.
      const edited = routesText.replace('<?php\n', `<?php\n${'// a line added above every declaration\n'.repeat(i)}`);
      await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: routesUri, version: 1 + i }, contentChanges: [{ text: edited }] });
      const at = lineOf(edited, "resources('articles'");
      await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: routesUri }, position: { line: at.line, character: at.character + 2 } });
      const locations = (await client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line: 2, character: 52 } })) as Location[];
      const decl = lineOf(edited, "'as' => 'login'");
      assert.equal(locations.length, 1);
      assert.equal(locations[0].range.start.line, decl.line, `after edit ${i}`);
      assert.equal(edited.split('\n')[decl.line].slice(locations[0].range.start.character, locations[0].range.end.character), "'login'");
    }
  });
});

describe('language server: custom requests for the route table and the URL tester', function () {
  this.timeout(30_000);
  const server = withExampleServer();

  it('ciRoutes/routeTable lists every method\'s table with declarations', async () => {
    const table = (await server.client.connection.sendRequest('ciRoutes/routeTable', { uri: routesUri })) as { methods: { method: string; rows: { uri: string; target: string; location?: Location }[] }[] };
    assert.deepStrictEqual(table.methods.map((m) => m.method), ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS', 'CLI']);
    const put = table.methods[2].rows.find((r) => r.uri === 'articles/(:num)');
    assert.equal(put?.target, 'blog/posts/update/$1');
    assert.equal(put?.location?.range.start.line, lineOf(routesText, "Route::resources('articles'").line);
  });

  it("ciRoutes/routeTable lists the application's other route files after the document's own, in the router's order", async () => {
    type Other = { file: string; module?: string; rows: { methods: string[]; uri: string; target: string; location?: Location }[] };
    const blog = path.join(EXAMPLE_APP, 'application', 'modules', 'blog', 'config', 'routes.php');
    const fromMain = (await server.client.connection.sendRequest('ciRoutes/routeTable', { uri: routesUri })) as { otherFiles?: Other[] };
    assert.deepEqual(
      fromMain.otherFiles?.map((f) => [f.file, f.module]),
      [[pathToFileURL(blog).toString(), 'blog']],
    );
    const archive = fromMain.otherFiles![0].rows.find((r) => r.uri === 'blog/archive/(:num)');
    assert.equal(archive?.target, 'posts/archive/$1');
    assert.equal(archive?.methods.length, 8);
    assert.equal(fs.readFileSync(blog, 'utf8').split('\n')[archive!.location!.range.start.line].includes("'blog/archive/(:num)'"), true);
    // From the module's file: the main file comes first.
    const blogUri = pathToFileURL(blog).toString();
    await server.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: blogUri, languageId: 'php', version: 1, text: fs.readFileSync(blog, 'utf8') } });
    const fromBlog = (await server.client.connection.sendRequest('ciRoutes/routeTable', { uri: blogUri })) as { otherFiles?: Other[] };
    assert.deepEqual(fromBlog.otherFiles?.map((f) => [f.file, f.module]), [[routesUri, undefined]]);
  });

  it('ciRoutes/testUrl tells which route matches and the controller it dispatches to', async () => {
    const r = (await server.client.connection.sendRequest('ciRoutes/testUrl', { uri: routesUri, method: 'GET', url: '/articles/12' })) as {
      matched_key: string;
      target_segments: string[];
      controller: { found: boolean; target: { file: string; method: string; args: string[] } };
      controllerUri: string;
    };
    assert.equal(r.matched_key, 'articles/(:num)');
    assert.deepStrictEqual(r.target_segments, ['blog', 'posts', 'show', '12']);
    assert.deepStrictEqual(r.controller.target, { file: 'modules/blog/controllers/Posts.php', module: 'blog', class: 'posts', method: 'show', args: ['12'] });
    assert.ok(r.controllerUri.endsWith('/modules/blog/controllers/Posts.php'));
  });

  it('ciRoutes/testUrl says why the other routes did not take the request, each at its declaration', async () => {
    const r = (await server.client.connection.sendRequest('ciRoutes/testUrl', { uri: routesUri, method: 'GET', url: '/articles/new' })) as TestUrlAnswer;
    assert.equal(r.matched_key, 'articles/new');
    // Before it: articles, and the other articles routes of other methods.
    assert.ok((r.tried ?? 0) > 0);
    const why = new Map((r.notMatched ?? []).map((m) => [m.key, m]));
    assert.equal(why.get('articles/(:num)/(:any)'), undefined, 'a route of two more segments, after the match, is not in question');
    assert.equal(why.get('articles')?.reason, 'the URI has 2 segments, the route 1');
    assert.equal(why.get('articles')?.location?.uri, routesUri);
    const post = (await server.client.connection.sendRequest('ciRoutes/testUrl', { uri: routesUri, method: 'POST', url: '/articles/12' })) as TestUrlAnswer;
    assert.equal(post.matched_key, null);
    const show = post.notMatched?.find((m) => m.key === 'articles/(:num)');
    assert.equal(show?.kind, 'method');
    // One declaration (resources()) under three methods.
    assert.deepEqual(show?.methods, ['GET', 'PUT', 'DELETE']);
    assert.match(show?.reason ?? '', /declared for GET, PUT, DELETE only: a POST request never sees it/);
  });
});

describe('language server: targets, signatures, references and rename over stdio', function () {
  this.timeout(30_000);
  const server = withExampleServer();

  const at = (needle: string, delta = 2) => {
    const p = lineOf(routesText, needle);
    return { textDocument: { uri: routesUri }, position: { line: p.line, character: p.character + delta } };
  };

  it('hovers a target string with the controller and method it dispatches to', async () => {
    const hover = (await server.client.connection.sendRequest(HoverRequest.type, at("'pages/show/about'"))) as Hover;
    assert.match((hover.contents as MarkupContent).value, /controllers\/Pages\.php/);
    // And which router looked it up (the example declares Modular Extensions in core/MY_Router.php).
    assert.match((hover.contents as MarkupContent).value, /\n---\n\*Router: Modular Extensions\\' router .*detected from .*core\\\/MY\\_Router\\\.php\\\)\*$/);
  });

  it('goes from a target string to the controller method', async () => {
    const locations = (await server.client.connection.sendRequest(DefinitionRequest.type, at("'pages/show/about'"))) as Location[];
    assert.equal(locations.length, 1);
    assert.ok(locations[0].uri.endsWith('/application/controllers/Pages.php'));
    const pages = fs.readFileSync(path.join(EXAMPLE_APP, 'application', 'controllers', 'Pages.php'), 'utf8').split('\n');
    assert.match(pages[locations[0].range.start.line], /function show\(/);
  });

  it('gives signature help inside a Route:: call', async () => {
    const help = (await server.client.connection.sendRequest('textDocument/signatureHelp', at("'pages/show/about'", 1))) as { signatures: { label: string }[]; activeParameter: number };
    assert.equal(help.signatures[0].label, 'Route::any($from, $to, $options = [], $nested = false)');
    assert.equal(help.activeParameter, 1);
  });

  it('finds the references of a route name: its declaration and every named() use', async () => {
    const refs = (await server.client.connection.sendRequest('textDocument/references', { ...at("'as' => 'login'", 11), context: { includeDeclaration: true } })) as Location[];
    const files = refs.map((r) => r.uri.split('/').slice(-3).join('/')).sort();
    assert.deepStrictEqual(files, ['application/config/routes.php', 'application/controllers/Users.php']);
  });

  it('renames a route name in its declaration and every use', async () => {
    const edit = (await server.client.connection.sendRequest('textDocument/rename', { ...at("'as' => 'login'", 11), newName: 'sign_in' })) as { changes: Record<string, { newText: string }[]> };
    const uris = Object.keys(edit.changes).map((u) => u.split('/').slice(-3).join('/')).sort();
    assert.deepStrictEqual(uris, ['application/config/routes.php', 'application/controllers/Users.php']);
    assert.ok(Object.values(edit.changes).every((edits) => edits.every((e) => e.newText === 'sign_in')));
  });

  it('refuses to rename onto a name another route has, with a clear message', async () => {
    await assert.rejects(
      server.client.connection.sendRequest('textDocument/rename', { ...at("'as' => 'login'", 11), newName: 'logout' }),
      (e: Error) => /logout/.test(e.message),
    );
  });
});

describe('language server: outline, workspace symbols, code lenses, inlay hints, document links', function () {
  this.timeout(30_000);
  const doc = { textDocument: { uri: routesUri } };
  const server = withExampleServer();

  it('outlines the route file: one symbol per declaration, its routes as children', async () => {
    const symbols = (await server.client.connection.sendRequest('textDocument/documentSymbol', doc)) as { name: string; detail?: string; children?: { name: string }[] }[];
    const res = symbols.find((s) => s.name.startsWith("Route::resources('articles'"));
    assert.ok(res, symbols.map((s) => s.name).join('\n'));
    assert.match(String(res.detail), /7 routes/);
    assert.ok(res.children?.some((c) => c.name === 'GET articles → blog/posts/index'), JSON.stringify(res.children?.map((c) => c.name)));
  });

  it('searches routes across the workspace by pattern, name or target', async () => {
    const found = (await server.client.connection.sendRequest('workspace/symbol', { query: 'api_status' })) as { name: string; location: Location }[];
    assert.ok(found.length >= 1);
    assert.ok(found[0].location.uri.endsWith('/config/routes.php'));
  });

  it('puts a lens above each declaration with its route count and methods', async () => {
    const lenses = (await server.client.connection.sendRequest('textDocument/codeLens', doc)) as { range: { start: { line: number } }; command: { title: string } }[];
    const line = lineOf(routesText, "Route::resources('articles'").line;
    assert.equal(lenses.find((l) => l.range.start.line === line)?.command.title, '7 routes · GET POST PUT DELETE');
  });

  it('shows controllers\' public methods the routes that reach them', async () => {
    const pages = path.join(EXAMPLE_APP, 'application', 'controllers', 'Pages.php');
    const uri = pathToFileURL(pages).toString();
    await server.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: fs.readFileSync(pages, 'utf8') } });
    const lenses = (await server.client.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as { command: { title: string } }[];
    assert.ok(lenses.some((l) => /ANY about/.test(l.command.title)), JSON.stringify(lenses.map((l) => l.command.title)));
  });

  it('hints what each $n refers to', async () => {
    const hints = (await server.client.connection.sendRequest('textDocument/inlayHint', { ...doc, range: { start: { line: 0, character: 0 }, end: { line: 200, character: 0 } } })) as { label: string; position: { line: number } }[];
    const line = lineOf(routesText, "'gallery/album/$1'").line;
    assert.deepStrictEqual(hints.filter((h) => h.position.line === line).map((h) => h.label), ['← (:num)']);
  });

  it('links target strings to their controller files', async () => {
    const links = (await server.client.connection.sendRequest('textDocument/documentLink', doc)) as { target: string; range: { start: { line: number } } }[];
    const line = lineOf(routesText, "'pages/show/about'").line;
    assert.ok(links.find((l) => l.range.start.line === line)?.target.endsWith('/application/controllers/Pages.php'));
  });
});

describe('language server: completion answers as small as the client allows', function () {
  this.timeout(30_000);
  // What VS Code declares: one edit range for the list, documentation on demand.
  const server = withExampleServer({
    completion: { completionItem: { resolveSupport: { properties: ['documentation', 'detail', 'additionalTextEdits'] } }, completionList: { itemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'] } },
  });

  async function complete(text: string): Promise<{ uri: string; list: CompletionList }> {
    const view = path.join(EXAMPLE_APP, 'application', 'views', 'compact.php');
    const uri = pathToFileURL(view).toString();
    await server.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    const list = (await server.client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: text.length } })) as CompletionList;
    return { uri, list };
  }

  it('gives the list one edit range and each item no text edit, no documentation', async () => {
    const text = "<?= site_url(Route::named('lo";
    const { list } = await complete(text);
    assert.deepEqual(list.itemDefaults?.editRange, { start: { line: 0, character: text.length - 2 }, end: { line: 0, character: text.length } });
    const login = list.items.find((i) => i.label === 'login');
    assert.ok(login, list.items.map((i) => i.label).join(', '));
    assert.equal(login.detail, 'login');
    assert.ok(list.items.every((i) => i.textEdit === undefined && i.documentation === undefined && i.filterText === undefined), JSON.stringify(list.items[0]));
  });

  it('sends an item\'s documentation when the editor resolves it', async () => {
    const { list } = await complete("<?= site_url(Route::named('");
    const item = list.items.find((i) => i.label === 'api_status')!;
    const resolved = (await server.client.connection.sendRequest(CompletionResolveRequest.type, item)) as CompletionItem;
    assert.deepEqual(resolved.documentation, { kind: 'markdown', value: markdownText("Route::named('api_status') returns 'api/status' (GET, POST, PUT, DELETE, HEAD, PATCH, OPTIONS, CLI).") });
    assert.equal(resolved.label, 'api_status');
  });

  it('leaves an item of an earlier answer as it is (its list is gone)', async () => {
    const first = await complete("<?= site_url(Route::named('");
    await complete("<?= site_url(Route::named('a");
    const stale = first.list.items.find((i) => i.label === 'api_status')!;
    const resolved = (await server.client.connection.sendRequest(CompletionResolveRequest.type, stale)) as CompletionItem;
    assert.equal(resolved.documentation, undefined);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeActionRequest,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  FileChangeType,
} from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { EXAMPLE_APP } from '../helpers/paths';

/** Codes of the warnings and errors (these temporary apps have no controllers: targets are only information). */
const codes = (p: { diagnostics: { code?: string | number; severity?: number }[] }) =>
  p.diagnostics.filter((d) => (d.severity ?? 1) <= 2).map((d) => String(d.code)).sort();

function makeApp(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-lsp-'));
  fs.mkdirSync(path.join(root, 'application', 'config'), { recursive: true });
  fs.mkdirSync(path.join(root, 'application', 'modules', 'shop', 'config'), { recursive: true });
  fs.writeFileSync(path.join(root, 'application', 'config', 'constants.php'), "<?php\ndefine('SITE_AREA', 'admin');\n");
  fs.writeFileSync(path.join(root, 'application', 'modules', 'shop', 'config', 'routes.php'), "<?php\nRoute::any('cart', 'shop/cart', array('as' => 'cart'));\n$route = Route::map($route);\n");
  return root;
}

describe('language server over stdio (vscode-languageserver-protocol client)', function () {
  this.timeout(30_000);
  let client: LspClient;
  let root: string;

  beforeEach(async () => {
    root = makeApp();
    client = new LspClient();
    const init = await client.initialize(root);
    assert.equal(init.serverInfo?.name, 'ci-routes-language-server');
  });

  afterEach(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const open = async (file: string, text: string, version = 1) => {
    const uri = pathToFileURL(file).toString();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version, text } });
    return uri;
  };

  it('publishes nothing wrong for the example app (written to be correct)', async () => {
    client.clearDiagnostics();
    const file = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');
    const uri = await open(file, fs.readFileSync(file, 'utf8'));
    const p = await client.waitForDiagnostics(uri);
    // It lies outside the workspace folders: its application folder is not read, so APPPATH and
    // SITE_AREA (constants.php) are unknown: the file it requires is not evaluated, which is said
    // at the require, and the admin area's routes are unknown routes, each said once (information).
    assert.deepStrictEqual(p.diagnostics.map((d) => d.code), ['dynamic-route', 'dynamic-route', 'dynamic-route', 'evaluation-limit']);
    assert.equal(p.diagnostics[0]!.message, 'Not known statically: path: constant SITE_AREA is not defined in the routes file or config/constants.php.');
    assert.match(p.diagnostics[0]!.relatedInformation?.[0]?.message ?? '', /^checks skip this route, and it may take any URI first/);
    assert.equal(p.diagnostics[3]!.message, 'Require of a path that cannot be known statically (APPPATH is set by CodeIgniter at runtime)');
  });

  it('checks the route files no editor has open once the server is idle, ahead of their opening', async () => {
    const shop = path.join(root, 'application', 'modules', 'shop', 'config', 'routes.php');
    const primed = (l: string) => l.includes(`checked ${shop} ahead of its opening`);
    for (let i = 0; i < 200 && !client.logs.some(primed); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(client.logs.some(primed), client.logs.join('\n'));
    const uri = await open(shop, fs.readFileSync(shop, 'utf8'));
    const p = await client.waitForDiagnostics(uri, (d) => d.version === 1);
    assert.deepStrictEqual(codes(p), []);
  });

  it('publishes diagnostics on open, after edits, and clears them on close', async () => {
    const file = path.join(root, 'application', 'config', 'routes.php');
    const text = "<?php\nRoute::get('photos', 'photos/index');\nRoute::get('photos', 'gallery/index');\n$route = Route::map($route);\n";
    const uri = await open(file, text);
    const first = await client.waitForDiagnostics(uri, (p) => p.version === 1);
    assert.deepStrictEqual(codes(first), ['duplicate-route']);
    const d = first.diagnostics.find((x) => x.code === 'duplicate-route')!;
    assert.deepStrictEqual(d.range, { start: { line: 2, character: 11 }, end: { line: 2, character: 19 } });
    assert.equal(d.source, 'ci-routes');
    assert.equal(d.relatedInformation?.[1].location.range.start.line, 1);

    // Incremental edit: rename the second path; the duplicate goes away, a typo'd method appears.
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [
        { range: { start: { line: 2, character: 12 }, end: { line: 2, character: 18 } }, text: 'albums' },
        { range: { start: { line: 1, character: 7 }, end: { line: 1, character: 10 } }, text: 'resource' },
      ],
    });
    const second = await client.waitForDiagnostics(uri, (p) => p.version === 2);
    assert.deepStrictEqual(codes(second), ['undefined-route-method']);

    // The quick fix renames the method.
    const method = second.diagnostics.find((x) => x.code === 'undefined-route-method')!;
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: method.range,
      context: { diagnostics: [method] },
    })) as { title: string; edit?: { changes?: Record<string, { newText: string }[]> } }[];
    const fix = actions.find((a) => a.title === 'Change to Route::resources()');
    assert.equal(fix?.edit?.changes?.[uri][0].newText, 'resources');

    await client.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    const closed = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length === 0 && p.version === undefined);
    assert.deepStrictEqual(closed.diagnostics, []);
  });

  it('answers a request on an edited version at once, and leaves that version\'s checks to the debounce', async () => {
    await client.shutdown();
    client = new LspClient();
    await client.initialize(root, { debounceMs: 60_000 });
    const file = path.join(root, 'application', 'config', 'routes.php');
    const text = "<?php\nRoute::get('a', 'c/a');\n$route = Route::map($route);\n";
    const uri = await open(file, text);
    await client.waitForDiagnostics(uri, (p) => p.version === 1);
    // Once the workspace scan is done, nothing else re-analyses open documents.
    for (let i = 0; i < 100 && !client.logs.some((l) => /indexed \d+ route file/.test(l)); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(client.logs.some((l) => /indexed \d+ route file/.test(l)), client.logs.join('\n'));
    const edited = text.replace("Route::get('a', 'c/a');", "Route::get('a', 'c/a');\nRoute::get('a', 'c/b');");
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
    const table = (await client.connection.sendRequest('ciRoutes/routeTable', { uri })) as { methods: { method: string; rows: { uri: string; target: string }[] }[] };
    assert.equal(table.methods[0].rows.find((r) => r.uri === 'a')?.target, 'c/b', 'the request saw version 2');
    // Work the server would do in the background after the first request runs before this one is answered.
    await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 8 } });
    // The 60 s debounce holds the checks: requests made while typing do not bring them forward.
    const published = client.publications(uri);
    assert.ok(!published.some((p) => p.version === 2), JSON.stringify(published));
  });

  it('says in the route table and the URL test when the evaluation stopped at its step budget', async () => {
    const file = path.join(root, 'application', 'config', 'routes.php');
    const uri = await open(file, "<?php\nRoute::get('a', 'c/a');\nfor ($i = 0; $i < 1000000; $i++) {}\nRoute::get('late', 'c/late');\n$route = Route::map($route);\n");
    await client.waitForDiagnostics(uri, (p) => p.version === 1);
    const table = (await client.connection.sendRequest('ciRoutes/routeTable', { uri })) as { limits?: string[] };
    const limits = ['line 3: evaluation stopped after 100,000 steps (an endless loop?): routes after this point are not known'];
    assert.deepStrictEqual(table.limits, limits);
    const tested = (await client.connection.sendRequest('ciRoutes/testUrl', { uri, method: 'GET', url: '/a' })) as { limits?: string[] };
    assert.deepStrictEqual(tested.limits, limits);
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: "<?php\nRoute::get('a', 'c/a');\n$route = Route::map($route);\n" }] });
    await client.waitForDiagnostics(uri, (p) => p.version === 2);
    assert.equal(((await client.connection.sendRequest('ciRoutes/routeTable', { uri })) as { limits?: string[] }).limits, undefined);
  });

  it('answers requests while a long analysis runs, which then publishes', async () => {
    // 300 different patterns: deciding their reachability builds 300 automata (hundreds of ms).
    const lines = Array.from({ length: 300 }, (_, i) => `Route::get('(:any)/p${i}/([a-z]+)-${i}x(:num)', 'c/m/$1');`);
    const text = `<?php\n${lines.join('\n')}\n$route = Route::map($route);\n`;
    const file = path.join(root, 'application', 'config', 'routes.php');
    const uri = await open(file, text);
    const hover = await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 9 } });
    assert.ok(hover, 'the hover was answered');
    // Answered before the analysis of the version it was about was done.
    assert.deepEqual(client.publications(uri).filter((p) => p.version === 1), []);
    const p = await client.waitForDiagnostics(uri, (d) => d.version === 1);
    assert.ok(Array.isArray(p.diagnostics));
  });

  it('applies settings changes (a code turned off, a severity changed)', async () => {
    const file = path.join(root, 'application', 'config', 'routes.php');
    const uri = await open(file, "<?php\nRoute::block(array('a', 'b'));\nRoute::any('x', 'y/z', array('name' => 'x'));\n$route = Route::map($route);\n");
    const first = await client.waitForDiagnostics(uri);
    assert.deepStrictEqual(codes(first), ['block-array', 'unknown-option']);
    client.clearDiagnostics(uri);
    client.settings = { diagnostics: { 'block-array': 'off', 'unknown-option': 'hint' } };
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: {} });
    const after = await client.waitForDiagnostics(uri, (p) => !codes(p).includes('block-array'));
    const option = after.diagnostics.find((x) => x.code === 'unknown-option');
    assert.equal(option?.severity, 4);
    assert.ok(!after.diagnostics.some((x) => x.code === 'block-array'));
  });

  it('sees route names from other route files, and follows them through file watcher events', async () => {
    const file = path.join(root, 'application', 'config', 'routes.php');
    const uri = await open(file, "<?php\nRoute::any('home', 'pages/home', array('as' => 'home'));\n$route = Route::map($route);\n$route['go'] = Route::named('cart');\n$route['other'] = Route::named('checkout');\n");
    // 'cart' is defined by the shop module's routes file; 'checkout' nowhere yet.
    const first = await client.waitForDiagnostics(uri, (p) => p.diagnostics.some((x) => x.code === 'unknown-route-name'));
    assert.deepStrictEqual(codes(first), ['unknown-route-name']);
    assert.match(String(first.diagnostics.find((x) => x.code === 'unknown-route-name')?.message), /'checkout'/);
    const moduleRoutes = path.join(root, 'application', 'modules', 'shop', 'config', 'routes.php');
    fs.writeFileSync(moduleRoutes, "<?php\nRoute::any('cart', 'shop/cart', array('as' => 'cart'));\nRoute::any('checkout', 'shop/checkout', array('as' => 'checkout'));\n$route = Route::map($route);\n");
    client.clearDiagnostics(uri);
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(moduleRoutes).toString(), type: FileChangeType.Changed }] });
    const after = await client.waitForDiagnostics(uri, (p) => !p.diagnostics.some((x) => x.code === 'unknown-route-name'));
    assert.deepStrictEqual(codes(after), []);
  });

  it('keeps answering after hostile input and exits cleanly on shutdown', async () => {
    const file = path.join(root, 'application', 'config', 'routes.php');
    const uri = await open(file, "<?php\nwhile (true) {}\nRoute::get('a\n\u0000\u0001\uffff $x = ();");
    const p = await client.waitForDiagnostics(uri);
    assert.ok(p.diagnostics.length > 0);
    assert.ok(client.alive);
  });
});

describe('language server: Route::named() in any PHP file of the workspace', function () {
  this.timeout(30_000);
  let client: LspClient;
  let root: string;

  beforeEach(() => {
    root = makeApp();
    fs.mkdirSync(path.join(root, 'application', 'controllers'), { recursive: true });
    fs.writeFileSync(path.join(root, 'application', 'config', 'routes.php'), "<?php\nRoute::any('sign-in', 'auth/login', array('as' => 'login'));\n$route = Route::map($route);\n");
    fs.writeFileSync(
      path.join(root, 'application', 'controllers', 'Auth.php'),
      "<?php\nclass Auth extends CI_Controller {\n    public function login() { redirect(Route::named('login')); }\n    public function out() { redirect(Route::named('logout')); }\n}\n",
    );
    client = new LspClient();
  });

  afterEach(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('reports unknown names in files that are not open, and follows edits of the route file', async () => {
    await client.initialize(root);
    const controller = pathToFileURL(path.join(root, 'application', 'controllers', 'Auth.php')).toString();
    const first = await client.waitForDiagnostics(controller, (p) => p.diagnostics.length > 0);
    assert.deepStrictEqual(first.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]), [['unknown-route-name', 3, 50]]);
    assert.match(String(first.diagnostics[0].message), /No route is named 'logout'/);

    // Declaring the name in the (open) route file clears the controller's diagnostic.
    const routesFile = path.join(root, 'application', 'config', 'routes.php');
    const routesUri = pathToFileURL(routesFile).toString();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: routesUri, languageId: 'php', version: 1, text: fs.readFileSync(routesFile, 'utf8') } });
    client.clearDiagnostics(controller);
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: routesUri, version: 2 },
      contentChanges: [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: "Route::any('sign-out', 'auth/out', array('as' => 'logout'));\n" }],
    });
    const after = await client.waitForDiagnostics(controller);
    assert.deepStrictEqual(after.diagnostics, []);
  });

  it('leaves route names unchecked while a route file is not evaluated to the end, and checks them once it is', async () => {
    // 'logout' is declared past a loop longer than the step budget: unknown to the analysis, not to PHP.
    const routesFile = path.join(root, 'application', 'config', 'routes.php');
    const routesText = "<?php\nRoute::any('sign-in', 'auth/login', array('as' => 'login'));\nfor ($i = 0; $i < 100000; $i++) {}\nRoute::any('sign-out', 'auth/out', array('as' => 'logout'));\n$route = Route::map($route);\n";
    fs.writeFileSync(routesFile, routesText);
    const controllerFile = path.join(root, 'application', 'controllers', 'Auth.php');
    const controllerText = "<?php\nclass Auth extends CI_Controller {\n    public function out() { redirect(Route::named('logout')); }\n    public function gone() { redirect(Route::named('missing')); }\n}\n";
    fs.writeFileSync(controllerFile, controllerText);
    client.settings = { maxSteps: 500 };
    await client.initialize(root);
    const routesUri = pathToFileURL(routesFile).toString();
    const controller = pathToFileURL(controllerFile).toString();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: routesUri, languageId: 'php', version: 1, text: routesText } });
    const stopped = await client.waitForDiagnostics(routesUri, (p) => p.version === 1);
    assert.deepStrictEqual(codes(stopped), ['evaluation-limit']);
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: controller, languageId: 'php', version: 1, text: controllerText } });
    const unchecked = await client.waitForDiagnostics(controller, (p) => p.version === 1);
    assert.deepStrictEqual(unchecked.diagnostics, []);

    // With the budget it needs, every name is known: only the one no route has is reported.
    client.clearDiagnostics(controller);
    client.settings = { maxSteps: 1_000_000 };
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: {} });
    const checked = await client.waitForDiagnostics(controller, (p) => p.diagnostics.length > 0);
    assert.deepStrictEqual(checked.diagnostics.map((d) => [d.code, d.range.start.line]), [['unknown-route-name', 3]]);
    assert.match(String(checked.diagnostics[0].message), /No route is named 'missing'/);
  });

  it('checks an open PHP document as it is typed', async () => {
    await client.initialize(root);
    const view = path.join(root, 'application', 'views', 'nav.php');
    fs.mkdirSync(path.dirname(view), { recursive: true });
    const uri = pathToFileURL(view).toString();
    await client.waitForDiagnostics(pathToFileURL(path.join(root, 'application', 'controllers', 'Auth.php')).toString(), (p) => p.diagnostics.length > 0);
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: "<a href=\"<?= Route::named('logn') ?>\">Sign in</a>\n" } });
    const p = await client.waitForDiagnostics(uri, (x) => x.diagnostics.length > 0);
    assert.equal(p.diagnostics[0].code, 'unknown-route-name');
    assert.match(String(p.diagnostics[0].message), /Did you mean 'login'\?/);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeActionRequest,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidOpenTextDocumentNotification,
  FileChangeType,
  type CodeAction,
  type Diagnostic,
  type TextEdit,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LspClient } from '../helpers/lsp-client';

/** Edits applied to a text as an editor applies them (all against the original text). */
function applied(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///x.php', 'php', 1, text), edits);
}

/** The quick fixes for diagnostics, through the real server over stdio, each edit applied to the text in the test. */
describe('quick fixes over stdio', function () {
  this.timeout(60_000);
  let dir: string;
  let client: LspClient;
  let routes: string;
  let uri: string;
  let version = 1;
  const controller = () => path.join(dir, 'application', 'controllers', 'Articles.php');

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-fixes-'));
    fs.mkdirSync(path.join(dir, 'application', 'config'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'application', 'controllers'), { recursive: true });
    fs.writeFileSync(controller(), '<?php\nclass Articles extends CI_Controller\n{\n    public function index()\n    {\n    }\n\n    public function show($id)\n    {\n    }\n}\n');
    fs.writeFileSync(path.join(dir, 'application', 'controllers', 'Pages.php'), '<?php\nclass Pages extends CI_Controller { public function view($p) {} public function about() {} }\n');
    routes = path.join(dir, 'application', 'config', 'routes.php');
    fs.writeFileSync(routes, '<?php\n');
    uri = pathToFileURL(routes).toString();
    client = new LspClient();
    await client.initialize(dir);
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version, text: '<?php\n' } });
    await client.waitForDiagnostics(uri, (p) => p.version === version);
  });
  after(async () => {
    await client.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Opens `text` as the route file's next version and returns its diagnostics. */
  async function analyse(text: string): Promise<Diagnostic[]> {
    version++;
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    return (await client.waitForDiagnostics(uri, (p) => p.version === version)).diagnostics;
  }

  async function actionsFor(d: Diagnostic): Promise<CodeAction[]> {
    return ((await client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } })) ?? []) as CodeAction[];
  }

  const find = (diagnostics: Diagnostic[], code: string, key: string) => {
    const d = diagnostics.find((x) => x.code === code && String(x.message).includes(`'${key}'`));
    assert.ok(d, `${code} on '${key}': ${JSON.stringify(diagnostics.map((x) => x.message))}`);
    return d;
  };

  it('Move above line N: the whole statement goes above the shadowing one, and the route is reached', async () => {
    const text = [
      '<?php',
      "Route::get('pages/(:any)', 'pages/view/$1');",
      "Route::get('articles/(:num)', 'articles/show/$1');",
      "Route::get('pages/about', 'pages/about'); // the club",
      '$route = Route::map($route);',
      '',
    ].join('\n');
    const d = find(await analyse(text), 'unreachable-route', 'pages/about');
    const actions = await actionsFor(d);
    assert.deepEqual(actions.map((a) => a.title), ['Move above line 2']);
    const edits = actions[0].edit?.changes?.[uri] ?? [];
    const fixed = applied(text, edits);
    assert.equal(
      fixed,
      ['<?php', "Route::get('pages/about', 'pages/about'); // the club", "Route::get('pages/(:any)', 'pages/view/$1');", "Route::get('articles/(:num)', 'articles/show/$1');", '$route = Route::map($route);', ''].join('\n'),
    );
    assert.ok(!(await analyse(fixed)).some((x) => x.code === 'unreachable-route'));
  });

  it('Move above line N for a block() that never takes effect: blocked, as meant', async () => {
    const text = ['<?php', "Route::any('pages/(:any)', 'pages/view/$1');", "Route::block('pages/about');", '$route = Route::map($route);', ''].join('\n');
    const d = find(await analyse(text), 'shadowed-block', 'pages/about');
    const actions = await actionsFor(d);
    assert.deepEqual(actions.map((a) => a.title), ['Move above line 2']);
    const fixed = applied(text, actions[0].edit?.changes?.[uri] ?? []);
    assert.equal(fixed, ['<?php', "Route::block('pages/about');", "Route::any('pages/(:any)', 'pages/view/$1');", '$route = Route::map($route);', ''].join('\n'));
    assert.ok(!(await analyse(fixed)).some((x) => x.code === 'shadowed-block'));
  });

  it('offers no move when the statement cannot move safely', async () => {
    const text = ['<?php', "Route::get('pages/(:any)', 'pages/view/$1');", '$route = Route::map($route);', "Route::get('pages/about', 'pages/about');", '$route = Route::map($route);', ''].join('\n');
    const d = find(await analyse(text), 'unreachable-route', 'pages/about');
    assert.deepEqual((await actionsFor(d)).map((a) => a.title), []);
  });

  it('Remove the earlier duplicate: its statement goes, and the later one stands alone', async () => {
    const text = ['<?php', "Route::get('articles', 'articles/old');", "Route::get('pages/about', 'pages/about');", "Route::get('articles', 'articles/index');", '$route = Route::map($route);', ''].join('\n');
    const d = find(await analyse(text), 'duplicate-route', 'articles');
    const actions = await actionsFor(d);
    assert.deepEqual(actions.map((a) => a.title), ['Remove the earlier duplicate']);
    const fixed = applied(text, actions[0].edit?.changes?.[uri] ?? []);
    assert.equal(fixed, ['<?php', "Route::get('pages/about', 'pages/about');", "Route::get('articles', 'articles/index');", '$route = Route::map($route);', ''].join('\n'));
    assert.ok(!(await analyse(fixed)).some((x) => x.code === 'duplicate-route'));
  });

  it('offers no removal when the earlier declaration names the route', async () => {
    const text = ['<?php', "Route::get('articles', 'articles/old', array('as' => 'articles'));", "Route::get('articles', 'articles/index');", '$route = Route::map($route);', ''].join('\n');
    assert.deepEqual((await actionsFor(find(await analyse(text), 'duplicate-route', 'articles'))).map((a) => a.title), []);
  });

  it('Create method x() in Controller: the method goes into the controller file, and the target is found', async () => {
    const text = ['<?php', "Route::get('articles/(:num)/(:any)/compare', 'articles/compare/$1/$2');", "Route::get('articles/(:num)/compare', 'articles/compare/$1');", '$route = Route::map($route);', "$route['default_controller'] = 'articles/show';", ''].join('\n');
    const diagnostics = (await analyse(text)).filter((x) => x.code === 'missing-controller');
    assert.equal(diagnostics.length, 2, JSON.stringify(diagnostics));
    const actions = await actionsFor(diagnostics[0]);
    assert.deepEqual(actions.map((a) => a.title), ['Create method compare() in Articles']);
    const controllerUri = pathToFileURL(controller()).toString();
    assert.deepEqual(Object.keys(actions[0].edit?.changes ?? {}), [controllerUri], 'an edit of the controller file only');
    const before = fs.readFileSync(controller(), 'utf8');
    const after = applied(before, actions[0].edit!.changes![controllerUri]);
    assert.equal(after, before.replace('    public function show($id)\n    {\n    }\n', '    public function show($id)\n    {\n    }\n\n    public function compare($arg1, $arg2 = null)\n    {\n    }\n'));
    // Saved, the controller has the method: the targets dispatch.
    fs.writeFileSync(controller(), after);
    client.clearDiagnostics(uri);
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: controllerUri, type: FileChangeType.Changed }] });
    const republished = await client.waitForDiagnostics(uri, (p) => !p.diagnostics.some((x) => x.code === 'missing-controller'));
    assert.deepEqual(republished.diagnostics.filter((x) => x.code === 'missing-controller'), []);
    // Asked again with the old diagnostic, the fix is no longer offered: the method exists.
    assert.deepEqual((await actionsFor(diagnostics[0])).map((a) => a.title), []);
  });

  it('ignores a create-method fix sent back outside the application, or naming no routable method', async () => {
    const text = ['<?php', "Route::get('x', 'articles/nothing');", '$route = Route::map($route);', ''].join('\n');
    const d = find(await analyse(text), 'missing-controller', 'articles/nothing');
    const fix = (d.data as { fixes: { createMethod: Record<string, unknown> }[] }).fixes[0];
    assert.equal(fix.createMethod.method, 'nothing');
    const tampered = (createMethod: Record<string, unknown>) => ({ ...d, data: { fixes: [{ ...fix, createMethod: { ...fix.createMethod, ...createMethod } }] } });
    for (const change of [{ file: '../../../etc/controllers/x.php' }, { file: '/etc/controllers/x.php' }, { file: 'config/routes.php' }, { method: 'x(); } system("id"); function y' }, { params: 1000 }]) {
      assert.deepEqual((await actionsFor(tampered(change))).map((a) => a.title), [], JSON.stringify(change));
    }
    assert.deepEqual((await actionsFor(d)).map((a) => a.title), ['Create method nothing() in Articles']);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeTextDocumentNotification, DidChangeWatchedFilesNotification, DidOpenTextDocumentNotification, FileChangeType } from 'vscode-languageserver-protocol/node';
import { distinctRoutes } from '../../client/src/routes-model';
import type { RouteTableResult } from '../../shared/protocol/route-table';
import type { WorkspaceRoutesResult } from '../../shared/protocol/workspace-routes';
import { cli } from '../helpers/cli';
import { LspClient } from '../helpers/lsp-client';
import { EXAMPLE_APP } from '../helpers/paths';

/** `ciRoutes/workspaceRoutes` (the routes explorer's data) and `ciRoutes/routesChanged`, on a copy of the example app. */
describe('language server: the workspace routes and their change notification', function () {
  this.timeout(60_000);
  let client: LspClient;
  let root: string;
  let mainFile: string;
  let moduleFile: string;
  let changes = 0;

  const routes = async () => (await client.connection.sendRequest('ciRoutes/workspaceRoutes', {})) as WorkspaceRoutesResult;
  /** Resolves once a `ciRoutes/routesChanged` comes after the call. */
  const nextChange = async (timeoutMs = 10_000) => {
    const before = changes;
    const until = Date.now() + timeoutMs;
    while (changes === before) {
      if (Date.now() > until) throw new Error('no ciRoutes/routesChanged');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  /** Polls until `probe` gives a value. */
  const eventually = async <T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > until) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-workspace-routes-'));
    fs.cpSync(EXAMPLE_APP, root, { recursive: true });
    mainFile = path.join(root, 'application', 'config', 'routes.php');
    moduleFile = path.join(root, 'application', 'modules', 'blog', 'config', 'routes.php');
    client = new LspClient();
    client.connection.onNotification('ciRoutes/routesChanged', () => void changes++);
    // No closed route file stays evaluated: each is evaluated again when read.
    const init = await client.initialize(root, { debounceMs: 0, evaluationBudgetBytes: 0 });
    assert.equal((init.capabilities.experimental as { workspaceRoutes?: boolean }).workspaceRoutes, true);
  });
  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('tells no client that has not asked for the routes that they changed (other clients do not know the notification)', async () => {
    // Once the index has read both route files (their routes changed), and past the notification's delay.
    await eventually(async () => (((await client.connection.sendRequest('ciRoutes/indexStats')) as { routeFiles: number }).routeFiles >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(changes, 0);
  });

  it('lists every route file of the application in router order, methods merged as `ci-routes list` merges them', async () => {
    let answer = await routes();
    for (let i = 0; i < 100 && answer.indexing; i++) answer = (await new Promise((r) => setTimeout(r, 50)), await routes());
    assert.equal(answer.indexing, false);
    assert.deepEqual(
      answer.applications.map((a) => [a.name, a.uri, a.files.map((f) => [f.name, f.module])]),
      [['application', pathToFileURL(path.join(root, 'application')).toString(), [['application/config/routes.php', undefined], ['application/modules/blog/config/routes.php', 'blog']]]],
    );
    const [main, blog] = answer.applications[0]!.files;
    const listed = cli(['list', mainFile]).stdout;
    const count = Number(/^(\d+) routes$/m.exec(listed)?.[1]);
    assert.equal(main!.rows.length, count, 'as many rows as `list` prints');
    assert.ok(!main!.rows.some((r) => r.uri === 'default_controller'), 'settings are not routes');
    const articles = main!.rows.filter((r) => r.uri.startsWith('articles'));
    assert.ok(articles.length > 1);
    const show = main!.rows.find((r) => r.uri === 'articles/(:num)' && r.methods.includes('GET'));
    assert.deepEqual(show?.methods, ['GET']);
    const login = main!.rows.filter((r) => r.uri === 'login');
    assert.equal(login.length, 1, 'one declaration under every method is one row');
    assert.equal(login[0]!.methods.length, 8);
    assert.equal(show?.location?.uri, pathToFileURL(mainFile).toString());
    assert.match(show?.declaration ?? '', /^Route::resources\('articles'/);
    assert.equal(blog!.rows.length, 3);
    assert.deepEqual(blog!.rows[0]!.methods.length, 8);
  });

  it('answers again without evaluating files that did not change, and without a notification', async () => {
    await routes();
    const before = (await client.connection.sendRequest('ciRoutes/indexStats')) as { rederived: number };
    const seen = changes;
    await routes();
    const after = (await client.connection.sendRequest('ciRoutes/indexStats')) as { rederived: number };
    assert.equal(after.rederived, before.rederived);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(changes, seen);
  });

  it('notifies an edit of an open route file, and lists its new route (the status bar counts what list counts)', async () => {
    const uri = pathToFileURL(mainFile).toString();
    const text = fs.readFileSync(mainFile, 'utf8');
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    await nextChange();
    // The status bar's count, from the route table's rows of every method: `list`'s.
    const table = (await client.connection.sendRequest('ciRoutes/routeTable', { uri })) as RouteTableResult;
    assert.equal(distinctRoutes(table), Number(/^(\d+) routes$/m.exec(cli(['list', mainFile]).stdout)?.[1]));
    const at = text.indexOf('$route = Route::map($route);');
    const edited = `${text.slice(0, at)}Route::post('brand-new/(:num)', 'pages/brand_new/$1');\n${text.slice(at)}`;
    const seen = changes;
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
    const added = await eventually(async () => (await routes()).applications[0]!.files[0]!.rows.find((r) => r.uri === 'brand-new/(:num)'));
    // The notification waits for typing to pause (the debounce).
    if (changes === seen) await nextChange();
    assert.deepEqual(added.methods, ['POST']);
    assert.equal(added.target, 'pages/brand_new/$1');
    assert.equal(added.location?.range.start.line, text.slice(0, at).split('\n').length - 1);
  });

  it('notifies a change on disk, and lists what the file says now', async () => {
    const seen = changes;
    fs.appendFileSync(moduleFile, "\n$route['blog/latest'] = 'posts/latest';\n");
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(moduleFile).toString(), type: FileChangeType.Changed }] });
    const blog = await eventually(async () => (await routes()).applications[0]!.files.find((f) => f.module === 'blog' && f.rows.length === 4));
    if (changes === seen) await nextChange();
    assert.ok(blog.rows.some((r) => r.uri === 'blog/latest' && r.target === 'posts/latest'));
  });
});

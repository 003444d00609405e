import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WorkspaceSymbolRequest, type SymbolInformation } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { EXAMPLE_APP } from '../helpers/paths';

/** Workspace symbols over stdio: a concrete URL finds the routes that route it, `Controller::method` those that reach it. */
describe('workspace symbols over stdio: URLs and controller methods', function () {
  this.timeout(60_000);
  let dir: string;
  let client: LspClient;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-symbols-'));
    fs.cpSync(path.join(EXAMPLE_APP, 'application'), path.join(dir, 'application'), { recursive: true });
    client = new LspClient();
    client.settings = { constants: { SITE_AREA: 'admin' } };
    await client.initialize(dir);
    for (let i = 0; i < 200 && !client.logs.some((l) => l.includes('] indexed ')); i++) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => {
    await client.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const search = async (query: string) => {
    const found = ((await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query })) as SymbolInformation[] | null) ?? [];
    return found.map((s) => `${path.relative(path.join(dir, 'application'), fileURLToPath(s.location.uri))}:${s.location.range.start.line + 1} ${s.name} | ${s.containerName}`);
  };

  it('finds the routes that route articles/12, with what the URL becomes', async () => {
    const found = await search('articles/12');
    assert.deepEqual(found.slice(0, 3), [
      'config/routes.php:31 articles/(:num) | GET articles/12 → blog/posts/show/12',
      'config/routes.php:31 articles/(:num) | PUT articles/12 → blog/posts/update/12',
      'config/routes.php:31 articles/(:num) | DELETE articles/12 → blog/posts/delete/12',
    ]);
    assert.deepEqual((await search('/articles/12')).slice(0, 3), found.slice(0, 3));
    // A module's routes file, matched as its router matches it.
    assert.equal((await search('blog/archive/2024'))[0], 'modules/blog/config/routes.php:9 blog/archive/(:num) | ANY blog/archive/2024 → posts/archive/2024');
  });

  it('finds the routes whose target reaches Posts::show, located by the router', async () => {
    const expected = ['config/routes.php:31 articles/(:num) | GET → blog/posts/show/$1', 'config/routes.php:34 articles/(:num)/(:any) | GET → blog/posts/show/$1 · as article'];
    for (const query of ['Posts::show', 'posts::show', 'Posts.show']) assert.deepEqual((await search(query)).slice(0, 2), expected, query);
    // The module's own routes reach its Posts controller through module-relative targets.
    assert.ok((await search('Posts::archive')).includes('modules/blog/config/routes.php:9 blog/archive/(:num) | ANY → posts/archive/$1'));
    // `pages/show/about` is Pages::show('about') to the router, whatever its segments read like.
    assert.ok((await search('Pages::show')).some((s) => s.includes(' about | ANY → pages/show/about')));
    assert.ok(!(await search('Show::about')).some((s) => s.includes('pages/show/about')));
  });

  it('keeps the text search', async () => {
    assert.ok((await search('api_status')).some((s) => s.includes(' api/status | ANY → api/status/index · as api_status')), (await search('api_status')).join('\n'));
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification, HoverRequest, type Hover, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { marked } from 'marked';
import { LspClient } from '../helpers/lsp-client';
import { EXAMPLE_APP } from '../helpers/paths';

/** The hover of `Route::named()` in a controller: the route's pattern, target and methods, and a link to the controller method it reaches. */
describe('named() hover over stdio: the route and a link to its controller', function () {
  this.timeout(60_000);
  let dir: string;
  let client: LspClient;
  before(async () => {
    // Brackets, parentheses and a space in the path: the link must survive them.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes named (x) [y] '));
    fs.cpSync(path.join(EXAMPLE_APP, 'application'), path.join(dir, 'application'), { recursive: true });
    client = new LspClient();
    await client.initialize(dir);
    for (let i = 0; i < 200 && !client.logs.some((l) => l.includes('] indexed ')); i++) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => {
    await client.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('in a controller file, links the target to the controller method, file and line', async () => {
    const file = path.join(dir, 'application', 'controllers', 'Home.php');
    const text = "<?php\nclass Home extends CI_Controller {\n    public function index() { redirect(Route::named('article')); }\n}\n";
    const uri = pathToFileURL(file).toString();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 2, character: 55 } })) as Hover | null;
    const markdown = (hover?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(markdown, /^\*\*Route `article`\*\*\n/);
    assert.match(markdown, /\n- URI pattern: `articles\/\(:num\)\/\(:any\)`\n- Target: `blog\/posts\/show\/\$1`\n- Methods: GET\n/);
    // Rendered as Markdown, the link is one link to the file's line 33 (`public function show($id)`).
    const html = await marked.parse(markdown);
    const hrefs = [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)];
    assert.equal(hrefs.length, 1, html);
    assert.equal(hrefs[0][2], 'Posts::show()');
    const target = new URL(hrefs[0][1].replace(/&amp;/g, '&'));
    assert.equal(target.hash, '#L33');
    assert.equal(fileURLToPath(target), path.join(dir, 'application', 'modules', 'blog', 'controllers', 'Posts.php'));
    assert.match(html, /Declared in .*routes\.php:\d+\./);
  });
});

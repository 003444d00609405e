import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { tempProject } from '../helpers/temp-project';

const MAIN = `<?php
$route['default_controller'] = 'pages';
// A module's routes file, as some HMVC applications load them (the shop module's is not).
foreach (glob(APPPATH . 'modules/auth/config/routes.php') as $file) {
    require $file;
}
`;

// 'login' does not start with 'auth/': MX never reads this file for it, but the main file includes it.
const AUTH = `<?php
$route['login'] = 'auth/login';
`;

// Nor does 'cart' start with 'shop/', and nothing includes this file: that key is never reached.
const SHOP = `<?php
$route['cart'] = 'shop/cart';
`;

/**
 * A module's routes file opened while the first scan has not read the main route file yet: whether
 * the main file includes it (its keys then main routes) is unknown, and nothing that depends on it
 * is published, not even for a moment.
 */
describe("language server: a module's routes file opened before the index has read the main routes", function () {
  this.timeout(60_000);
  let dir: string;
  let client: LspClient;
  let releaseScan!: () => void;

  before(async () => {
    dir = tempProject('ci-routes-module-before-index-', {
      'application/config/routes.php': MAIN,
      'application/modules/auth/config/routes.php': AUTH,
      'application/modules/auth/controllers/Auth.php': '<?php class Auth extends MX_Controller { public function login() {} }\n',
      'application/modules/shop/config/routes.php': SHOP,
      'application/modules/shop/controllers/Shop.php': '<?php class Shop extends MX_Controller { public function cart() {} }\n',
      'application/third_party/MX/Router.php': '<?php class MX_Router extends CI_Router {}\n',
    });
    client = new LspClient();
    // The server asks for a progress token before its first scan: holding the answer holds the scan.
    const scanHeld = new Promise<void>((resolve) => (releaseScan = resolve));
    client.connection.onRequest('window/workDoneProgress/create', async () => {
      await scanHeld;
      return null;
    });
    await client.initialize(dir);
  });

  after(async () => {
    releaseScan();
    await client.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('judges its keys against the main routes only once they are read', async () => {
    const uriOf = (module: string) => pathToFileURL(path.join(dir, 'application', 'modules', module, 'config', 'routes.php')).toString();
    const [auth, shop] = [uriOf('auth'), uriOf('shop')];
    const neverReached = (p: PublishDiagnosticsParams) => p.diagnostics.filter((d) => /never reached/.test(String(d.message))).map((d) => d.range.start.line);
    for (const [uri, text] of [[auth, AUTH], [shop, SHOP]]) {
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
      const first = await client.waitForDiagnostics(uri);
      assert.ok(client.logs.every((l) => !/indexed \d+ route file/.test(l)), 'the first scan ended before the file was analysed: the case is not tested');
      assert.deepEqual(neverReached(first), [], `${uri} published before the main routes were read`);
    }
    releaseScan();
    await client.waitForDiagnostics(shop, (p) => neverReached(p).length > 0);
    assert.deepEqual(client.publications(shop).at(-1) && neverReached(client.publications(shop).at(-1)!), [1], 'the key nothing includes, once the main routes are read');
    assert.deepEqual(client.publications(auth).flatMap(neverReached), [], 'the key the main file includes');
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification, type Hover } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { tempProject } from '../helpers/temp-project';

const MODULE_ROUTES = "<?php\n$route['users/me'] = 'users/profile';\n";

/**
 * Modular Extensions with a `controller_suffix`: the router loads `UsersController.php`, which the
 * router model does not follow. Hover, go to definition and Test URL say the controller is not
 * looked up, never that none exists, nor name the unsuffixed file.
 */
describe("language server: targets under Modular Extensions' controller_suffix", function () {
  this.timeout(60_000);
  let dir: string;
  let client: LspClient;
  let moduleUri: string;
  let mainUri: string;

  before(async () => {
    dir = tempProject('ci-routes-suffix-lsp-', {
      'application/config/routes.php': "<?php\n$route['default_controller'] = 'home';\n$route['me'] = 'users/profile';\n",
      'application/config/config.php': "<?php\n$config['controller_suffix'] = 'Controller';\n",
      'application/third_party/MX/Router.php': '<?php class MX_Router extends CI_Router {}\n',
      // (CodeIgniter reaches a module's controllers through application/controllers/../modules/.)
      'application/controllers/HomeController.php': '<?php class HomeController extends MX_Controller { public function index() {} }\n',
      'application/modules/users/config/routes.php': MODULE_ROUTES,
      'application/modules/users/controllers/UsersController.php': '<?php class UsersController extends MX_Controller { public function profile() {} }\n',
      // Not what the router loads under the suffix: nothing may point here.
      'application/modules/users/controllers/Users.php': '<?php class Users extends MX_Controller { public function profile() {} }\n',
    });
    moduleUri = pathToFileURL(path.join(dir, 'application', 'modules', 'users', 'config', 'routes.php')).toString();
    mainUri = pathToFileURL(path.join(dir, 'application', 'config', 'routes.php')).toString();
    client = new LspClient();
    await client.initialize(dir);
    for (const uri of [moduleUri, mainUri]) {
      const file = new URL(uri).pathname;
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: fs.readFileSync(file, 'utf8') } });
      await client.waitForDiagnostics(uri);
    }
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const onTarget = { line: 1, character: MODULE_ROUTES.split('\n')[1]!.indexOf("'users/profile'") + 3 };

  it('hover says the controller is not looked up, and why', async () => {
    const hover = (await client.connection.sendRequest('textDocument/hover', { textDocument: { uri: moduleUri }, position: onTarget })) as Hover;
    const text = (hover.contents as { value: string }).value;
    assert.match(text, /is not known here: the controller is not looked up\\: Modular Extensions\\' router adds config\\\.php\\'s controller\\_suffix/);
    assert.doesNotMatch(text, /404|Users\\?\.php/);
  });

  it('go to definition goes nowhere rather than to the file the router does not load', async () => {
    assert.equal(await client.connection.sendRequest('textDocument/definition', { textDocument: { uri: moduleUri }, position: onTarget }), null);
  });

  it('Test URL follows the module route and leaves the controller unknown', async () => {
    const r = (await client.connection.sendRequest('ciRoutes/testUrl', { uri: mainUri, method: 'GET', url: '/users/me' })) as Record<string, unknown>;
    assert.deepEqual([(r.module_route as { value: string }).value, r.controller_file, r['404'], r.controllerUri], ['users/profile', null, null, undefined]);
    assert.match(String(r.unknown), /^the controller is not looked up: Modular Extensions' router adds config\.php's controller_suffix \('Controller'/);
  });
});

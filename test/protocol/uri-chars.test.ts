import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigurationRequest, DidOpenTextDocumentNotification, DidChangeWatchedFilesNotification, FileChangeType } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { servedProject } from '../helpers/served-project';
import { ROOT } from '../helpers/paths';

const ROUTES = "<?php\n$route['default_controller'] = 'tags';\n$route['tags/([^/+]+)'] = 'tags/show/$1';\n$route['tags/(:any)'] = 'tags/plus/$1';\n";
const config = (chars: string) => `<?php\n$config['base_url'] = '';\n$config['permitted_uri_chars'] = '${chars}';\n`;

/** config.php permitting '+': no route's reach is judged, and the editor is told why; set back to the default, it is. */
describe("language server: config.php's permitted_uri_chars", function () {
  this.timeout(60_000);
  const project = servedProject('ci-routes-uri-chars-', {
    'application/config/routes.php': ROUTES,
    'application/config/config.php': config('a-z 0-9~%.:_+\\-'),
    'application/controllers/Tags.php': '<?php class Tags extends CI_Controller { public function index() {} public function show($t) {} public function plus($t) {} }\n',
  });

  it('says the routes are not checked for reach while config.php permits more, and checks them once it does not', async () => {
    const { client, dir } = project;
    const uri = await project.open('application/config/routes.php');
    const first = await client.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'uri-chars'));
    assert.deepEqual(first.diagnostics.map((d) => d.code), ['uri-chars']);
    assert.match(String(first.diagnostics[0].message), /config\/config\.php sets permitted_uri_chars to 'a-z 0-9~%\.:_\+\\-', which permits '\+'/);
    const configFile = path.join(dir, 'application', 'config', 'config.php');
    fs.writeFileSync(configFile, config('a-z 0-9~%.:_\\-'));
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(configFile).toString(), type: FileChangeType.Changed }] });
    const second = await client.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'unreachable-route'));
    assert.deepEqual(second.diagnostics.map((d) => d.code), ['unreachable-route']);
  });

  it("reads the environment's config.php of the ENVIRONMENT the settings give, never first under the defaults", async () => {
    const fixture = path.join(ROOT, 'test', 'fixtures', 'environments', 'uri-chars');
    const other = new LspClient();
    // The settings come a while after the document is opened, as from a busy editor.
    const settings = { constants: { ENVIRONMENT: 'testing' } };
    other.connection.onRequest(ConfigurationRequest.type, async (params) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return params.items.map(() => settings);
    });
    try {
      await other.initialize(fixture);
      const file = path.join(fixture, 'application', 'config', 'routes.php');
      const fileUri = pathToFileURL(file).toString();
      await other.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: fileUri, languageId: 'php', version: 1, text: fs.readFileSync(file, 'utf8') } });
      const published = await other.waitForDiagnostics(fileUri, (p) => p.diagnostics.length > 0);
      assert.deepEqual(published.diagnostics.map((d) => d.code), ['uri-chars']);
      assert.match(String(published.diagnostics[0].message), /config\/testing\/config\.php sets permitted_uri_chars/);
      assert.deepEqual(other.publications(fileUri).map((p) => p.diagnostics.map((d) => d.code)), other.publications(fileUri).map(() => ['uri-chars']), 'no publication under the default environment');
    } finally {
      await other.shutdown();
    }
  });
});

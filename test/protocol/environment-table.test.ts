import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeConfigurationNotification, DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { EXAMPLE_APP } from '../helpers/paths';

interface Table {
  environment: string | null;
  environmentSource: string;
  environmentRoutes?: string;
  environmentLine: string;
  methods: { method: string; rows: { uri: string; target: string; location?: { uri: string; range: { start: { line: number } } } }[] }[];
}

/** ciRoutes/routeTable says which environment and environment route file are in force, and lists its routes at their own file. */
describe('language server: the route table under an environment (the example app)', function () {
  this.timeout(30_000);
  let client: LspClient;
  let root: string;
  let uri: string;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-env-table-'));
    fs.cpSync(EXAMPLE_APP, root, { recursive: true });
    client = new LspClient();
    await client.initialize(root);
    const file = path.join(root, 'application', 'config', 'routes.php');
    uri = pathToFileURL(file).toString();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: fs.readFileSync(file, 'utf8') } });
  });
  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const table = async () => (await client.connection.sendRequest('ciRoutes/routeTable', { uri })) as Table;

  it("is index.php's development by default, without an environment route file", async () => {
    const t = await table();
    assert.equal(t.environment, 'development');
    assert.equal(t.environmentSource, "index.php's default (CI_ENV unset)");
    assert.equal(t.environmentRoutes, undefined);
    assert.match(t.environmentLine, /no config\/development\/routes\.php; config\/production\/routes\.php only under ENVIRONMENT production$/);
  });

  it('runs config/production/routes.php under ciRoutes.constants ENVIRONMENT = production', async () => {
    client.settings = { constants: { ENVIRONMENT: 'production' } };
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: {} });
    let t = await table();
    for (let i = 0; i < 100 && t.environment !== 'production'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      t = await table();
    }
    assert.equal(t.environmentSource, 'given');
    const production = pathToFileURL(path.join(root, 'application', 'config', 'production', 'routes.php')).toString();
    assert.equal(t.environmentRoutes, production);
    const get = t.methods.find((m) => m.method === 'GET')!;
    const maintenance = get.rows.find((r) => r.uri === 'maintenance');
    assert.equal(maintenance?.target, 'pages/show/maintenance');
    assert.equal(maintenance?.location?.uri, production);
    assert.equal(maintenance?.location?.range.start.line, 13);
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeConfigurationNotification, DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { CONFORMANCE } from '../helpers/paths';
import { MODEL_FIELDS, differences } from '../router/hmvc-app';

const CASES = path.join(CONFORMANCE, 'hmvc', 'cases');
const cases = fs.readdirSync(CASES).sort();
const spec = (name: string) => JSON.parse(fs.readFileSync(path.join(CASES, name, 'case.json'), 'utf8')) as { flavours: string[]; methods: string[]; uris: string[] };
const routesOf = (name: string) => path.join(CASES, name, 'application', 'config', 'routes.php');

describe('language server: ciRoutes/testUrl routes as the HMVC routers do (conformance/hmvc)', function () {
  this.timeout(60_000);
  let client: LspClient;

  before(async () => {
    client = new LspClient();
    await client.initialize(CASES);
    for (const name of cases) {
      const uri = pathToFileURL(routesOf(name)).toString();
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: fs.readFileSync(routesOf(name), 'utf8') } });
    }
  });
  after(async () => {
    await client.shutdown();
  });

  /** ciRoutes.router set to `flavour`, once the server reads it (the route table says which router is in force). */
  async function useRouter(flavour: string): Promise<void> {
    client.settings = { router: flavour };
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: {} });
    const uri = pathToFileURL(routesOf(cases[0])).toString();
    for (let i = 0; i < 100; i++) {
      const table = (await client.connection.sendRequest('ciRoutes/routeTable', { uri })) as { router: string; routerSource: string } | null;
      if (table?.router === flavour) {
        assert.equal(table.routerSource, 'given');
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail(`the server never took ciRoutes.router = ${flavour}`);
  }

  it('says the router in force and why (no router files in the cases: CodeIgniter\'s own)', async () => {
    const table = (await client.connection.sendRequest('ciRoutes/routeTable', { uri: pathToFileURL(routesOf(cases[0])).toString() })) as { router: string; routerSource: string };
    assert.equal(table.router, 'ci');
    assert.match(table.routerSource, /^default/);
  });

  for (const flavour of ['bonfire', 'mx']) {
    it(`answers every ${flavour} vector`, async () => {
      await useRouter(flavour);
      const failures: string[] = [];
      for (const name of cases.filter((c) => spec(c).flavours.includes(flavour))) {
        const uri = pathToFileURL(routesOf(name)).toString();
        for (const method of spec(name).methods) {
          const expected = JSON.parse(fs.readFileSync(path.join(CONFORMANCE, 'hmvc', 'expected', `${name}.${flavour}.${method}.json`), 'utf8')) as { results: Record<string, unknown>[] };
          const answers = new Map<string, object>();
          for (const u of spec(name).uris) answers.set(u, (await client.connection.sendRequest('ciRoutes/testUrl', { uri, method, url: `/${u}` })) as object);
          failures.push(...differences(expected.results, (u) => answers.get(u) ?? {}, MODEL_FIELDS).map((d) => `${name} ${method}: ${d}`));
        }
      }
      assert.deepStrictEqual(failures, []);
    });
  }

  it("asked from a module's routes file, answers from the application's main routes file (open), or says to ask there", async () => {
    await useRouter('mx');
    const main = pathToFileURL(routesOf('01-module-relative')).toString();
    const moduleFile = path.join(CASES, '01-module-relative', 'application', 'modules', 'blog', 'config', 'routes.php');
    const moduleUri = pathToFileURL(moduleFile).toString();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: moduleUri, languageId: 'php', version: 1, text: fs.readFileSync(moduleFile, 'utf8') } });
    const fromMain = (await client.connection.sendRequest('ciRoutes/testUrl', { uri: main, method: 'GET', url: '/blog/12' })) as Record<string, unknown>;
    const fromModule = (await client.connection.sendRequest('ciRoutes/testUrl', { uri: moduleUri, method: 'GET', url: '/blog/12' })) as Record<string, unknown>;
    assert.deepStrictEqual(fromModule, fromMain);
    // Another case's module file whose main file is not open: it says where to ask.
    const other = path.join(CASES, '06-subcontrollers', 'application', 'modules');
    const someModule = fs.existsSync(other) ? fs.readdirSync(other).map((m) => path.join(other, m, 'config', 'routes.php')).find((f) => fs.existsSync(f)) : undefined;
    if (someModule) {
      await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: pathToFileURL(routesOf('06-subcontrollers')).toString() } });
      const uri = pathToFileURL(someModule).toString();
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: fs.readFileSync(someModule, 'utf8') } });
      const r = (await client.connection.sendRequest('ciRoutes/testUrl', { uri, method: 'GET', url: '/x' })) as { error?: string };
      assert.match(String(r.error), /^requests are routed by the application's main routes file, not module \w+'s: ask for .*06-subcontrollers.application.config.routes\.php/);
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: pathToFileURL(routesOf('06-subcontrollers')).toString(), languageId: 'php', version: 1, text: fs.readFileSync(routesOf('06-subcontrollers'), 'utf8') } });
    }
  });

  it('points at the module route it used, and at the controller', async () => {
    await useRouter('mx');
    const uri = pathToFileURL(routesOf('01-module-relative')).toString();
    const r = (await client.connection.sendRequest('ciRoutes/testUrl', { uri, method: 'GET', url: '/blog/12' })) as { module_route: { key: string } | null; moduleLocation?: { uri: string; range: { start: { line: number } } }; controllerUri?: string };
    assert.ok(r.module_route, 'a module route matched');
    assert.ok(r.moduleLocation?.uri.endsWith('/01-module-relative/application/modules/blog/config/routes.php'));
    const moduleText = fs.readFileSync(path.join(CASES, '01-module-relative', 'application', 'modules', 'blog', 'config', 'routes.php'), 'utf8');
    assert.ok(moduleText.split('\n')[r.moduleLocation?.range.start.line ?? -1].includes(r.module_route.key), 'the line declares the key');
    assert.ok(r.controllerUri?.includes('/01-module-relative/application/modules/blog/controllers/'));
  });

  it('reads an open module routes file from the editor, not the disk (last: it changes what the case routes)', async () => {
    await useRouter('mx');
    const moduleFile = path.join(CASES, '01-module-relative', 'application', 'modules', 'blog', 'config', 'routes.php');
    const text = "<?php\n$route['blog/(:num)'] = 'posts/archive/$1';\n";
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: pathToFileURL(moduleFile).toString(), languageId: 'php', version: 1, text } });
    const uri = pathToFileURL(routesOf('01-module-relative')).toString();
    const r = (await client.connection.sendRequest('ciRoutes/testUrl', { uri, method: 'GET', url: '/blog/12' })) as { method: string; module_route: { value: string } };
    assert.equal(r.module_route.value, 'posts/archive/$1');
    assert.equal(r.method, 'archive');
  });
});

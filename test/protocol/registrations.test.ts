import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification, InitializedNotification, InitializeRequest, RegistrationRequest, type RegistrationParams } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';

/** The methods the server registers with a client declaring `workspace` capabilities `workspace`. */
async function registeredWith(workspace: Record<string, unknown>): Promise<string[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-registrations-'));
  const client = new LspClient();
  const methods: string[] = [];
  client.connection.onRequest(RegistrationRequest.type, (params: RegistrationParams) => {
    methods.push(...params.registrations.map((r) => r.method));
  });
  try {
    const rootUri = pathToFileURL(root).toString();
    await client.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'root' }],
      capabilities: { workspace },
    });
    await client.connection.sendNotification(InitializedNotification.type, {});
    // The registrations are sent as `initialized` arrives, before the first scan ends.
    const deadline = Date.now() + 30_000; // a deadline for a hang, not a speed requirement
    while (!client.logs.some((l) => /indexed \d+ route files?/.test(l))) {
      if (Date.now() > deadline) throw new Error(`the first scan never ended; log: ${client.logs.join('\n')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return methods.sort();
  } finally {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

describe('what the server sends a client unasked', function () {
  this.timeout(60_000);

  it('dynamic registrations: only for what the client says it can register (Eglot warns of any other)', async () => {
    // Eglot 1.9: workspace/configuration, but no dynamic registration of didChangeConfiguration.
    assert.deepStrictEqual(await registeredWith({ configuration: true, didChangeWatchedFiles: { dynamicRegistration: true } }), ['workspace/didChangeWatchedFiles']);
    // VS Code's client declares both.
    assert.deepStrictEqual(
      await registeredWith({ configuration: true, didChangeConfiguration: { dynamicRegistration: true }, didChangeWatchedFiles: { dynamicRegistration: true } }),
      ['workspace/didChangeConfiguration', 'workspace/didChangeWatchedFiles'],
    );
    assert.deepStrictEqual(await registeredWith({}), []);
  });
});

/** Whether a client initialized with `initializationOptions` is told of, then sent, `ciRoutes/analysisTiming`. */
async function analysisTimingWith(initializationOptions: Record<string, unknown>): Promise<{ declared: boolean; received: number }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-timing-'));
  const client = new LspClient();
  let received = 0;
  client.connection.onNotification('ciRoutes/analysisTiming', () => void received++);
  try {
    fs.mkdirSync(path.join(root, 'application', 'config'), { recursive: true });
    const file = path.join(root, 'application', 'config', 'routes.php');
    const text = "<?php\nRoute::get('a', 'b/c');\nRoute::get('a', 'b/d');\n$route = Route::map($route);\n";
    fs.writeFileSync(file, text);
    const result = await client.initialize(root, initializationOptions);
    const uri = pathToFileURL(file).toString();
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0, 30_000);
    // The notification follows the analysis' last publication; a request answered after it is past it.
    await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 8 } });
    const experimental = result.capabilities.experimental as { analysisTiming?: unknown } | undefined;
    return { declared: experimental?.analysisTiming === true, received };
  } finally {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

describe('ciRoutes/analysisTiming', function () {
  this.timeout(60_000);

  it('is sent only to clients that ask for it (lsp-mode warns of every notification it does not know)', async () => {
    assert.deepStrictEqual(await analysisTimingWith({ debounceMs: 0 }), { declared: false, received: 0 });
    const asked = await analysisTimingWith({ debounceMs: 0, analysisTiming: true });
    assert.equal(asked.declared, true);
    assert.ok(asked.received > 0, 'the bench and the fuzzer wait for it');
  });
});

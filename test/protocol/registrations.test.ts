import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { InitializedNotification, InitializeRequest, RegistrationRequest, type RegistrationParams } from 'vscode-languageserver-protocol/node';
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

describe('dynamic registrations', function () {
  this.timeout(60_000);

  it('are sent only for what the client says it can register (Eglot warns of any other)', async () => {
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

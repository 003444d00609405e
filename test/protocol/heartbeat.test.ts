import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PING_METHOD } from '../../client/src/heartbeat';
import { LspClient } from '../helpers/lsp-client';

/** `ciRoutes/ping`: the extension's heartbeat (client/src/heartbeat.ts) is answered by the server. */
describe('language server: the heartbeat request', function () {
  this.timeout(30_000);
  let root: string;
  let client: LspClient | undefined;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-ping-'));
  });

  afterEach(async () => {
    await client?.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('answers the method the client sends, with a constant', async () => {
    client = new LspClient();
    await client.initialize(root);
    assert.deepEqual(await client.connection.sendRequest(PING_METHOD), { alive: true });
    assert.deepEqual(await client.connection.sendRequest(PING_METHOD), { alive: true });
  });
});

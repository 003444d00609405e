import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { processMessageReader } from '../helpers/stream-reader';

describe('test helpers: a message reader on a server that dies mid-message', () => {
  it('stops its partial-message timer when the stream ends (else the test process never exits)', async () => {
    // Half a message: a header announcing 100 bytes, then 10 of them, then the process exits.
    const child = spawn(process.execPath, ['-e', 'process.stdout.write("Content-Length: 100\\r\\n\\r\\n{\\"jsonrpc\\"")'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const reader = processMessageReader(child.stdout);
    reader.listen(() => assert.fail('no whole message was sent'));
    await once(child.stdout, 'close');
    assert.equal((reader as unknown as { partialMessageTimer?: unknown }).partialMessageTimer, undefined);
    assert.equal(reader.partialMessageTimeout, 0);
  });
});

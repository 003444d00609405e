import * as assert from 'node:assert/strict';
import { runFuzz } from './fuzz/driver';

// The short run of the stdio fuzz; `npm run fuzz` is the long one (and the one that checks latency).
describe('language server under random edits and requests over stdio (short fuzz run)', function () {
  this.timeout(120_000);

  for (const seed of [1, 20260101]) {
    it(`answers every request and survives 400 edits (seed ${seed})`, async () => {
      const r = await runFuzz({ edits: 400, seed });
      assert.deepEqual(r.crashDetails, [], 'no crash');
      assert.equal(r.crashes, 0);
      assert.equal(r.unanswered, 0, 'every request answered');
      assert.deepEqual(r.failed, [], 'no handler threw');
      assert.deepEqual(r.serverErrors, [], 'no error logged by the server');
      // The client answers hostile settings: each is refused or clamped in a message without a link.
      assert.ok(r.messages.shown > 0, 'the hostile settings were reported');
      assert.deepEqual(r.messages.linked, [], 'no message carries a link from the settings');
      assert.equal(r.edits, 400);
      assert.ok(r.requests > 100, `requests sent (${r.requests})`);
      assert.ok(r.cancelled > 0, 'some requests cancelled');
    });
  }
});

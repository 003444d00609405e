import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths';

/**
 * V8 keeps a script's source for as long as the script lives: a bundle with a single character
 * past ASCII (a `…` in a comment) is held as a two-byte string, twice its size (the server's:
 * 5.9 MB instead of 2.4 MB of every server's memory). scripts/bundle.js writes them without
 * comments and with ASCII escapes.
 */
describe('the bundles', () => {
  for (const bundle of ['dist/server.js', 'dist/cli.js', 'dist/extension.js']) {
    it(`${bundle} is ASCII (its source is a one-byte string in V8)`, () => {
      const bytes = fs.readFileSync(path.join(ROOT, bundle));
      const at = bytes.findIndex((b) => b > 0x7f);
      assert.equal(at, -1, `${bundle}: a byte past ASCII at offset ${at}: ${JSON.stringify(bytes.subarray(Math.max(0, at - 40), at + 10).toString('latin1'))}`);
    });
  }
});

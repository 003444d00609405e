import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONFORMANCE, SHARED_CONFORMANCE } from '../helpers/paths';

function listFiles(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();
}

describe('the conformance vectors kept in test/ are the published ones', () => {
  const available = fs.existsSync(SHARED_CONFORMANCE);
  it('matches ../shared/conformance byte for byte (when that folder is present)', function () {
    if (!available) this.skip();
    const ours = listFiles(CONFORMANCE);
    const theirs = listFiles(SHARED_CONFORMANCE);
    assert.deepStrictEqual(ours, theirs, 'same file list');
    for (const f of ours) {
      assert.ok(fs.readFileSync(path.join(CONFORMANCE, f)).equals(fs.readFileSync(path.join(SHARED_CONFORMANCE, f))), `${f} differs`);
    }
  });
});

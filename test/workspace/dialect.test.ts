import * as assert from 'node:assert/strict';
import { dialectOfLibrarySource, MAX_LIBRARY_BYTES } from '../../shared/app/dialect';
import { DeadlineRunner } from '../helpers/deadline';

const SPEC = `<?php\nclass Route {\n  public static function context($name, $options = array()) {\n    self::any($name, "{$name}/{$options['home']}");\n  }\n}\n`;
const BONFIRE = `<?php\nclass Route {\n  public static function context($name, $options = array()) {\n    self::any($name, "{$options['home']}");\n  }\n}\n`;

describe("dialect detection from the application's Route.php", () => {
  it("tells the two versions apart by context()'s home route", () => {
    assert.equal(dialectOfLibrarySource(SPEC), 'spec');
    assert.equal(dialectOfLibrarySource(BONFIRE), 'bonfire');
    assert.equal(dialectOfLibrarySource('<?php class Router {}'), undefined);
  });

  it('reads no library larger than its cap', () => {
    assert.equal(dialectOfLibrarySource(SPEC + ' '.repeat(MAX_LIBRARY_BYTES)), undefined);
  });

  // A backtracking engine spent minutes on text like this (the same pattern, 400 KB: cubic in the
  // text); RE2 is linear. The text is just under the cap, so it is scanned in full, in a worker
  // whose deadline catches a hang (a mocha timeout cannot interrupt synchronous work).
  it('scans crafted text just under the cap in one pass', async function () {
    this.timeout(60_000);
    const runner = new DeadlineRunner();
    try {
      assert.equal(await runner.run(require.resolve('./dialect-crafted'), 'dialectOfCraftedText', null, 50_000), 'none');
    } finally {
      runner.stop();
    }
  });
});

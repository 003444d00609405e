import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { outcomeToJson } from '../../shared/library/outcome-json';
import { ROOT } from '../helpers/paths';

/**
 * Corners of the Route library the published vectors do not reach (map() of what is not an
 * array, a target holding an array), each beside the outcome the real library gave under php-cli
 * 8.2 (GET, Bonfire's library), in the vectors' format.
 */
const DIR = path.join(ROOT, 'test', 'fixtures', 'library-differential');

describe('Route library corners, against what the real library did in PHP', () => {
  for (const file of fs.readdirSync(DIR).filter((f) => f.endsWith('.php')).sort()) {
    it(file, () => {
      const expected = JSON.parse(fs.readFileSync(path.join(DIR, file.replace(/\.php$/, '.expected.json')), 'utf8')) as unknown;
      const ev = evaluateRouteFile(fs.readFileSync(path.join(DIR, file), 'utf8'), { dialect: 'bonfire' });
      assert.deepEqual(outcomeToJson(ev.methods[0]), expected);
    });
  }
});

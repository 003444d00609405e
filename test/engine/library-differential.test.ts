import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { outcomeToJson } from '../../shared/evaluate/outcome-json';
import { REQUEST_METHODS } from '../../shared/runtime/methods';
import { ROOT } from '../helpers/paths';

/**
 * Corners of the Route library the published vectors do not reach (map() of what is not an
 * array, a target holding an array), each beside the outcome the real library gave under php-cli
 * 8.2 (Bonfire's library; GET unless the expected file names another method), in the vectors' format.
 */
const DIR = path.join(ROOT, 'test', 'fixtures', 'library-differential');

describe('Route library corners, against what the real library did in PHP', () => {
  for (const file of fs.readdirSync(DIR).filter((f) => f.endsWith('.php')).sort()) {
    it(file, () => {
      const ev = evaluateRouteFile(fs.readFileSync(path.join(DIR, file), 'utf8'), { dialect: 'bonfire' });
      // `<name>.expected.json` is GET's outcome; `<name>.<METHOD>.expected.json` another method's.
      const base = file.replace(/\.php$/, '');
      for (const [m, method] of REQUEST_METHODS.entries()) {
        const name = method === 'GET' ? `${base}.expected.json` : `${base}.${method}.expected.json`;
        if (!fs.existsSync(path.join(DIR, name))) continue;
        const expected = JSON.parse(fs.readFileSync(path.join(DIR, name), 'utf8')) as unknown;
        assert.deepEqual(outcomeToJson(ev.methods[m]), expected, `${file} under ${method}`);
      }
    });
  }
});

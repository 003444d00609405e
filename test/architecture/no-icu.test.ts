import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths';

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/**
 * The language server stays off ICU: V8 maps its data into the process on first use (number
 * formatting about 6 MB of RSS, the collator about 3 MB), a cost the server's memory targets
 * cannot carry for a comma or an ordering (shared/util/without-icu.ts does those).
 */
describe('architecture: no ICU in the engine and the server', () => {
  it('calls neither toLocaleString, localeCompare, Intl nor toLocale*Case', () => {
    const found: string[] = [];
    for (const file of [...sources(path.join(ROOT, 'shared')), ...sources(path.join(ROOT, 'server', 'src'))]) {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
        if (/\.toLocale\w*\(|\.localeCompare\(|\bIntl\./.test(code)) found.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(found, []);
  });
});

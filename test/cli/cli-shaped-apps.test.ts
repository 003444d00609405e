import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli } from '../helpers/cli';
import { ROOT } from '../helpers/paths';

/**
 * Applications shaped like real ones (see test/fixtures/shaped-apps/README.md): `check` reports
 * only their true problems, and `eval` gives the table with what it could not know.
 * `UPDATE_FIXTURES=1` rewrites the expected files (review the diff).
 */
const APPS = path.join(ROOT, 'test', 'fixtures', 'shaped-apps');
const update = process.env.UPDATE_FIXTURES === '1';

interface JsonFinding {
  code: string;
  line: number;
  methods: string[];
}

function expect(file: string, actual: string): void {
  if (update || !fs.existsSync(file)) fs.writeFileSync(file, actual);
  assert.equal(actual, fs.readFileSync(file, 'utf8'), `${path.relative(ROOT, file)} (UPDATE_FIXTURES=1 rewrites it)`);
}

describe('applications shaped like real ones: only true problems, and what could not be known', () => {
  for (const app of fs.readdirSync(APPS).filter((f) => fs.statSync(path.join(APPS, f)).isDirectory()).sort()) {
    const dir = path.join(APPS, app);
    const routes = path.join(dir, 'application', 'config', 'routes.php');
    it(`${app}: check`, () => {
      const r = cli(['check', routes, '--json']);
      const json = JSON.parse(r.stdout) as { files: { file: string; findings: JsonFinding[] }[] };
      const lines = json.files.flatMap((f) => f.findings.map((x) => `${path.relative(dir, f.file)}:${x.line} ${x.code} ${x.methods.join(',') || '-'}`));
      expect(path.join(dir, 'expected-check.txt'), `${lines.join('\n')}\n`);
    });
    it(`${app}: eval under GET`, () => {
      const r = cli(['eval', '--method', 'GET', routes, '--json']);
      expect(path.join(dir, 'expected-eval-GET.json'), `${JSON.stringify(JSON.parse(r.stdout), null, 2)}\n`);
    });
  }
});

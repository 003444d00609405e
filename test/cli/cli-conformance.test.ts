import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cli } from '../helpers/cli';
import { REQUEST_METHODS } from '../../shared/runtime/methods';
import { CONFORMANCE } from '../helpers/paths';

const expectedDir = path.join(CONFORMANCE, 'expected');
const urlDir = path.join(CONFORMANCE, 'url');

describe('conformance through the CLI (ci-routes eval --json, ci-routes match --json)', () => {
  for (const name of fs.readdirSync(expectedDir).filter((f) => f.endsWith('.json')).sort()) {
    it(`eval ${name}: every method, both dialects`, () => {
      const vector = JSON.parse(fs.readFileSync(path.join(expectedDir, name), 'utf8'));
      const file = path.join(CONFORMANCE, vector.file);
      for (const dialect of ['spec', 'bonfire']) {
        for (const method of REQUEST_METHODS) {
          const r = cli(['eval', file, '--method', method, '--dialect', dialect, '--json']);
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stdout.trim().split('\n').length, 1, 'exactly one JSON line');
          const expected = (dialect === 'bonfire' ? vector.variants.bonfire?.[method] : undefined) ?? vector.methods[method];
          // PHP's table, then what could not be known of it: nothing, in the vectors.
          const { incomplete, ...table } = JSON.parse(r.stdout) as { incomplete: unknown[] };
          assert.deepEqual(incomplete, [], `${name} ${method} ${dialect}: nothing unknown`);
          assert.deepStrictEqual(table, expected, `${name} ${method} ${dialect}`);
        }
      }
    });
  }

  for (const name of fs.readdirSync(urlDir).filter((f) => f.endsWith('.json')).sort()) {
    it(`match ${name}`, () => {
      const vector = JSON.parse(fs.readFileSync(path.join(urlDir, name), 'utf8'));
      // Lay the case out as an application: config/routes.php beside the recorded controllers.
      const app = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-url-'));
      try {
        fs.mkdirSync(path.join(app, 'config'));
        fs.mkdirSync(path.join(app, 'controllers'));
        fs.copyFileSync(path.join(CONFORMANCE, vector.file), path.join(app, 'config', 'routes.php'));
        for (const c of vector.controllers as string[]) {
          fs.mkdirSync(path.dirname(path.join(app, 'controllers', c)), { recursive: true });
          fs.writeFileSync(path.join(app, 'controllers', c), '<?php\n');
        }
        const uris = (vector.results as { uri: string }[]).map((r) => r.uri);
        const r = cli(['match', path.join(app, 'config', 'routes.php'), '--method', vector.method, '--dialect', 'spec', '--json', ...uris]);
        assert.equal(r.code, 0, r.stderr);
        const out = JSON.parse(r.stdout);
        vector.results.forEach((expected: Record<string, unknown>, i: number) => {
          const actual = out.results[i];
          const picked = Object.fromEntries(Object.keys(expected).map((k) => [k, actual[k]]));
          assert.deepStrictEqual(picked, expected, `${name}: ${String(expected.uri)}`);
        });
      } finally {
        fs.rmSync(app, { recursive: true, force: true });
      }
    });
  }
});

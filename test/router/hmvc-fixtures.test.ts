import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RequestMethod } from '../../shared/runtime/methods';
import type { RouterFlavour } from '../../shared/router/hmvc/flavour';
import { ROOT } from '../helpers/paths';
import { HmvcTestApp, MODEL_FIELDS, differences } from './hmvc-app';

/**
 * Our own HMVC apps (test/fixtures/hmvc/<case>/: an application tree, case.json, and
 * expected.<flavour>.<METHOD>.json with the model's fields), for questions the published vectors
 * leave open. The expectations were derived by reading the routers' PHP, step by step.
 */
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'hmvc');

describe('HMVC routing on our own application fixtures (test/fixtures/hmvc)', () => {
  for (const name of fs.readdirSync(FIXTURES).sort()) {
    const dir = path.join(FIXTURES, name);
    const spec = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8')) as { flavours: RouterFlavour[]; methods: RequestMethod[]; uris: string[] };
    for (const flavour of spec.flavours) {
      for (const method of spec.methods) {
        it(`${name} ${flavour} ${method}`, () => {
          const expected = JSON.parse(fs.readFileSync(path.join(dir, `expected.${flavour}.${method}.json`), 'utf8')) as { results: Record<string, unknown>[] };
          assert.deepStrictEqual(expected.results.map((r) => r.uri), spec.uris);
          for (const perMethod of [false, true]) {
            const app = new HmvcTestApp(dir, flavour, perMethod);
            const diffs = differences(expected.results, (uri) => app.route(uri, method), MODEL_FIELDS);
            if (diffs.length > 0) assert.fail(`${name} ${flavour} ${method}:\n${diffs.join('\n')}`);
          }
        });
      }
    }
  }
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RequestMethod } from '../../shared/runtime/methods';
import type { RouterFlavour } from '../../shared/router/hmvc/flavour';
import { CONFORMANCE } from '../helpers/paths';
import { EXPLAINING_FIELDS, HmvcTestApp, MODEL_FIELDS, differences } from './hmvc-app';

interface CaseFile {
  about: string;
  flavours: RouterFlavour[];
  methods: RequestMethod[];
  uris: string[];
}

const HMVC = path.join(CONFORMANCE, 'hmvc');
const cases = fs.readdirSync(path.join(HMVC, 'cases')).sort();

describe('conformance: HMVC module routing as BF_Router and MX_Router do it (conformance/hmvc)', () => {
  it('has the published cases', () => assert.ok(cases.length >= 10));
  for (const name of cases) {
    const dir = path.join(HMVC, 'cases', name);
    const spec = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8')) as CaseFile;
    for (const flavour of spec.flavours) {
      for (const method of spec.methods) {
        const file = path.join(HMVC, 'expected', `${name}.${flavour}.${method}.json`);
        it(`${name} ${flavour} ${method}`, () => {
          const expected = JSON.parse(fs.readFileSync(file, 'utf8')) as { results: Record<string, unknown>[] };
          assert.deepStrictEqual(expected.results.map((r) => r.uri), spec.uris, 'the vector covers the case\'s URIs in order');
          // Route files evaluated for all methods in one pass, then one method at a time: both must agree.
          for (const perMethod of [false, true]) {
            const app = new HmvcTestApp(dir, flavour, perMethod);
            const diffs = differences(expected.results, (uri) => app.routeAsJson(uri, method), [...MODEL_FIELDS, ...EXPLAINING_FIELDS]);
            if (diffs.length > 0) assert.fail(`${name} ${flavour} ${method}${perMethod ? ' (route files evaluated per method)' : ''}:\n${diffs.join('\n')}`);
          }
        });
      }
    }
  }
});

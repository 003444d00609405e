import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RequestMethod } from '../../shared/library/methods';
import type { RouterFlavour } from '../../shared/router/hmvc/flavour';
import { CONFORMANCE } from '../helpers/paths';
import { HmvcTestApp } from './hmvc-app';

interface CaseFile {
  about: string;
  flavours: RouterFlavour[];
  methods: RequestMethod[];
  uris: string[];
}

/** The fields a route model must reproduce (README of conformance/hmvc), and those that explain a difference. */
export const MODEL_FIELDS = ['main_matched_key', 'module_route', 'module', 'directory', 'class', 'method', 'rsegments', 'controller_file', '404', 'error'];
export const EXPLAINING_FIELDS = [
  'segments', 'default_controller_route', 'main_target_segments', 'stage_404', 'show_404',
  'used_default_controller', 'used_404_override', 'dispatch_404_override', 'router', 'locate_calls', 'module_route_tables',
];

const HMVC = path.join(CONFORMANCE, 'hmvc');
const cases = fs.readdirSync(path.join(HMVC, 'cases')).sort();

/** Each URI's differing fields, as `uri "x": field: expected … got …` lines. */
export function differences(expected: Record<string, unknown>[], route: (uri: string) => object, fields: string[]): string[] {
  const out: string[] = [];
  for (const want of expected) {
    const got = route(String(want.uri)) as Record<string, unknown>;
    for (const field of fields) {
      if (!(field in want)) continue;
      try {
        assert.deepStrictEqual(got[field], want[field]);
      } catch {
        out.push(`uri ${JSON.stringify(want.uri)}: ${field}: expected ${JSON.stringify(want[field])}, got ${JSON.stringify(got[field])}`);
      }
    }
  }
  return out;
}

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

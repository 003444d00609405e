import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS, type RequestMethod } from '../../shared/runtime/methods';
import { FileListTree } from '../../shared/router/app-tree';
import { routeRequest } from '../../shared/router/hmvc/route-request';
import { CONFORMANCE } from '../helpers/paths';

interface UrlVector {
  file: string;
  method: RequestMethod;
  controllers: string[];
  results: { uri: string; matched_key: string | null; target_segments: string[] | null; dispatch: Record<string, unknown> & { default_controller_used: boolean } }[];
}

const vectors = fs.readdirSync(path.join(CONFORMANCE, 'url')).filter((f) => f.endsWith('.json')).sort();

describe("routeRequest with the 'ci' flavour is CodeIgniter 3's own router (conformance/url)", () => {
  for (const name of vectors) {
    const vector = JSON.parse(fs.readFileSync(path.join(CONFORMANCE, 'url', name), 'utf8')) as UrlVector;
    it(name, () => {
      const evaluation = evaluateRouteFile(fs.readFileSync(path.join(CONFORMANCE, vector.file), 'utf8'), { dialect: 'spec' });
      const m = REQUEST_METHODS.indexOf(vector.method);
      const root = new FileListTree(vector.controllers.map((c) => `application/controllers/${c}`), ['application/controllers']);
      for (const expected of vector.results) {
        const r = routeRequest({
          flavour: 'ci',
          root,
          uri: expected.uri,
          method: vector.method,
          routes: evaluation.methods[m].routes,
          callClosure: (closure, args) => evaluation.callClosure(m, closure, args),
        });
        const { default_controller_used, ...dispatch } = expected.dispatch;
        assert.deepStrictEqual(
          { matched_key: r.main_matched_key, target_segments: r.default_controller_route ? null : r.main_target_segments, dispatch: { ...r.router, routes_404_override: undefined }, default_controller_used: r.used_default_controller },
          { matched_key: expected.matched_key, target_segments: expected.target_segments, dispatch: { ...dispatch, routes_404_override: undefined }, default_controller_used },
          `${name}: ${expected.uri}`,
        );
        assert.equal(r.module, null);
        assert.deepStrictEqual(r.locate_calls, []);
      }
    });
  }
});

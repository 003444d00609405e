import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS, type RequestMethod } from '../../shared/runtime/methods';
import { FileListTree } from '../../shared/router/app-tree';
import { routeUri } from '../../shared/router/ci-router';
import { CONFORMANCE } from '../helpers/paths';

interface UrlVector {
  file: string;
  method: RequestMethod;
  controllers: string[];
  results: Record<string, unknown>[];
}

const vectors = fs.readdirSync(path.join(CONFORMANCE, 'url')).filter((f) => f.endsWith('.json')).sort();

describe('conformance: the router model answers as CodeIgniter 3 does (library API)', () => {
  it('has URL vectors to check', () => assert.ok(vectors.length >= 14));
  for (const name of vectors) {
    const vector = JSON.parse(fs.readFileSync(path.join(CONFORMANCE, 'url', name), 'utf8')) as UrlVector;
    it(name, () => {
      const source = fs.readFileSync(path.join(CONFORMANCE, vector.file), 'utf8');
      const evaluation = evaluateRouteFile(source, { dialect: 'spec' });
      const m = REQUEST_METHODS.indexOf(vector.method);
      const routes = evaluation.methods[m].routes;
      assert.ok(routes, 'the file yields a route table');
      const tree = new FileListTree(vector.controllers.map((c) => `controllers/${c}`), ['controllers']);
      for (const expected of vector.results) {
        const actual = routeUri(routes, String(expected.uri), {
          method: vector.method,
          tree,
          callClosure: (closure, args) => evaluation.callClosure(m, closure, args),
        });
        const picked = Object.fromEntries(Object.keys(expected).map((k) => [k, (actual as unknown as Record<string, unknown>)[k]]));
        assert.deepStrictEqual(picked, expected, `${name}: ${String(expected.uri)}`);
      }
    });
  }
});

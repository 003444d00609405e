import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { REQUEST_METHODS } from '../../shared/runtime/methods';
import { outcomeToJson, type OutcomeJson } from '../../shared/evaluate/outcome-json';
import { CONFORMANCE } from '../helpers/paths';

interface Vector {
  file: string;
  library: string;
  methods: Record<string, OutcomeJson>;
  variants: Record<string, Record<string, OutcomeJson>>;
}

const vectors = fs.readdirSync(path.join(CONFORMANCE, 'expected')).filter((f) => f.endsWith('.json')).sort();

describe('conformance: the engine reproduces the real library (library API)', () => {
  it('has vectors to check', () => assert.ok(vectors.length >= 14));
  for (const name of vectors) {
    const vector = JSON.parse(fs.readFileSync(path.join(CONFORMANCE, 'expected', name), 'utf8')) as Vector;
    const source = fs.readFileSync(path.join(CONFORMANCE, vector.file), 'utf8');
    for (const perMethod of [false, true]) {
      const mode = perMethod ? 'each method alone' : 'all methods together';
      it(`${name} (spec, ${mode})`, () => {
        const result = evaluateRouteFile(source, { dialect: 'spec', perMethod });
        for (const method of REQUEST_METHODS) {
          const expected = vector.methods[method];
          const actual = outcomeToJson(result.methods[REQUEST_METHODS.indexOf(method)]);
          assert.deepStrictEqual(actual, expected, `${name} ${method}`);
        }
      });
      it(`${name} (bonfire, ${mode})`, () => {
        const result = evaluateRouteFile(source, { dialect: 'bonfire', perMethod });
        for (const method of REQUEST_METHODS) {
          const expected = vector.variants.bonfire?.[method] ?? vector.methods[method];
          const actual = outcomeToJson(result.methods[REQUEST_METHODS.indexOf(method)]);
          assert.deepStrictEqual(actual, expected, `${name} ${method} (bonfire)`);
        }
      });
    }
  }
});

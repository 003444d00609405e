import * as assert from 'node:assert/strict';
import { ROUTE_METHOD_DOCS } from '../../shared/analysis/features/library-docs';
import { OPTION_DOCS } from '../../shared/analysis/features/completion/option-docs';
import { DECLARING_METHODS, ROUTE_API, STORING_METHODS, optionKeys, optionsArgIndex } from '../../shared/library/route-api';
import { analyzeRouteFile } from '../../shared/analysis/diagnostics/analyze';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';

/** The Route API is written once (shared/library/route-api.ts): what reads it agrees with it. */
describe('the Route API table', () => {
  it('the docs shown in completion and help cover every method, with its parameters in order', () => {
    assert.deepEqual(Object.keys(ROUTE_METHOD_DOCS).sort(), Object.keys(ROUTE_API).sort());
    for (const [name, m] of Object.entries(ROUTE_API)) {
      const documented = ROUTE_METHOD_DOCS[name].params.filter((p) => !p.startsWith('...')).map((p) => p.replace(/^\$/, ''));
      assert.deepEqual(documented, m.params, name);
    }
  });

  it('the library model, the option check and the declaration kinds derive from it', () => {
    assert.deepEqual(optionKeys('resources'), ['controller', 'module', 'constraint', 'offset']);
    assert.equal(optionKeys('named'), undefined);
    assert.equal(optionKeys('constructor'), undefined, 'a name on Object.prototype is no method');
    assert.deepEqual([...STORING_METHODS].sort(), ['any', 'block', 'context', 'delete', 'get', 'head', 'options', 'patch', 'post', 'put', 'resources']);
    assert.deepEqual([...DECLARING_METHODS].filter((m) => !STORING_METHODS.has(m)), ['prefix']);
  });

  it('the options documented are those each method reads', () => {
    for (const [name, m] of Object.entries(ROUTE_API)) assert.deepEqual(Object.keys(OPTION_DOCS[name] ?? {}), [...(m.options?.keys ?? [])], name);
  });

  it('says which argument is the options array, an array as context()\'s controller included', () => {
    const arrays = (...at: number[]) => (i: number) => at.includes(i);
    assert.equal(optionsArgIndex('get', arrays(2)), 2);
    assert.equal(optionsArgIndex('resources', arrays()), 1);
    assert.equal(optionsArgIndex('context', arrays(2)), 2);
    assert.equal(optionsArgIndex('context', arrays(1, 2)), 1);
    assert.equal(optionsArgIndex('prefix', arrays(1)), undefined);
    assert.equal(optionsArgIndex('constructor', arrays(2)), undefined);
  });

  it('has no method named like a property of every object: Route::constructor() is reported undefined, and its options are not checked', () => {
    const text = "<?php\nRoute::constructor('a', 'b', ['x' => 1]);\n";
    const codes = analyzeRouteFile(text, evaluateRouteFile(text, { recover: true })).map((f) => f.code);
    assert.deepEqual(codes, ['undefined-route-method']);
  });
});

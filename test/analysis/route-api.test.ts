import * as assert from 'node:assert/strict';
import { ROUTE_METHOD_DOCS } from '../../shared/analysis/features/library-docs';
import { OPTIONS_BY_METHOD } from '../../shared/analysis/model/route-options';
import { DECLARING_METHODS, ROUTE_API, STORING_METHODS } from '../../shared/library/route-api';
import { LIBRARY_METHODS } from '../../shared/library/route-library';

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
    assert.equal(LIBRARY_METHODS, ROUTE_API);
    assert.deepEqual(OPTIONS_BY_METHOD.resources, ['controller', 'module', 'constraint', 'offset']);
    assert.equal(OPTIONS_BY_METHOD.named, undefined);
    assert.deepEqual([...STORING_METHODS].sort(), ['any', 'block', 'context', 'delete', 'get', 'head', 'options', 'patch', 'post', 'put', 'resources']);
    assert.deepEqual([...DECLARING_METHODS].filter((m) => !STORING_METHODS.has(m)), ['prefix']);
  });
});

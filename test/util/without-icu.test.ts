import * as assert from 'node:assert/strict';
import { compareCodeUnits, compareIgnoringCase, withThousands } from '../../shared/util/without-icu';

describe('counts and orderings without ICU', () => {
  it('writes a count as toLocaleString("en-US") does', () => {
    const values = [0, -0, 1, 12, 999, 1000, 1234, 12345, 123456, 1234567, 1e9, 2 ** 53, 2 ** 60, 1e20, 123456789.0125, -1, -1234, -999.9996, 1.5, 1234.5678, 0.0004, 0.0005, 0.1 + 0.2, 5e-7, -5e-7, NaN, Infinity, -Infinity];
    for (const v of values) assert.equal(withThousands(v), v.toLocaleString('en-US'), String(v));
  });

  it('orders by code units, and for a reader case-insensitively with lower case first', () => {
    assert.deepEqual(['b', 'B', 'a', 'A', '_'].sort(compareCodeUnits), ['A', 'B', '_', 'a', 'b']);
    assert.deepEqual(['cart', 'Blog', 'blog', 'admin', 'Admin'].sort(compareIgnoringCase), ['admin', 'Admin', 'blog', 'Blog', 'cart']);
    const names = ['blog', 'Blog', 'admin', 'users', 'Cart', 'api_v2', 'api'];
    assert.deepEqual([...names].sort(compareIgnoringCase), [...names].sort((a, b) => a.localeCompare(b, 'en')));
  });
});

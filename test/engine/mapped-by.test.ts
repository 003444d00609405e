import * as assert from 'node:assert/strict';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { mappedBy } from '../../shared/library/record-marks';

/**
 * Which map() calls copied each route, derived from when it was added, replaced or reset: the
 * map() calls that ran while it was in the table, as the library's array_merge-like copy does.
 */
describe('routes copied by map() (mappedBy)', () => {
  /** For each GET record in creation order: its key and the lines of the map() calls that copied it. */
  const copies = (lines: string[]) => {
    const text = ['<?php', ...lines, ''].join('\n');
    const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
    const e = evaluateRouteFile(text);
    const get = e.methods[0];
    return get.library.created.map((r) => `${String(r.key)}: ${mappedBy(r, get.library).map((s) => lineOf(e.places.site(s).span.start)).join(',')}`);
  };

  it('counts the map() calls that ran between a route’s declaration and its replacement', () => {
    assert.deepEqual(copies(["Route::get('a', 'x/a');", 'Route::map();', "Route::get('b', 'x/b');", 'Route::map();', "Route::get('a', 'x/a2');", 'Route::map();']), [
      'a: 3,5',
      'b: 5,7',
      'a: 7',
    ]);
  });

  it('stops counting at Route::reset()', () => {
    assert.deepEqual(copies(["Route::get('a', 'x/a');", '$route = Route::map($route);', "Route::get('a', 'x/b');", '$copy = Route::map($route);', 'Route::reset();', "Route::get('a', 'x/c');", '$route = Route::map($route);']), [
      'a: 3',
      'a: 5',
      'a: 8',
    ]);
  });

  it('counts none for routes replaced or reset before the only map()', () => {
    assert.deepEqual(copies(["Route::get('a', 'x/a');", "Route::get('a', 'x/b');", "Route::get('c', 'x/c');", 'Route::reset();', "Route::get('d', 'x/d');", '$route = Route::map($route);']), [
      'a: ',
      'a: ',
      'c: ',
      'd: 7',
    ]);
  });
});

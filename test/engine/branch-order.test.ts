import * as assert from 'node:assert/strict';
import { branchOrderVaries } from '../../shared/library/branch-order';
import { evaluateRouteFile, orderVariesBetween } from '../../shared/evaluate/evaluate-file';

describe('route order across the branches of an undecidable condition', () => {
  const none = () => false;
  it('nothing varies when the branches store different keys, or shared keys in the same order', () => {
    assert.deepEqual(branchOrderVaries(['a', 'b'], ['c', 'd'], none), []);
    assert.deepEqual(branchOrderVaries(['a', 'b'], ['a', 'b', 'c'], none), []);
    assert.deepEqual(branchOrderVaries(['a'], ['a', 'x'], none), []);
  });
  it('a key of the second branch before a shared key, or shared keys swapped, vary', () => {
    assert.deepEqual(new Set(branchOrderVaries(['(:any)'], ['login', '(:any)'], none)), new Set(['login', '(:any)']));
    assert.deepEqual(new Set(branchOrderVaries(['a', 'b'], ['b', 'a'], none)), new Set(['a', 'b']));
  });
  it('keys in the table before the branches keep their place', () => {
    assert.deepEqual(branchOrderVaries(['(:any)'], ['login', '(:any)'], (k) => k === '(:any)'), []);
  });
  it('the evaluation groups them by condition, for library tables and $route alike', () => {
    const ev = evaluateRouteFile(`<?php
if ($_SERVER['HTTP_HOST'] === 'a') { Route::any('(:any)', 'x/$1'); } else { Route::get('login', 'y'); Route::any('(:any)', 'x/$1'); }
if ($_SERVER['HTTP_HOST'] === 'b') { $route['p/(:any)'] = 'x/$1'; } else { $route['p/q'] = 'y'; $route['p/(:any)'] = 'x/$1'; }
$route['late'] = 'z';
$route = Route::map($route);
`);
    assert.ok(orderVariesBetween(ev, 'login', '(:any)'));
    assert.ok(orderVariesBetween(ev, 'p/q', 'p/(:any)'));
    assert.equal(orderVariesBetween(ev, 'late', 'p/(:any)'), undefined);
    assert.equal(orderVariesBetween(ev, 'login', 'p/q'), undefined);
  });
});

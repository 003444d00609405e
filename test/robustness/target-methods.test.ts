import * as assert from 'node:assert/strict';
import { dispatchTarget } from '../../shared/analysis/model/target-dispatch';
import type { AppTree } from '../../shared/router/app-tree';

/** An application with controllers/Pages.php only. */
const TREE: AppTree = {
  isFile: (p) => p === 'controllers/Pages.php',
  isDir: (p) => p === '' || p === 'controllers',
};

describe('which controller methods a varying target can reach', () => {
  it('reads the literal parts in order, case ignored', () => {
    const d = dispatchTarget('pages/view_$1_by_$2', TREE);
    assert.ok(d?.methodVaries);
    assert.equal(d.methodMatches('view_x_by_y'), true);
    assert.equal(d.methodMatches('VIEW_a_b_BY_c'), true);
    assert.equal(d.methodMatches('view__by_'), true, 'a group may capture nothing');
    assert.equal(d.methodMatches('view_by_x'), false, 'the parts may not overlap');
    assert.equal(d.methodMatches('edit_x_by_y'), false);
    assert.equal(d.methodMatches('view_x_by'), false);
    assert.equal(dispatchTarget('pages/$1', TREE)?.methodMatches('anything'), true);
    assert.equal(dispatchTarget('pages/show_$1', TREE)?.methodMatches('show_'), true);
    assert.equal(dispatchTarget('pages/$1_x', TREE)?.methodMatches('x'), false);
  });

  it('answers at once on a target with many gaps against a name that almost matches (a RegExp took seconds)', () => {
    const target = `pages/${Array.from({ length: 13 }, (_, i) => `$${i + 1}`).join('_')}Z`;
    const d = dispatchTarget(target, TREE);
    assert.equal(d?.methodMatches('_'.repeat(40)), false);
    assert.equal(d?.methodMatches(`${'_'.repeat(40)}z`), true);
  });
});

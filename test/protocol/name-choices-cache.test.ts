import * as assert from 'node:assert/strict';
import { NameChoicesCache } from '../../server/src/lsp/name-choices-cache';
import type { WorkspaceIndex } from '../../server/src/lsp/workspace-index';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';

describe('NameChoicesCache', () => {
  /** An index with one workspace name; `bump()` is a route file changing its names. */
  function fakeIndex() {
    let version = 1;
    let builds = 0;
    const index = {
      namesVersion: () => version,
      allNames: () => {
        builds++;
        return new Map([['home', { from: 'home', methods: ['GET'] }]]);
      },
    } as unknown as WorkspaceIndex;
    return { index, bump: () => version++, builds: () => builds };
  }
  const names = (c: { list(): readonly { name: string }[] }) => c.list().map((x) => x.name);

  it('keeps the workspace names and a route file\'s apart: completing in one keeps the other', () => {
    const { index, builds } = fakeIndex();
    const cache = new NameChoicesCache();
    const routeFile = evaluateRouteFile("<?php\nRoute::get('photos', 'photos/index', array('as' => 'photos'));\n");
    const workspace = cache.for(index, undefined);
    const own = cache.for(index, routeFile);
    assert.deepEqual(names(workspace), ['home']);
    assert.deepEqual(names(own), ['home', 'photos']);
    assert.equal(cache.for(index, undefined), workspace);
    assert.equal(cache.for(index, routeFile), own);
    assert.equal(builds(), 2);
  });

  it('builds again when the workspace\'s names change', () => {
    const { index, bump, builds } = fakeIndex();
    const cache = new NameChoicesCache();
    const first = cache.for(index, undefined);
    bump();
    assert.notEqual(cache.for(index, undefined), first);
    assert.equal(builds(), 2);
  });
});

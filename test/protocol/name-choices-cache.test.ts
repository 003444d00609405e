import * as assert from 'node:assert/strict';
import { NameChoicesCache } from '../../server/src/lsp/name-choices-cache';
import type { WorkspaceIndex } from '../../server/src/lsp/workspace-index';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';

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

  it("takes a route file's choices over to its next version while its named routes are the same records", () => {
    const { index, builds } = fakeIndex();
    const cache = new NameChoicesCache();
    const evaluator = new DocumentEvaluator();
    const head = "<?php\nRoute::get('photos', 'photos/index', array('as' => 'photos'));\n";
    const first = cache.for(index, evaluator.update(`${head}Route::get('a', 'pages/a');\n`));
    // An edit below the named route: a new evaluation, the same named record.
    assert.equal(cache.for(index, evaluator.update(`${head}Route::get('b', 'pages/b');\n`)), first);
    assert.equal(builds(), 1);
    // The named route's own statement edited: built again.
    const edited = cache.for(index, evaluator.update("<?php\nRoute::get('photos', 'photos/all', array('as' => 'photos'));\nRoute::get('b', 'pages/b');\n"));
    assert.notEqual(edited, first);
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

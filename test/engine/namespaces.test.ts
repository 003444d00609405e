import * as assert from 'node:assert/strict';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { keyToString } from '../../shared/runtime/values';
import { unknownRoutes } from '../../shared/analysis/model/route-table';

const keys = (text: string) => [...(evaluateRouteFile(text).methods[0].routes?.keys() ?? [])].map(keyToString);

/** Class names as PHP resolves them (outputs observed with php-cli 8.2 and Bonfire's library). */
describe('namespaces and imports: what `Route::` names', () => {
  it('`use Route as R;` and `\\Route::` reach the library', () => {
    assert.deepEqual(keys("<?php\nuse Route as R;\nR::get('a', 'b/c');\n\\Route::get('x', 'y/z');\n$route = R::map($route);\n"), ['a', 'x']);
    assert.deepEqual(keys("<?php\nnamespace App;\nuse Route;\n\\Route::get('x', 'y/z');\nRoute::get('a', 'b/c');\n$route = Route::map($route);\n"), ['x', 'a']);
  });
  it("in a namespace, an unqualified Route is the namespace's: run alone, PHP stops", () => {
    const ev = evaluateRouteFile("<?php\nnamespace App;\nRoute::get('a', 'b/c');\n$route = Route::map($route);\n", { constantsComplete: true });
    assert.deepEqual(ev.methods[0].error && [ev.methods[0].error.class, ev.methods[0].error.message], ['Error', 'Class "App\\Route" not found']);
    assert.deepEqual(evaluateRouteFile("<?php\nFoo::bar();\n", { constantsComplete: true }).methods[0].error?.message, 'Class "Foo" not found');
  });
  it("in an application (an autoloader may define App\\Route), it is unknown, and so is $route: said, never dropped", () => {
    const ev = evaluateRouteFile("<?php\nnamespace App;\nRoute::get('a', 'b/c');\n$route = Route::map($route);\n");
    assert.equal(ev.methods[0].error, null);
    const [u] = unknownRoutes(ev, 0);
    assert.match(u.reason, /^\$route itself: Route::map\(\) is not evaluated \(in namespace App, Route is App\\Route, not the Route library\)/);
  });
});

import * as assert from 'node:assert/strict';
import { isRouteFilePath } from '../../client/src/route-file-path';

describe('route files recognised by their own path', () => {
  it('knows main, module and environment route files, whatever folder is open', () => {
    for (const p of [
      '/w/app/application/config/routes.php',
      'config/routes.php',
      '/w/site/application/modules/blog/config/routes.php',
      '/w/bonfire/modules/users/config/routes.php',
      '/w/app/application/config/production/routes.php',
      'C:\\www\\app\\application\\config\\routes.php',
      'C:\\www\\app\\application\\config\\testing\\routes.php',
    ]) {
      assert.ok(isRouteFilePath(p), p);
    }
  });

  it('leaves other PHP files alone', () => {
    for (const p of ['/w/app/application/config/config.php', '/w/app/application/controllers/routes.php', '/w/app/routes.php', '/w/app/application/config/routes/api.php', '/w/app/application/config/a/b/routes.php', '/w/app/application/config/routes.php.bak', '/w/app/myconfig/routes.php']) {
      assert.ok(!isRouteFilePath(p), p);
    }
  });
});

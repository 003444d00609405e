import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cli } from '../helpers/cli';

describe('ci-routes --php-version, and the version composer.json requires', () => {
  let dir: string;
  let routes: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-php-'));
    routes = path.join(dir, 'application', 'config', 'routes.php');
    fs.mkdirSync(path.dirname(routes), { recursive: true });
    fs.writeFileSync(routes, "<?php\n$route[implode(['blog', 'feed'], '/')] = 'blog/feed';\n");
    fs.writeFileSync(path.join(dir, 'composer.json'), JSON.stringify({ require: { php: '^7.2 || ^8.0' } }));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes the lowest version composer.json allows, and says so where the dialect is', () => {
    const r = cli(['list', routes]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /dialect spec \(default\) {2}php 7\.2 \(composer\.json requires php \^7\.2 \|\| \^8\.0\)/);
    assert.match(r.stdout, /ANY +blog\/feed +blog\/feed/);
    assert.equal(JSON.parse(cli(['list', routes, '--json']).stdout).php_version, '7.2');
  });

  it('--php-version wins, and PHP 8 refuses what PHP 7 took', () => {
    const r = cli(['list', routes, '--php-version', '8.2']);
    assert.match(r.stdout, /php 8\.2 \(given\)/);
    assert.match(r.stdout, /GET: TypeError: implode\(\): Argument #2 \(\$array\) must be of type \?array, string given/);
    const bad = cli(['list', routes, '--php-version', 'latest']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--php-version expects a PHP version such as 7\.4 or 8\.2, got 'latest'/);
  });
});

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { chooseEnvironment, environmentDefaultOf } from '../../shared/app/environment';
import { applicationDirOf, environmentRouteFileOf, isEnvironmentRouteFile } from '../../shared/app/layout';
import { frameworkPathsOf } from '../../shared/app/constants';
import { diskProjectFiles } from '../../server/src/host/disk-project-files';
import { ROOT } from '../helpers/paths';
import { cli } from '../helpers/cli';

describe('environments: index.php, environment route files', () => {
  it("reads index.php's literal default of ENVIRONMENT", () => {
    assert.equal(environmentDefaultOf("<?php\n\tdefine('ENVIRONMENT', isset($_SERVER['CI_ENV']) ? $_SERVER['CI_ENV'] : 'development');\n"), 'development');
    assert.equal(environmentDefaultOf("<?php\ndefine('ENVIRONMENT', $_SERVER['CI_ENV'] ?? 'staging');"), 'staging');
    assert.equal(environmentDefaultOf('<?php\ndefine("ENVIRONMENT", "production");'), 'production');
    // CI_ENV from getenv() or $_ENV, with ?: or a test of its own, and the whole in parentheses.
    assert.equal(environmentDefaultOf("<?php\ndefine('ENVIRONMENT', getenv('CI_ENV') ?: 'production');"), 'production');
    assert.equal(environmentDefaultOf("<?php\ndefine('ENVIRONMENT', getenv('CI_ENV') ? getenv('CI_ENV') : 'testing');"), 'testing');
    assert.equal(environmentDefaultOf("<?php\ndefine('ENVIRONMENT', (isset($_SERVER['CI_ENV']) ? $_SERVER['CI_ENV'] : 'production'));"), 'production');
    assert.equal(environmentDefaultOf("<?php\ndefine('ENVIRONMENT', ! empty($_ENV['CI_ENV']) ? $_ENV['CI_ENV'] : 'staging');"), 'staging');
    assert.equal(environmentDefaultOf("<?php\ndefine('ENVIRONMENT', getenv('APP_ENV') ?: 'production');"), undefined);
    // Commented out, computed, or none: no default read.
    assert.equal(environmentDefaultOf("<?php\n// define('ENVIRONMENT', 'production');\n"), undefined);
    assert.equal(environmentDefaultOf("<?php\ndefine('ENVIRONMENT', getenv('APP_ENV'));\n"), undefined);
    assert.equal(environmentDefaultOf('<?php\necho 1;\n'), undefined);
  });

  it('reads a crafted index.php in linear time', () => {
    const crafted = `<?php\n${"define('ENVIRONMENT', ".repeat(20_000)}${' '.repeat(100_000)}`;
    const t = performance.now();
    assert.equal(environmentDefaultOf(crafted), undefined);
    assert.ok(performance.now() - t < 2_000);
  });

  it('tells an environment route file from a main or module one, and finds its application', () => {
    const app = path.resolve('/srv/site/application');
    assert.equal(isEnvironmentRouteFile(`${app}/config/production/routes.php`), true);
    assert.equal(applicationDirOf(`${app}/config/production/routes.php`), app);
    assert.equal(isEnvironmentRouteFile(`${app}/config/routes.php`), false);
    assert.equal(isEnvironmentRouteFile(`${app}/modules/blog/config/routes.php`), false);
    assert.equal(applicationDirOf(`${app}/modules/blog/config/routes.php`), app);
    assert.equal(environmentRouteFileOf(app, 'production'), `${app}/config/production/routes.php`);
    assert.equal(environmentRouteFileOf(app, '../../etc'), undefined);
    assert.equal(environmentRouteFileOf(app, ''), undefined);
  });

  it("reports a finding of the environment's route file at the main file, with its own place related", () => {
    const r = cli(['check', 'test/fixtures/environments/env-finding/application/config/routes.php', '--define', 'ENVIRONMENT=production', '--route-files-only']);
    assert.match(r.stdout, /^test\/fixtures\/environments\/env-finding\/application\/config\/routes\.php:4:1: error: .*\(in production\/routes\.php line 2, which CodeIgniter's router runs after this file for ENVIRONMENT 'production'\) \[block-array\]$/m);
    assert.match(r.stdout, /^ {2}test\/fixtures\/environments\/env-finding\/application\/config\/production\/routes\.php:2:\d+: Here, in production\/routes\.php line 2$/m);
    const development = cli(['check', 'test/fixtures/environments/env-finding/application/config/routes.php', '--route-files-only']);
    assert.doesNotMatch(development.stdout, /block-array/);
  });

  it("reads permitted_uri_chars from the chosen environment's config.php too", () => {
    const routes = 'test/fixtures/environments/uri-chars/application/config/routes.php';
    const testing = cli(['check', routes, '--define', 'ENVIRONMENT=testing', '--route-files-only']);
    assert.match(testing.stdout, /config\/testing\/config\.php sets permitted_uri_chars to 'a-z 0-9~%\.:_\+\\-', which permits '\+'.*\[uri-chars\]$/m);
    assert.doesNotMatch(testing.stdout, /\[unreachable-route\]$/m);
    // index.php's default environment has no config.php of its own: the main one's default value holds.
    const byDefault = cli(['check', routes, '--route-files-only']);
    assert.match(byDefault.stdout, /'tags\/\(:any\)' is never reached.*\[unreachable-route\]$/m);
    assert.doesNotMatch(byDefault.stdout, /\[uri-chars\]$/m);
  });

  it('judges, where more characters are permitted, the keys whose every URI is of the default characters', () => {
    const r = cli(['check', 'test/fixtures/environments/uri-chars-judged/application/config/routes.php', '--route-files-only']);
    assert.match(r.stdout, /\[uri-chars\]$/m);
    // Only digits: every URI of it is one the automata hold, and '(:any)' takes them first.
    assert.match(r.stdout, /routes\.php:5:8: warning: 'posts\/\(:num\)' is never reached: 'posts\/\(:any\)' \(line 4\) matches its URIs first\. \[unreachable-route\]$/m);
    assert.match(r.stdout, /routes\.php:11:8: warning: 'codes\/new' is never reached/m);
    // 'tags/a+b' reaches it: not judged.
    assert.doesNotMatch(r.stdout, /'tags\/\(:any\)' is never reached/);
  });

  it("routes URIs through the chosen environment's URI filter (ci-routes match)", () => {
    const routes = 'test/fixtures/environments/uri-chars/application/config/routes.php';
    const testing = cli(['match', routes, '--define', 'ENVIRONMENT=testing', 'tags/a+b']);
    assert.match(testing.stdout, /GET \/tags\/a\+b\n {2}main route {3}tags\/\(:any\) .*\n {2}target {7}tags\/plus\/a\+b\n/);
    const byDefault = cli(['match', routes, 'tags/a+b']);
    assert.match(byDefault.stdout, /GET \/tags\/a\+b\n.*show_error\(400\): The URI you submitted has disallowed characters\./);
  });

  it('says a URI is routed unknown where permitted_uri_chars is not a literal, and routes the home page', () => {
    const r = cli(['match', 'test/fixtures/uri-filter/unread/application/config/routes.php', 'tags/ab', '/']);
    assert.match(r.stdout, /GET \/tags\/ab\n {2}unknown {6}whether CodeIgniter's URI filter lets this URI through is not known: config\/config\.php sets permitted_uri_chars otherwise than to a literal\n/);
    assert.match(r.stdout, /GET \/\n {2}main route {3}none: an empty URI goes to the default controller\n {2}routed {7}tags\/index\n {2}controller {3}Tags::index\(\)/);
  });
});

describe('the front controller: FCPATH and the ENVIRONMENT default', () => {
  const app = (name: string) => path.join(ROOT, 'test', 'fixtures', 'environments', name, 'application');

  it("is index.php beside the application folder in CodeIgniter's layout", () => {
    assert.equal(frameworkPathsOf(app('index-default'), diskProjectFiles()).get('FCPATH'), `${path.dirname(app('index-default'))}/`);
  });

  it("is public/index.php when the root's index.php does not define ENVIRONMENT (Bonfire's layout)", () => {
    assert.equal(frameworkPathsOf(app('public-front'), diskProjectFiles()).get('FCPATH'), `${path.join(path.dirname(app('public-front')), 'public')}/`);
    assert.deepEqual(chooseEnvironment(app('public-front'), undefined, diskProjectFiles()), { name: 'staging', source: "public/index.php's default (CI_ENV unset)" });
  });

  it('is not made up when there is none', () => {
    assert.equal(frameworkPathsOf(app('no-index'), diskProjectFiles()).get('FCPATH'), undefined);
  });
});

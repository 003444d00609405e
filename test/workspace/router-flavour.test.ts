import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadRouteFile } from '../../server/src/host/route-file';
import { MAX_ROUTER_FILE_BYTES, chooseRouterFlavour, detectRouterFlavour } from '../../shared/app/router-flavour';
import { diskProjectFiles } from '../../server/src/host/disk-project-files';
import { EXAMPLE_APP } from '../helpers/paths';

/** A project folder with `application/config/routes.php` and the given files (paths from the project). */
function project(files: Record<string, string>): { root: string; app: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-router-'));
  for (const [rel, text] of Object.entries({ 'application/config/routes.php': "<?php\n$route['default_controller'] = 'home';\n", ...files })) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return { root, app: path.join(root, 'application') };
}

describe("router detection from the application's own files", () => {
  const made: string[] = [];
  const detect = (files: Record<string, string>) => {
    const p = project(files);
    made.push(p.root);
    return detectRouterFlavour(p.app, diskProjectFiles());
  };
  after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it("is Bonfire's with bonfire/core/BF_Router.php or bonfire/libraries/Modules.php beside application/", () => {
    const r = detect({ 'bonfire/core/BF_Router.php': '<?php class BF_Router extends CI_Router {}' });
    assert.equal(r.flavour, 'bonfire');
    assert.match(r.source, /^detected from .*bonfire\/core\/BF_Router\.php$/);
    assert.equal(detect({ 'bonfire/libraries/Modules.php': '<?php class Modules {}' }).flavour, 'bonfire');
  });

  it("is Modular Extensions' with third_party/MX/Router.php, MX/Modules.php, or a core/MY_Router.php extending MX_Router", () => {
    assert.equal(detect({ 'application/third_party/MX/Router.php': '<?php class MX_Router extends CI_Router {}' }).flavour, 'mx');
    assert.equal(detect({ 'application/third_party/MX/Modules.php': '<?php class Modules {}' }).flavour, 'mx');
    assert.equal(detect({ 'application/core/MY_Router.php': "<?php require APPPATH.'third_party/MX/Router.php';\nclass MY_Router extends MX_Router {}" }).flavour, 'mx');
  });

  it('prefers Bonfire when both are there (Bonfire once bundled MX)', () => {
    assert.equal(detect({ 'bonfire/core/BF_Router.php': '<?php class BF_Router {}', 'application/third_party/MX/Router.php': '<?php class MX_Router {}' }).flavour, 'bonfire');
  });

  it("is CodeIgniter's own otherwise: no file, a file without the class, or one over the size cap", () => {
    assert.deepStrictEqual(detect({}), { flavour: 'ci', source: 'default: no HMVC router found' });
    assert.equal(detect({ 'application/third_party/MX/Router.php': '<?php // emptied' }).flavour, 'ci');
    assert.equal(detect({ 'application/core/MY_Router.php': '<?php class MY_Router extends CI_Router {}' }).flavour, 'ci');
    assert.equal(detect({ 'bonfire/core/BF_Router.php': `<?php class BF_Router {}${' '.repeat(MAX_ROUTER_FILE_BYTES)}` }).flavour, 'ci');
    assert.equal(detectRouterFlavour(undefined, diskProjectFiles()).flavour, 'ci');
  });

  it('takes the router asked for over what the files say', () => {
    assert.deepStrictEqual(chooseRouterFlavour('bonfire', () => detectRouterFlavour(undefined, diskProjectFiles())), { flavour: 'bonfire', source: 'given' });
    assert.equal(chooseRouterFlavour('auto', () => detectRouterFlavour(undefined, diskProjectFiles())).flavour, 'ci');
  });

  it("gives Bonfire's router Bonfire's Route dialect unless a Route.php or the option says otherwise", () => {
    const p = project({ 'bonfire/core/BF_Router.php': '<?php class BF_Router {}' });
    made.push(p.root);
    const file = path.join(p.app, 'config', 'routes.php');
    assert.deepStrictEqual([loadRouteFile(file).dialect, loadRouteFile(file).dialectSource], ['bonfire', "Bonfire's router"]);
    assert.equal(loadRouteFile(file, { dialect: 'spec' }).dialect, 'spec');
    assert.equal(loadRouteFile(file, { router: 'mx' }).dialect, 'spec');
  });

  it('finds Modular Extensions in the example application', () => {
    assert.equal(detectRouterFlavour(path.join(EXAMPLE_APP, 'application'), diskProjectFiles()).flavour, 'mx');
  });
});

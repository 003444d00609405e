import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths';

const BIN = path.join(ROOT, 'bin', 'ci-routes.js');

describe('security: ci-routes stays inside what it was given and ends quietly', function () {
  this.timeout(60_000);
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-boundaries-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('check does not follow symlinks out of the application folder unless --follow-symlinks', () => {
    const app = path.join(tmp, 'repo', 'application');
    const outside = path.join(tmp, 'runner-disk');
    fs.mkdirSync(path.join(app, 'config'), { recursive: true });
    fs.mkdirSync(path.join(app, 'views', 'inside'), { recursive: true });
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(app, 'config', 'routes.php'), "<?php\nRoute::get('home', 'welcome', array('as' => 'home'));\n");
    fs.writeFileSync(path.join(outside, 'secret.php'), "<?php echo Route::named('outside_folder');\n");
    fs.writeFileSync(path.join(outside, 'single.php'), "<?php echo Route::named('outside_file');\n");
    fs.writeFileSync(path.join(app, 'views', 'inside', 'page.php'), "<?php echo Route::named('inside_file');\n");
    fs.symlinkSync(outside, path.join(app, 'views', 'disk'));
    fs.symlinkSync(path.join(outside, 'single.php'), path.join(app, 'views', 'single.php'));
    // A symlink that stays inside is followed as before.
    fs.symlinkSync(path.join(app, 'views', 'inside'), path.join(app, 'views', 'alias'));
    const check = (...extra: string[]) => {
      const r = spawnSync(process.execPath, [BIN, 'check', path.join(app, 'config', 'routes.php'), '--json', ...extra], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      const messages = (JSON.parse(r.stdout) as { files: { findings: { message: string }[] }[] }).files.flatMap((f) => f.findings.map((x) => x.message)).join('\n');
      return messages;
    };
    const confined = check();
    assert.match(confined, /inside_file/);
    assert.doesNotMatch(confined, /outside_folder|outside_file/);
    const followed = check('--follow-symlinks');
    assert.match(followed, /outside_folder/);
    assert.match(followed, /outside_file/);
  });

  it('check reads no constants, controller or route file through a symlink out of the project unless --follow-symlinks', () => {
    const repo = path.join(tmp, 'repo2');
    const app = path.join(repo, 'application');
    const outside = path.join(tmp, 'runner-home');
    fs.mkdirSync(path.join(app, 'config'), { recursive: true });
    fs.mkdirSync(path.join(app, 'controllers'), { recursive: true });
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'constants.php'), "<?php\ndefine('DEPLOY_TOKEN', 'tok-0123456789');\n");
    fs.writeFileSync(path.join(outside, 'Vault.php'), '<?php\nclass Vault extends CI_Controller {\n  public function index() {}\n}\n');
    fs.symlinkSync(path.join(outside, 'constants.php'), path.join(app, 'config', 'constants.php'));
    fs.symlinkSync(path.join(outside, 'Vault.php'), path.join(app, 'controllers', 'Vault.php'));
    fs.writeFileSync(path.join(app, 'config', 'routes.php'), "<?php\nRoute::get('token', DEPLOY_TOKEN . '/index');\nRoute::get('vault', 'vault/index');\n$route = Route::map($route);\n");
    const check = (...extra: string[]) => spawnSync(process.execPath, [BIN, 'check', path.join(app, 'config', 'routes.php'), ...extra], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const confined = check();
    assert.doesNotMatch(confined.stdout + confined.stderr, /tok-0123456789/);
    assert.match(confined.stdout, /'vault\/index' dispatches to no controller/);
    const followed = check('--follow-symlinks');
    assert.match(followed.stdout, /tok-0123456789/);
    assert.doesNotMatch(followed.stdout, /'vault\/index' dispatches to no controller/);
    // A route file that is itself a symlink out of its project is refused, with the way to read it.
    const linkedApp = path.join(tmp, 'repo3', 'application');
    fs.mkdirSync(path.join(linkedApp, 'config'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'constants.php'), path.join(linkedApp, 'config', 'routes.php'));
    const refused = spawnSync(process.execPath, [BIN, 'check', path.join(linkedApp, 'config', 'routes.php')], { encoding: 'utf8' });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /leads out of its project folder .*--follow-symlinks/);
    assert.doesNotMatch(refused.stdout + refused.stderr, /tok-0123456789/);
  });

  it('--follow-symlinks applies to check, and to list without a route file (whose reads are fenced) only', () => {
    const r = spawnSync(process.execPath, [BIN, 'list', path.join(tmp, 'x.php'), '--follow-symlinks'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--follow-symlinks applies to check, and to list without a route file\n$/);
    for (const command of ['eval', 'match']) {
      const other = spawnSync(process.execPath, [BIN, command, path.join(tmp, 'x.php'), '--follow-symlinks', '--method', 'GET', 'x'], { encoding: 'utf8' });
      assert.equal(other.status, 2, command);
      assert.match(other.stderr, /--follow-symlinks applies to check, and to list without a route file\n$/, command);
    }
  });

  it('exits quietly when the reader closes the pipe (`| head -1`)', async () => {
    const file = path.join(tmp, 'many', 'application', 'config', 'routes.php');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const lines = ['<?php'];
    for (let i = 0; i < 3000; i++) lines.push(`Route::get('page${i}/(:num)/(:any)', 'pages/show/${i}/$1/$2', array('as' => 'page${i}', 'zz' => 1));`);
    lines.push('$route = Route::map($route);');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    // check writes a line per finding (an unknown option on every route): most writes come after the close.
    for (const args of [['check', file, '--route-files-only', '--max-warnings', '0'], ['list', file], ['match', file, '--method', 'GET', ...Array.from({ length: 300 }, (_, i) => `page${i}/1/x`)]]) {
      const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += String(d)));
      // Read the first chunk, then close the pipe as `head -1` does.
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      assert.equal(stderr, '', `ci-routes ${args.slice(0, 4).join(' ')} printed on stderr`);
      assert.equal(code, args[0] === 'check' ? 1 : 0, `ci-routes ${args.slice(0, 4).join(' ')} exit code (its own, not a crash's)`);
    }
  });
});

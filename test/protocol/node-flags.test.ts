import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVER_ENV, SERVER_NODE_FLAGS, serverEnv } from '../../server/src/node-flags';
import { limitHeapGrowth } from '../../server/src/heap-growth';
import { ROOT } from '../helpers/paths';

describe('the Node.js options the server is started with', () => {
  it("are in the README's editor command line, before the script", () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const cmd = /cmd = \{ (.*ci-routes-language-server\.js.*) \}/.exec(readme);
    assert.ok(cmd, 'README.md shows a cmd = { ... } line for the language server');
    const args = [...cmd[1].matchAll(/'([^']*)'/g)].map((m) => m[1]);
    const script = args.findIndex((a) => a.endsWith('ci-routes-language-server.js'));
    for (const flag of SERVER_NODE_FLAGS) {
      const at = args.indexOf(flag);
      assert.ok(at > 0 && at < script, `${flag} between node and the script in: ${cmd[1]}`);
    }
  });

  it('are passed by the VS Code extension when it starts the server', () => {
    const source = fs.readFileSync(path.join(ROOT, 'client', 'src', 'extension.ts'), 'utf8');
    const runs = [...source.matchAll(/(run|debug): \{ module,[^\n]*\n?/g)].map((m) => m[0]);
    assert.equal(runs.length, 2, 'run and debug server options');
    for (const r of runs) assert.match(r, /execArgv: \[\.\.\.SERVER_NODE_FLAGS[^\n]*env: serverEnv\(\)/, r);
  });

  it("add their environment to the launcher's, keeping what it sets", () => {
    assert.equal(SERVER_ENV.MALLOC_ARENA_MAX, '2');
    const glibc = { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '0', MALLOC_TOP_PAD_: '0' };
    assert.deepEqual(serverEnv({ PATH: '/bin' }), { PATH: '/bin', ...glibc });
    assert.deepEqual(serverEnv({ MALLOC_ARENA_MAX: '8' }), { ...glibc, MALLOC_ARENA_MAX: '8' }, "the user's own value wins");
  });

  it("limit the old generation's growth from the server's own start-up, unless the command line sets it", () => {
    assert.equal(limitHeapGrowth(['--max-semi-space-size=4', '--heap-growing-percent=20']), false, "the command line's own value is kept");
    assert.equal(limitHeapGrowth(['--max-semi-space-size=4']), true);
    const main = fs.readFileSync(path.join(ROOT, 'server', 'src', 'main.ts'), 'utf8');
    const limited = main.indexOf('limitHeapGrowth();');
    assert.ok(limited > 0 && limited < main.indexOf('startServer('), 'main.ts limits the growth before the server starts');
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from '../../server/src/cli/main';
import { assertSafeJson, assertTerminalSafe, makeHostileApp, PAYLOAD, type HostileApp } from './hostile-workspace';

/** The CLI in-process, as on a terminal (colours) or not. */
function cli(args: string[], isTTY: boolean): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const noColor = process.env.NO_COLOR;
  delete process.env.NO_COLOR;
  try {
    const code = run(args, { out: (t) => (stdout += t), err: (t) => (stderr += t), isTTY });
    return { code, stdout, stderr };
  } finally {
    if (noColor !== undefined) process.env.NO_COLOR = noColor;
  }
}

describe('security: hostile workspace text reaches no CLI output raw', function () {
  this.timeout(60_000);
  let hostile: HostileApp;
  before(() => {
    hostile = makeHostileApp();
  });
  after(() => fs.rmSync(path.dirname(hostile.root), { recursive: true, force: true }));

  const commands = (h: HostileApp): string[][] => [
    ['list', h.routes],
    ['list', h.routes, '--method', 'GET'],
    ['list', h.routes, '--method', 'POST'],
    ['eval', h.routes, '--method', 'GET'],
    ['eval', h.routes, '--method', 'CLI'],
    ['match', h.routes, '--method', 'GET', `k${PAYLOAD}`, 'a/1/2', `t${PAYLOAD}`, `pp${PAYLOAD}`, 'nothing/here'],
    ['match', h.routes, '--method', 'POST', `k${PAYLOAD}`],
    ['check', h.routes],
    ['check', h.routes, '--route-files-only'],
    ['check', h.routes, '--max-steps', '40'],
    ['list', h.routes, '--max-steps', '40'],
    ['list', h.view],
    ['check', h.view],
  ];

  for (const isTTY of [false, true]) {
    it(`prints text without a raw control or a forged line${isTTY ? ' (terminal, colours)' : ''}`, () => {
      let carried = 0;
      for (const args of commands(hostile)) {
        const r = cli(args, isTTY);
        const where = `ci-routes ${args.slice(0, 1).concat(args.slice(2)).map((a) => JSON.stringify(a)).join(' ')}`;
        assertTerminalSafe(r.stdout, `${where} (stdout)`);
        assertTerminalSafe(r.stderr, `${where} (stderr)`);
        if (`${r.stdout}${r.stderr}`.includes('command:workbench')) carried++;
      }
      assert.ok(carried >= 6, `the payload reached ${carried} outputs`);
    });
  }

  it('prints JSON that parses and carries no raw DEL, C1 or bidirectional character', () => {
    let carried = 0;
    for (const args of commands(hostile)) {
      if (args[0] === 'eval' && args.includes('--json')) continue;
      const r = cli([...args, '--json'], false);
      const where = `ci-routes ${args[0]} --json`;
      assertSafeJson(r.stdout, `${where} (stdout)`);
      assertTerminalSafe(r.stderr, `${where} (stderr)`);
      if (r.stdout.includes('command:workbench')) carried++;
      // What is escaped for the terminal is still the workspace's text once parsed.
      if (args[0] === 'list' && args[1] === hostile.routes) assert.equal(JSON.parse(r.stdout).file, hostile.routes);
    }
    assert.ok(carried >= 5, `the payload reached ${carried} outputs`);
  });
});

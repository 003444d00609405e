import * as assert from 'node:assert/strict';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  InitializeRequest,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageWriter,
  type MessageReader,
  type MessageWriter,
} from 'vscode-languageserver-protocol/node';
import { isRunning, waitUntilGone } from '../helpers/processes';
import { SERVER_BIN } from './fuzz/server-process';
import { processMessageReader } from '../helpers/stream-reader';

/**
 * An editor stand-in: starts the server (over stdio, with its pipes or with the editor's own via
 * 'inherit', or over IPC), tells its pid on fd 3, then waits to be killed.
 */
const PARENT = `
const { spawn, fork } = require('node:child_process');
const [bin, mode] = process.argv.slice(1);
const child = mode === 'ipc'
  ? fork(bin, ['--node-ipc'], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] })
  : spawn(process.execPath, [bin, '--stdio'], { stdio: mode === 'inherit' ? 'inherit' : ['pipe', 'pipe', 'pipe'] });
require('node:fs').writeSync(3, child.pid + '\\n');
setInterval(() => undefined, 60000);
`;

/** Starts the stand-in editor; resolves with it and the server's pid. */
function startParent(mode: 'inherit' | 'pipe' | 'ipc'): Promise<{ parent: ChildProcess; serverPid: number }> {
  const parent = spawn(process.execPath, ['-e', PARENT, SERVER_BIN, mode], { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    parent.stdio[3]!.on('data', (d: Buffer) => {
      out += String(d);
      if (out.includes('\n')) resolve({ parent, serverPid: Number(out.trim()) });
    });
    parent.on('exit', (code) => reject(new Error(`the stand-in editor exited (${code})`)));
  });
}

async function initialize(reader: MessageReader, writer: MessageWriter, processId: number | null): Promise<() => void> {
  const connection = createProtocolConnection(reader, writer);
  connection.onError(() => undefined);
  connection.listen();
  const root = pathToFileURL(os.tmpdir()).toString();
  await connection.sendRequest(InitializeRequest.type, { processId, rootUri: root, workspaceFolders: null, capabilities: {} });
  return () => connection.dispose();
}

/**
 * How long a server may take to notice and leave: a deadline that detects a server that stays, not
 * a speed requirement (on a loaded machine loading alone takes seconds; processId is polled every 3 s).
 */
const GONE_WITHIN_MS = 15_000;

describe('the server exits when its client dies', function () {
  this.timeout(GONE_WITHIN_MS + 15_000);
  const started: ChildProcess[] = [];
  const serverPids: number[] = [];
  afterEach(() => {
    for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    for (const pid of serverPids.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    started.length = 0;
  });

  it('stdio: closing its stdin ends it', async () => {
    const server = spawn(process.execPath, [SERVER_BIN, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    started.push(server);
    const dispose = await initialize(processMessageReader(server.stdout), new StreamMessageWriter(server.stdin), process.pid);
    const exited = new Promise<number | null>((r) => server.on('exit', (code) => r(code)));
    server.stdin.end();
    await waitUntilGone(server.pid!, GONE_WITHIN_MS);
    assert.equal(await exited, 1, 'exit code 1: the client went away without shutdown');
    dispose();
  });

  it('stdio: its editor killed with SIGKILL (the pipes close with it)', async () => {
    const { parent, serverPid } = await startParent('pipe');
    started.push(parent);
    serverPids.push(serverPid);
    assert.ok(isRunning(serverPid));
    parent.kill('SIGKILL');
    await waitUntilGone(serverPid, GONE_WITHIN_MS);
  });

  it("stdio: its editor killed with SIGKILL while the pipes stay open elsewhere (initialize's processId is watched)", async () => {
    // The server writes to and reads from this test's pipes: only the processId tells the editor died.
    const { parent, serverPid } = await startParent('inherit');
    started.push(parent);
    serverPids.push(serverPid);
    const dispose = await initialize(processMessageReader(parent.stdout!), new StreamMessageWriter(parent.stdin!), parent.pid!);
    parent.kill('SIGKILL');
    await waitUntilGone(serverPid, GONE_WITHIN_MS);
    dispose();
  });

  it('IPC: the channel disconnecting ends it', async () => {
    const server = fork(SERVER_BIN, ['--node-ipc'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    started.push(server);
    // The processId given is alive (this test's): only the channel can tell.
    const dispose = await initialize(new IPCMessageReader(server), new IPCMessageWriter(server), process.pid);
    server.disconnect();
    await waitUntilGone(server.pid!, GONE_WITHIN_MS);
    dispose();
  });

  it('IPC: its editor killed with SIGKILL', async () => {
    const { parent, serverPid } = await startParent('ipc');
    started.push(parent);
    serverPids.push(serverPid);
    await new Promise((r) => setTimeout(r, 300)); // let it load
    assert.ok(isRunning(serverPid));
    parent.kill('SIGKILL');
    await waitUntilGone(serverPid, GONE_WITHIN_MS);
  });
});

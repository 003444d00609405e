import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CompletionRequest, DidOpenTextDocumentNotification, HoverRequest, WorkspaceSymbolRequest, type CompletionItem, type Hover, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { DiskTree } from '../../server/src/host/disk-tree';
import { setReadRoots } from '../../server/src/host/read-fence';
import { Application } from '../../shared/app/application';
import { constantsOfApp } from '../../shared/app/constants';
import { diskProjectFiles } from '../../server/src/host/disk-project-files';
import { readRegularFile, UnreadableFile } from '../../server/src/host/safe-read';
import { WorkspaceIndex } from '../../server/src/lsp/workspace-index';
import { normalizeSettings } from '../../shared/workspace/settings';
import { ServerProcess } from './fuzz/server-process';

const CONTROLLER = (name: string) => `<?php\nclass ${name} extends CI_Controller {\n  public function index() {}\n}\n`;

/** mkfifo, where the system has it (a FIFO must never block a read). */
function mkfifo(p: string): boolean {
  return process.platform !== 'win32' && spawnSync('mkfifo', [p]).status === 0;
}

/**
 * A workspace (`ws/`) holding an application full of traps, next to a folder outside it
 * (`outside/`) that symlinks point into:
 * - controllers/loop → controllers (a folder linked to its parent), cycle/a ↔ cycle/b, a dangling
 *   Gone.php, a FIFO Fifo.php, Secret.php → outside/Secret.php;
 * - modules/evil → outside/module (its config/routes.php names the route 'secret');
 * - config/constants.php → itself (ELOOP);
 * - application/up → the workspace root (a loop through the whole tree).
 */
function makeTrapWorkspace(): { base: string; ws: string; app: string; outside: string; hasFifo: boolean } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-host-'));
  const ws = path.join(base, 'ws');
  const app = path.join(ws, 'application');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(app, 'config'), { recursive: true });
  fs.mkdirSync(path.join(app, 'controllers', 'cycle'), { recursive: true });
  fs.mkdirSync(path.join(app, 'modules'), { recursive: true });
  fs.mkdirSync(path.join(outside, 'module', 'config'), { recursive: true });
  fs.mkdirSync(path.join(outside, 'module', 'controllers'), { recursive: true });
  fs.writeFileSync(path.join(app, 'config', 'routes.php'), "<?php\nRoute::get('home', 'welcome/index', array('as' => 'home'));\n$route = Route::map($route);\n");
  fs.writeFileSync(path.join(app, 'controllers', 'Welcome.php'), CONTROLLER('Welcome'));
  fs.writeFileSync(path.join(outside, 'Secret.php'), CONTROLLER('Secret'));
  fs.writeFileSync(path.join(outside, 'module', 'config', 'routes.php'), "<?php\nRoute::get('secret', 'evil/x', array('as' => 'secret'));\n$route = Route::map($route);\n");
  fs.writeFileSync(path.join(outside, 'module', 'controllers', 'Evil.php'), CONTROLLER('Evil'));
  fs.writeFileSync(path.join(outside, 'constants.php'), "<?php\ndefine('LEAKED', 'yes');\n");
  const c = path.join(app, 'controllers');
  fs.symlinkSync(c, path.join(c, 'loop'), 'dir');
  fs.symlinkSync(path.join(c, 'cycle', 'b'), path.join(c, 'cycle', 'a'));
  fs.symlinkSync(path.join(c, 'cycle', 'a'), path.join(c, 'cycle', 'b'));
  fs.symlinkSync(path.join(c, 'Nowhere.php'), path.join(c, 'Gone.php'));
  fs.symlinkSync(path.join(outside, 'Secret.php'), path.join(c, 'Secret.php'));
  fs.symlinkSync(path.join(outside, 'module'), path.join(app, 'modules', 'evil'), 'dir');
  fs.symlinkSync(path.join(app, 'config', 'constants.php'), path.join(app, 'config', 'constants.php'));
  fs.symlinkSync(ws, path.join(app, 'up'), 'dir');
  const hasFifo = mkfifo(path.join(c, 'Fifo.php'));
  return { base, ws, app, outside, hasFifo };
}

describe('host safety: symlink loops, vanishing files, reads outside the workspace', function () {
  this.timeout(30_000);
  let t: ReturnType<typeof makeTrapWorkspace>;
  beforeEach(() => {
    t = makeTrapWorkspace();
    setReadRoots([t.ws]); // as the server does at initialize
  });
  afterEach(() => {
    setReadRoots(undefined);
    fs.rmSync(t.base, { recursive: true, force: true });
  });

  describe('reading one file', () => {
    it('refuses a path that no longer exists with UnreadableFile (ENOENT without the fence)', () => {
      const gone = path.join(t.app, 'controllers', 'Vanished.php');
      fs.writeFileSync(gone, CONTROLLER('Vanished'));
      fs.rmSync(gone);
      assert.throws(() => readRegularFile(gone, 1e6), (e: unknown) => e instanceof UnreadableFile && e.code === 'ENOENT');
      setReadRoots(undefined);
      assert.throws(() => readRegularFile(gone, 1e6), (e: unknown) => e instanceof UnreadableFile && e.code === 'ENOENT');
    });

    it('refuses a symlink loop, a dangling symlink and a folder', () => {
      assert.throws(() => readRegularFile(path.join(t.app, 'config', 'constants.php'), 1e6), UnreadableFile);
      assert.throws(() => readRegularFile(path.join(t.app, 'controllers', 'Gone.php'), 1e6), UnreadableFile);
      assert.throws(() => readRegularFile(path.join(t.app, 'controllers'), 1e6), UnreadableFile);
    });

    it('refuses a FIFO at once instead of blocking', function () {
      if (!t.hasFifo) this.skip();
      assert.throws(() => readRegularFile(path.join(t.app, 'controllers', 'Fifo.php'), 1e6), /not a regular file/);
    });

    it('refuses a symlink leading outside the workspace, reads it when there is no fence (the CLI)', () => {
      const secret = path.join(t.app, 'controllers', 'Secret.php');
      assert.throws(() => readRegularFile(secret, 1e6), (e: unknown) => e instanceof UnreadableFile && e.code === 'EOUTSIDE');
      setReadRoots(undefined);
      assert.match(readRegularFile(secret, 1e6), /class Secret/);
    });

    it('refuses a device reached through a symlink (it would never end)', function () {
      if (!fs.existsSync('/dev/zero')) this.skip();
      const zero = path.join(t.app, 'controllers', 'Zero.php');
      fs.symlinkSync('/dev/zero', zero);
      assert.throws(() => readRegularFile(zero, 1e6), UnreadableFile);
      setReadRoots(undefined);
      assert.throws(() => readRegularFile(zero, 1e6), /not a regular file/);
    });
  });

  describe('walking the application', () => {
    it('lists controllers once through loops, skipping the dangling, the FIFO and what lies outside', () => {
      const listed = new Application(t.app, diskProjectFiles()).controllerListing().controllers().map((c) => c.file);
      assert.deepEqual(listed, ['controllers/Welcome.php']);
    });

    it('answers file questions without leaving the workspace', () => {
      const tree = new DiskTree(t.app);
      assert.equal(tree.isFile('controllers/Welcome.php'), true);
      assert.equal(tree.isFile('controllers/loop/loop/Welcome.php'), true, 'a loop inside the workspace is still inside');
      assert.equal(tree.isFile('controllers/Secret.php'), false);
      assert.equal(tree.isDir('modules/evil'), false);
      assert.equal(tree.isFile('controllers/cycle/a'), false);
      assert.equal(tree.isFile('controllers/Gone.php'), false);
    });

    it('evaluates no constants from a constants.php that is a symlink loop or leads outside', () => {
      // Only the paths CodeIgniter defines, known from the layout (APPPATH): nothing read from the loop.
      assert.deepEqual([...constantsOfApp(t.app, diskProjectFiles()).keys()], ['APPPATH']);
      fs.rmSync(path.join(t.app, 'config', 'constants.php'));
      fs.symlinkSync(path.join(t.outside, 'constants.php'), path.join(t.app, 'config', 'constants.php'));
      assert.equal(constantsOfApp(t.app, diskProjectFiles()).has('LEAKED'), false);
    });
  });

  describe('the workspace index', () => {
    const indexOf = (ws: string) => new WorkspaceIndex(() => [{ path: ws, settings: normalizeSettings({}).settings }]);
    const quiet = { report: () => undefined, isCancelled: () => false };

    it('finishes a scan through symlink loops, each route file once, none from outside', async () => {
      const index = indexOf(t.ws);
      const count = await index.scan(quiet);
      assert.equal(count, 1);
      assert.deepEqual(index.routeFiles(), [path.join(t.app, 'config', 'routes.php')]);
      assert.deepEqual([...index.knownNames()], ['home']);
    });

    it('survives files that vanish between listing and reading', async () => {
      for (let i = 0; i < 120; i++) fs.writeFileSync(path.join(t.app, 'controllers', `C${i}.php`), "<?php\nRoute::named('home');\n");
      const modules = ['a', 'b', 'c'].map((m) => path.join(t.app, 'modules', m, 'config'));
      for (const m of modules) {
        fs.mkdirSync(m, { recursive: true });
        fs.writeFileSync(path.join(m, 'routes.php'), "<?php\nRoute::get('x', 'y/z', array('as' => 'gone'));\n$route = Route::map($route);\n");
      }
      const index = indexOf(t.ws);
      let deleted = false;
      // The first progress report comes after the listing: everything listed disappears then.
      await index.scan({
        isCancelled: () => false,
        report: () => {
          if (deleted) return;
          deleted = true;
          for (const m of modules) fs.rmSync(path.dirname(m), { recursive: true, force: true });
          for (let i = 0; i < 120; i++) fs.rmSync(path.join(t.app, 'controllers', `C${i}.php`), { force: true });
        },
      });
      assert.ok(deleted);
      assert.ok(index.routeFiles().length <= 2, `vanished route files are not indexed: ${index.routeFiles().join(', ')}`);
      assert.ok(index.usageFiles().length < 120);
    });
  });

  describe('the real server over stdio', () => {
    it('indexes the trap workspace, answers hover, and knows nothing from outside it', async () => {
      setReadRoots(undefined); // the server process has its own fence
      const server = new ServerProcess(t.ws);
      try {
        await server.initialize(t.ws);
        await server.whenIndexed(15_000);
        const file = path.join(t.app, 'config', 'routes.php');
        const uri = pathToFileURL(file).toString();
        const text = fs.readFileSync(file, 'utf8');
        await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
        const hover = (await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 8 } })) as Hover | null;
        assert.match((hover?.contents as MarkupContent).value, /home/);
        const target = (await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 22 } })) as Hover | null;
        assert.match((target?.contents as MarkupContent).value, /Welcome/);
        // Completion in a target lists the controllers: the walk meets the loops, the FIFO and the outside link.
        const items = (await server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 1, character: 20 } })) as CompletionItem[] | null;
        assert.deepEqual((items ?? []).map((i) => i.label).filter((l) => /secret|evil|fifo/i.test(String(l))), []);
        assert.ok((items ?? []).some((i) => /welcome/i.test(i.label)), `welcome completed: ${JSON.stringify(items?.map((i) => i.label))}`);
        const secret = await server.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'secret' });
        assert.deepEqual(secret, []);
        assert.ok(server.alive);
        assert.deepEqual(server.loggedErrors, []);
      } finally {
        await server.stop();
      }
    });
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RouteService } from '../../server/src/lsp/route-service';
import { WorkspaceIndex } from '../../server/src/lsp/workspace-index';
import { evaluateRouteFile, type FileEvaluation } from '../../shared/evaluate/evaluate-file';
import { DEFAULT_SETTINGS } from '../../shared/workspace/settings';
import { evaluationSnapshot } from '../helpers/evaluation-snapshot';

/**
 * The workspace index and the open document share one evaluator per route file (RouteService):
 * opening a file the index read evaluates nothing again, closing it lets the index re-read the
 * disk from the document's last state, and neither disturbs an evaluation the other reads.
 */
describe('route file evaluators shared by the index and open documents', () => {
  let root: string;
  let file: string;
  let uri: string;
  const disk = routeFile('users');
  const edited = routeFile('members');

  beforeEach(() => ({ root, file, uri } = makeApp(disk)));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const setUp = () => {
    const { service, index } = serverParts(root);
    return { service, index, indexed: () => index.routeFileInputs().find((i) => i.file === file)?.evaluation };
  };

  it('opens a file the index read without parsing or evaluating it again', () => {
    const { service, index, indexed } = setUp();
    index.updateRouteFile(file);
    const opened = service.analyse(uri, file, disk, 1, DEFAULT_SETTINGS, 'pending');
    assert.equal(opened.timing?.parseMs, 0);
    assert.equal(opened.timing?.evaluateMs, 0);
    assert.equal(opened.evaluation, indexed());
  });

  it('while the file is open, reads the disk for the index without touching the document’s evaluation', () => {
    const { service, index, indexed } = setUp();
    index.updateRouteFile(file);
    const open = service.analyse(uri, file, edited, 1, DEFAULT_SETTINGS, 'pending').evaluation;
    index.updateRouteFile(file);
    assert.notEqual(indexed(), open);
    assertFresh(file, disk, indexed()!);
    assert.equal(service.last(uri)?.evaluation, open);
    assertFresh(file, edited, open);
    // The document's evaluator still holds its text: the same text is not evaluated again.
    const again = service.analyse(uri, file, edited, 2, DEFAULT_SETTINGS, 'pending');
    assert.equal(again.evaluation, open);
  });

  it('after a close, re-reads the disk from the document’s last state, not from scratch', () => {
    const { service, index, indexed } = setUp();
    service.analyse(uri, file, edited, 1, DEFAULT_SETTINGS, 'pending');
    service.close(uri);
    index.updateRouteFile(file);
    const evaluation = indexed()!;
    assertFresh(file, disk, evaluation);
    const { evaluated, replayed, resumed } = evaluation.statements;
    assert.ok(evaluated < evaluation.parsed.statements.length, `${evaluated} statements evaluated again, ${replayed} replayed, ${resumed} resumed past`);
  });

  it('gives two documents on one file (two URIs for one path) evaluations of their own', () => {
    const { service } = setUp();
    const other = uri.replace('file://', 'file://localhost');
    const first = service.analyse(uri, file, disk, 1, DEFAULT_SETTINGS, 'pending').evaluation;
    const second = service.analyse(other, file, edited, 1, DEFAULT_SETTINGS, 'pending').evaluation;
    assertFresh(file, edited, second);
    const firstAgain = service.analyse(uri, file, disk, 2, DEFAULT_SETTINGS, 'pending');
    assert.equal(firstAgain.evaluation, first);
    assertFresh(file, disk, first);
  });

  it('forgets the evaluator of a route file removed from the index, unless a document has it open', () => {
    const { service, index, indexed } = setUp();
    index.updateRouteFile(file);
    index.removeFile(file);
    assert.equal(indexed(), undefined);
    const reopened = service.analyse(uri, file, disk, 1, DEFAULT_SETTINGS, 'pending');
    assert.ok((reopened.timing?.parseMs ?? 0) > 0, 'evaluated anew');
    index.updateRouteFile(file);
    index.removeFile(file);
    const again = service.analyse(uri, file, disk, 2, DEFAULT_SETTINGS, 'pending');
    assert.equal(again.evaluation, reopened.evaluation, 'the open document kept its evaluator');
  });
});

describe('route names recorded from successive evaluations of a document', () => {
  it('reports the names an edit adds or removes, and none when it leaves them alone', () => {
    const index = new WorkspaceIndex(() => []);
    const service = new RouteService();
    const file = path.join(os.tmpdir(), 'ci-routes-no-such-app', 'config', 'routes.php');
    const uri = pathToFileURL(file).toString();
    const version = (n: number, text: string) => index.recordRouteNames(file, text, service.analyse(uri, file, text, n, DEFAULT_SETTINGS, 'pending').evaluation);
    const named = (name: string, path: string) => `<?php\nRoute::get('${path}', 'c/${path}', ['as' => '${name}']);\nRoute::get('x', 'c/x', ['as' => 'x']);\n`;
    assert.deepEqual([...version(1, named('a', 'p'))].sort(), ['a', 'x']);
    assert.deepEqual([...version(2, named('a', 'q'))], [], 'a path edited: the same names');
    assert.deepEqual([...version(3, named('b', 'q'))].sort(), ['a', 'b'], 'a name edited');
    assert.deepEqual([...index.knownNames()].sort(), ['b', 'x']);
    assert.deepEqual([...version(4, named('b', 'q') + "Route::get('y', 'c/y');\n")], [], 'an unnamed route added');
    assert.deepEqual([...version(5, named('b', 'q') + "Route::get('y', 'c/y', ['as' => 'x']);\n")], [], 'a name given twice');
    assert.deepEqual([...index.knownNames()].sort(), ['b', 'x']);
  });

  it("changes the names' version when a named route changes, not when an edit leaves the named routes alone", () => {
    const index = new WorkspaceIndex(() => []);
    const service = new RouteService();
    const file = path.join(os.tmpdir(), 'ci-routes-no-such-app', 'config', 'routes.php');
    const uri = pathToFileURL(file).toString();
    const record = (n: number, text: string) => index.recordRouteNames(file, text, service.analyse(uri, file, text, n, DEFAULT_SETTINGS, 'pending').evaluation);
    const head = "<?php\nRoute::get('p', 'c/p', ['as' => 'a']);\n";
    record(1, head);
    const first = index.namesVersion();
    record(2, `${head}Route::get('y', 'c/y');\n`);
    assert.equal(index.namesVersion(), first, 'an unnamed route added');
    record(3, "<?php\nRoute::get('q', 'c/p', ['as' => 'a']);\nRoute::get('y', 'c/y');\n");
    assert.notEqual(index.namesVersion(), first, "the named route's pattern edited");
    assert.equal(index.allNames().get('a')?.from, 'q');
  });
});

describe('a route file open in an editor, as the workspace index holds it', () => {
  it("keeps the editor's version when the scan or a change on disk reaches the file", async () => {
    const { root, file, uri } = makeApp("<?php\nRoute::get('login', 'users/login', ['as' => 'login']);\n");
    try {
      const { service, index } = serverParts(root);
      // Opened and edited before the first scan reaches it: a line added above the declaration.
      const edited = "<?php\n// added\nRoute::get('login', 'users/login', ['as' => 'login']);\n";
      index.recordRouteNames(file, edited, service.analyse(uri, file, edited, 2, DEFAULT_SETTINGS, 'pending').evaluation);
      const line = () => index.declarationsOf('login').map((d) => d.line);
      assert.deepEqual(line(), [2]);
      await index.scan({ report: () => undefined, isCancelled: () => false });
      assert.deepEqual(line(), [2], 'after the scan');
      index.updateRouteFile(file);
      assert.deepEqual(line(), [2], 'after a change on disk');
      // Closed: the disk's text again.
      service.close(uri);
      index.updateRouteFile(file);
      assert.deepEqual(line(), [1], 'after the close');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('priming the checks of route files no editor has open', () => {
  let root: string;
  let file: string;
  let uri: string;
  const text = routeFile('photos');

  beforeEach(() => ({ root, file, uri } = makeApp(text)));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const indexed = () => {
    const { service, index } = serverParts(root);
    index.updateRouteFile(file);
    const input = index.routeFileInputs().find((i) => i.file === file)!;
    return { service, index, prime: () => service.whileIndexed(file, input.evaluation, service.checkSteps(file, input.text, input.evaluation, new Set())) };
  };
  /** Units of work (the pauses between them) an analysis of the opened file takes. */
  const unitsOfOpening = (service: RouteService) => count(service.analysisSteps(uri, file, text, 1, DEFAULT_SETTINGS, new Set()));

  it('leaves the opening analysis little to do', () => {
    const { service, prime } = indexed();
    const primed = count(prime());
    const opening = unitsOfOpening(service);
    assert.ok(primed > 50, `priming took ${primed} units`);
    assert.ok(opening * 4 < primed, `the opening analysis took ${opening} units after priming's ${primed}`);
  });

  it('stops when the file is evaluated again or opened', () => {
    const first = indexed();
    const steps = first.prime();
    steps.next();
    fs.writeFileSync(file, routeFile('albums'));
    first.index.updateRouteFile(file);
    assert.equal(steps.next().done, true, 'stopped after the file changed on disk');

    const second = indexed();
    const again = second.prime();
    again.next();
    second.service.analyse(uri, file, routeFile('albums'), 1, DEFAULT_SETTINGS, new Set());
    assert.equal(again.next().done, true, 'stopped once the file was opened');
  });
});

/** A temporary application whose config/routes.php holds `text`. */
function makeApp(text: string): { root: string; file: string; uri: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-shared-'));
  const file = path.join(root, 'application', 'config', 'routes.php');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return { root, file, uri: pathToFileURL(file).toString() };
}

/** A route service and a workspace index over one folder, sharing evaluators as the server's do. */
function serverParts(root: string): { service: RouteService; index: WorkspaceIndex } {
  const service = new RouteService();
  return { service, index: new WorkspaceIndex(() => [{ path: root, settings: DEFAULT_SETTINGS }], () => undefined, service) };
}

function count(steps: Generator<unknown, unknown, never>): number {
  let n = 0;
  while (!steps.next().done) n++;
  return n;
}

/** A route file long enough for checkpoints and replay (they start after 32 statements). */
function routeFile(resource: string): string {
  const lines = ['<?php', "Route::get('/', 'home', ['as' => 'home']);"];
  for (let i = 0; i < 60; i++) lines.push(`Route::get('page${i}/(:num)', 'pages/show${i}/$1', ['as' => 'page${i}']);`);
  lines.push(`Route::resources('${resource}');`);
  for (let i = 0; i < 30; i++) lines.push(`Route::post('form${i}', 'forms/save${i}');`);
  lines.push('$route = Route::map($route);', '');
  return lines.join('\n');
}

/** Equal to a fresh evaluation of the text, as the server makes it for this file. */
function assertFresh(file: string, text: string, evaluation: FileEvaluation): void {
  assert.deepEqual(evaluationSnapshot(text, evaluation), evaluationSnapshot(text, evaluateRouteFile(text, { file, maxSteps: DEFAULT_SETTINGS.maxSteps, maxRoutes: DEFAULT_SETTINGS.maxRoutes })));
}

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DERIVED_QUERIES } from '../../shared/analysis/derived-queries';
import { analyzeRouteFile, type AnalyzeOptions } from '../../shared/analysis/diagnostics/analyze';
import { checkState } from '../../shared/analysis/diagnostics/checks/document-state';
import type { RouteFileRouting } from '../../shared/analysis/model/target-scope';
import { DocumentEvaluator, type DocumentOptions } from '../../shared/evaluate/document-evaluator';
import { evaluateRouteFile, type FileEvaluation } from '../../shared/evaluate/evaluate-file';
import type { ControllerCatalog } from '../../shared/workspace/controller-catalog';
import { diskApplications, loadRouteFile, type RouteFileContext } from '../../server/src/host/route-file';
import { CHECKPOINTS_EVERYWHERE } from '../helpers/checkpoints';
import { PROJECTIONS, type Subject } from '../helpers/derived-projections';
import { catalogFor } from '../helpers/fixture-app';
import { EXAMPLE_APP, ROOT } from '../helpers/paths';

/**
 * Warm equals fresh: every derived query (shared/analysis/derived-queries.ts) answers for a
 * document edited version after version through one DocumentEvaluator and analysed after each
 * edit with the shared checks (caches warm, in the document's state and in modules' memos) what it
 * answers for a fresh evaluation of the same text (a new evaluator, a new application and its
 * controllers, new inclusion checkers: caches cold). The documents are edited in turns, so that
 * whatever the shared check objects kept of one document would show in another's answers.
 */

/** How a document is read: its text, how it is evaluated and analysed (anew for the fresh side). */
interface Fixture {
  name: string;
  text: string;
  setup(): { options: DocumentOptions; controllers: ControllerCatalog | undefined; routing: RouteFileRouting | undefined; mainRoutes?: (fresh: boolean) => AnalyzeOptions['mainRoutes'] };
}

/** A route file of an application as an editor evaluates it, read through a new Applications (its facts and controllers read anew). */
function readAppFile(file: string): { ctx: RouteFileContext; options: DocumentOptions } {
  const ctx = loadRouteFile(file, {}, diskApplications());
  const options: DocumentOptions = { dialect: ctx.dialect, constants: ctx.constants, file, includes: ctx.includes, environmentRoutes: ctx.environmentRoutes, recover: true, phpVersion: ctx.php.version, constantsComplete: ctx.constantsComplete };
  return { ctx, options };
}

function appFixture(name: string, file: string, mainFile?: string): Fixture {
  const read = () => readAppFile(file);
  const { ctx } = read();
  // The main routes a module file is read after: one editor evaluation (warm), or a fresh one.
  const main = mainFile ? readAppFile(mainFile) : undefined;
  const warmMain = main && new DocumentEvaluator(main.options).update(main.ctx.text);
  return {
    name,
    text: ctx.text,
    setup() {
      const { ctx: now, options } = read();
      return {
        options,
        controllers: now.app?.controllers(),
        routing: { flavour: now.router, ...(now.module !== undefined ? { module: now.module } : {}) },
        ...(main ? { mainRoutes: (fresh: boolean) => ({ text: main.ctx.text, evaluation: fresh ? evaluateRouteFile(main.ctx.text, main.options) : warmMain! }) } : {}),
      };
    },
  };
}

function diagnosticsFixture(name: string): Fixture {
  const file = path.join(ROOT, 'test', 'fixtures', 'diagnostics', `${name}.php`);
  return { name, text: fs.readFileSync(file, 'utf8'), setup: () => ({ options: {}, controllers: catalogFor(file), routing: undefined }) };
}

const APP_ROUTES = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');
const FIXTURES: Fixture[] = [
  appFixture('the example app', APP_ROUTES),
  appFixture("the example app's blog module", path.join(EXAMPLE_APP, 'application', 'modules', 'blog', 'config', 'routes.php'), APP_ROUTES),
  ...['missing-controller', 'branch-orders', 'dynamic-route', 'unknown-option', 'unreachable-route', 'backreference-out-of-range', 'duplicate-route', 'fatal-at-the-end'].map(diagnosticsFixture),
];

/** Puts `code` before `$route = Route::map(...)`, or at the end of a file without one. */
function beforeMap(text: string, code: string): string {
  const at = text.indexOf('$route = Route::map(');
  return at < 0 ? `${text}\n${code}\n` : `${text.slice(0, at)}${code}\n${text.slice(at)}`;
}

/** The first target from the middle of the file on gets another controller (`'pages/…'` → `'pagesx/…'`). */
function retargetInTheMiddle(text: string): string {
  const lines = text.split('\n');
  const j = lines.findIndex((line, k) => k >= lines.length >> 1 && /'[a-z]+\//.test(line));
  if (j >= 0) lines[j] = lines[j].replace(/'([a-z]+)\//, "'$1x/");
  return lines.join('\n');
}

/** What an editor does to a file, one version after another (`texts` holds the versions so far). */
const EDITS: { name: string; edit: (text: string, texts: readonly string[]) => string }[] = [
  { name: 'retarget the default controller', edit: (t) => t.replace("$route['default_controller'] = '", "$route['default_controller'] = 'start_") },
  {
    name: 'assign a key a later declaration declares too',
    edit: (t) => t.replace('<?php', `<?php\n$route['${/Route::\w+\('([^']*)'/.exec(t)?.[1] ?? 'about'}'] = 'legacy/page';`),
  },
  { name: 'assign a route at the top', edit: (t) => t.replace('<?php', "<?php\n$route['extra'] = 'pages/extra';") },
  { name: 'declare a route at the top', edit: (t) => t.replace('<?php', "<?php\nRoute::get('top/(:num)', 'pages/top/$2', array('as' => 'top', 'colour' => 'red'));") },
  { name: 'duplicate the first declaration', edit: (t) => t.replace(/^(?:Route::|\$route\[).*$/m, (line) => `${line}\n${line}`) },
  { name: 'declare a function and a route using it', edit: (t) => beforeMap(t, "function zone() { return 'zone'; }\nRoute::get(zone() . '/(:any)', 'pages/zone/$1');") },
  { name: 'declare a route whose path is unknown', edit: (t) => beforeMap(t, "Route::get(config_item('base_path'), 'pages/unknown');") },
  { name: 'hide a route behind a catch-all', edit: (t) => beforeMap(t, "Route::any('(:any)', 'pages/any/$1');\nRoute::get('hidden', 'pages/hidden');") },
  { name: 'retarget a route in the middle', edit: retargetInTheMiddle },
  // The same statement edited again and again: the tables below it are stored as they were (RecordTable.store).
  { name: 'retarget it again', edit: (t) => t.replace(/'([a-z]+)x\//, "'$1y/") },
  { name: 'and again', edit: (t) => t.replace(/'([a-z]+)y\//, "'$1x/") },
  { name: 'type a character in the middle', edit: (t) => `${t.slice(0, t.length >> 1)}(${t.slice(t.length >> 1)}` },
  { name: 'undo the typing', edit: (_t, texts) => texts[texts.length - 2] },
  { name: 'add a condition that cannot be decided', edit: (t) => beforeMap(t, "if ($_SERVER['HTTP_HOST'] === 'a.example.com') {\n    Route::get('cond/(:any)', 'pages/cond/$1');\n}\nRoute::get('cond/x', 'pages/condx');") },
  { name: 'stop at an error at the end', edit: (t) => `${t}\nundefined_function();\n` },
  { name: 'edit below the error', edit: (t) => `${t}// after the error\n` },
  { name: 'remove the first declaration', edit: (t) => t.replace(/Route::\w+\([^;]*\);/, '') },
  { name: 'remove the error', edit: (t) => t.replace('undefined_function();', '') },
  { name: 'back to the first version', edit: (_t, texts) => texts[0] },
];

/** Each query's answer for a version, as JSON text. */
function answers(s: Subject): Map<string, string> {
  return new Map(Object.entries(PROJECTIONS).map(([query, project]) => [query, JSON.stringify(project(s))]));
}

interface Step {
  fixture: string;
  edit: string;
  warm: Map<string, string>;
  fresh: Map<string, string>;
  /** The warm answers of the version before (what a cache that missed the edit would answer). */
  stale: Map<string, string> | undefined;
}

/** Edits every fixture in turns, comparing each version's warm answers with fresh ones. */
function run(): { steps: Step[]; documents: FileEvaluation[]; replayed: number; resumed: number } {
  const docs = FIXTURES.map((fixture) => {
    const setup = fixture.setup();
    return { fixture, setup, evaluator: new DocumentEvaluator(setup.options, CHECKPOINTS_EVERYWHERE), texts: [fixture.text], previous: undefined as { warm: FileEvaluation; fresh: FileEvaluation; answers: Map<string, string> } | undefined };
  });
  const steps: Step[] = [];
  let replayed = 0;
  let resumed = 0;
  for (let e = -1; e < EDITS.length; e++) {
    for (const doc of docs) {
      const { fixture, setup, evaluator, texts } = doc;
      if (e >= 0) texts.push(EDITS[e].edit(texts[texts.length - 1], texts));
      const text = texts[texts.length - 1];
      const warmEval = evaluator.update(text);
      replayed += warmEval.statements.replayed;
      resumed += warmEval.statements.resumed;
      const warmOptions: AnalyzeOptions = { controllers: setup.controllers, routing: setup.routing, mainRoutes: setup.mainRoutes?.(false) };
      const warm: Subject = { text, evaluation: warmEval, previous: doc.previous?.warm, again: () => evaluator.update(text), findings: analyzeRouteFile(text, warmEval, warmOptions), controllers: setup.controllers, routing: setup.routing };
      // Fresh: a new evaluator for this text (and one for the version before), a new application, new checkers.
      const cold = fixture.setup();
      const freshEvaluator = new DocumentEvaluator(cold.options, CHECKPOINTS_EVERYWHERE);
      const freshEval = freshEvaluator.update(text);
      const freshPrevious = texts.length > 1 ? new DocumentEvaluator(cold.options).update(texts[texts.length - 2]) : undefined;
      const freshOptions: AnalyzeOptions = { controllers: cold.controllers, routing: cold.routing, mainRoutes: cold.mainRoutes?.(true), coldCheckers: true };
      const fresh: Subject = { text, evaluation: freshEval, previous: freshPrevious, again: () => freshEvaluator.update(text), findings: analyzeRouteFile(text, freshEval, freshOptions), controllers: cold.controllers, routing: cold.routing };
      const warmAnswers = answers(warm);
      steps.push({ fixture: fixture.name, edit: e < 0 ? 'open' : EDITS[e].name, warm: warmAnswers, fresh: answers(fresh), stale: doc.previous?.answers });
      doc.previous = { warm: warmEval, fresh: freshEval, answers: warmAnswers };
    }
  }
  return { steps, documents: docs.map((d) => d.previous!.warm), replayed, resumed };
}

/** The queries whose answers differ between two sets of answers, with the first place they differ. */
function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [query, x] of a) {
    const y = b.get(query)!;
    if (x === y) continue;
    let i = 0;
    while (i < x.length && x[i] === y[i]) i++;
    out.push(`${query}: …${x.slice(Math.max(0, i - 80), i + 120)} ≠ …${y.slice(Math.max(0, i - 80), i + 120)}`);
  }
  return out;
}

/**
 * Queries no edit of a route file changes: what an included file says (these edits leave the
 * included files as they are) and the target scope (the application's, not the document's).
 */
const NOT_CHANGED_BY_EDITS = ['includedLines', 'targetScope'];

describe('warm equals fresh: every derived query, after edits, answers as on a fresh evaluation', function () {
  this.timeout(300_000);
  let result: ReturnType<typeof run>;
  before(() => {
    result = run();
  });

  it('asks every derived query of the list, and only those', () => {
    assert.deepEqual(Object.keys(PROJECTIONS).sort(), DERIVED_QUERIES.map((q) => q.query).sort());
  });

  it('answers each version of each document as a fresh evaluation does', () => {
    const wrong = result.steps.flatMap((s) => differences(s.warm, s.fresh).map((d) => `${s.fixture}, after '${s.edit}': ${d}`));
    assert.deepEqual(wrong, []);
  });

  it('warmed what it compares: statements replayed and resumed, and every part of the documents’ state made', () => {
    assert.ok(result.replayed > 0 && result.resumed > 0, `replayed ${result.replayed}, resumed ${result.resumed}`);
    // Table views are kept for tables Route::map() made (most documents have one).
    assert.deepEqual([...new Set(result.documents.flatMap((e) => e.lineage.partNames()))].sort(), ['checks', 'outlineCalls', 'tableViews']);
    assert.deepEqual(result.documents.filter((e) => !checkState(e).reachability?.previous).length, 0);
    assert.ok(result.documents.some((e) => checkState(e).unknownViews.length > 0));
  });

  it('would see a stale answer: each query answers some edit otherwise than the version before it did (the comparison can fail)', () => {
    const changed = new Set<string>();
    for (const s of result.steps) if (s.stale) for (const d of differences(s.stale, s.fresh)) changed.add(d.slice(0, d.indexOf(': …')));
    const unchanged = Object.keys(PROJECTIONS).filter((q) => !changed.has(q) && !NOT_CHANGED_BY_EDITS.includes(q));
    assert.deepEqual(unchanged, []);
    // And the comparison itself tells a stale set of answers from the right one.
    const later = result.steps.find((s) => s.stale && s.edit === 'retarget a route in the middle')!;
    assert.notDeepEqual(differences(later.stale!, later.fresh), []);
  });
});

import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { planControllers } from '../../bench/gen-controllers';
import { generateWorkspace, SEED, type BenchWorkspace } from '../../bench/generate';
import { generateMix, MIX_NAMES, parseMixes, ENVIRONMENT_FILE, INCLUDED_FILE } from '../../bench/mixes';
import { Random } from '../../bench/random';
import { createPhpParser } from '../../shared/php/parse';
import { evaluateRouteFile, analysisLimits, type EvaluateOptions } from '../../shared/evaluate/evaluate-file';
import { Applications } from '../../shared/app/application';
import { diskProjectFiles } from '../../server/src/host/disk-project-files';

type Node = { kind: string; [k: string]: unknown };

const isRouteCall = (n: Node | undefined): boolean =>
  n?.kind === 'call' && (n.what as Node)?.kind === 'staticlookup' && ((n.what as Node).what as { name?: string })?.name === 'Route';

/** Declarations counted on php-parser's tree: `Route::` call statements (inner ones too) and assignments to `$route[...]` or of a `Route::` call. */
function countDeclarations(text: string): { declarations: number; errors: number } {
  const ast = createPhpParser({ guarded: false }).parseCode(text, 'routes.php') as unknown as Node & { errors: unknown[] };
  let declarations = 0;
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(walk);
    const node = n as Node;
    if (node.kind === 'expressionstatement') {
      const e = node.expression as Node;
      if (isRouteCall(e)) declarations++;
      else if (e.kind === 'assign') {
        const left = e.left as Node;
        if ((left.kind === 'offsetlookup' && (left.what as { name?: string }).name === 'route') || isRouteCall(e.right as Node)) declarations++;
      }
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'loc' && k !== 'leadingComments') walk(v);
  };
  walk(ast.children);
  return { declarations, errors: ast.errors.length };
}

const constants = new Map([['SITE_AREA', 'admin'], ['APPPATH', '/app/application/']]);

function evaluateBoth(text: string, options: EvaluateOptions): void {
  for (const perMethod of [false, true]) {
    const ev = evaluateRouteFile(text, { maxSteps: 50_000_000, maxMilliseconds: Infinity, ...options, perMethod });
    for (const m of ev.methods) assert.equal(m.error, null, `${m.method}${perMethod ? ' (per method)' : ''}: ${m.error?.message}`);
    assert.deepEqual(ev.fatals, []);
    assert.deepEqual(analysisLimits(ev), []);
    assert.ok(ev.methods.every((m) => m.routes !== undefined));
  }
}

const lineAt = (text: string, line: number): string => text.split('\n')[line] ?? '';

describe('bench: route file mixes', function () {
  this.timeout(120_000);
  const controllers = planControllers(new Random(SEED));

  for (const mix of MIX_NAMES) {
    for (const size of [200, 1_000]) {
      describe(`${mix}, ${size} declarations`, () => {
        const plan = generateMix(mix, size, controllers, SEED + size);

        it('declares exactly that many, in files php-parser reads without error', () => {
          assert.equal(plan.declarations, size);
          let total = 0;
          for (const text of [plan.main.text, ...plan.extra.map((f) => f.text)]) {
            const c = countDeclarations(text);
            assert.equal(c.errors, 0);
            total += c.declarations;
          }
          assert.equal(total, size);
          assert.equal(countDeclarations(plan.main.text).declarations, plan.main.declarations);
          for (const f of plan.extra) assert.equal(countDeclarations(f.text).declarations, f.declarations, f.rel);
        });

        if (mix !== 'app') {
          it('evaluates without errors, all methods together and each alone', () => {
            evaluateBoth(plan.main.text, { constants });
          });
        }

        it("has its plan's positions where they claim", () => {
          const text = plan.main.text;
          const e = lineAt(text, plan.main.edit.line);
          assert.match(e.slice(0, plan.main.edit.character), /Route::get\('$/);
          assert.equal(e.charAt(plan.main.edit.character), plan.main.edit.original);
          for (const s of plan.main.editSites) {
            assert.match(lineAt(text, s.line).slice(0, s.character), /Route::get\('$/);
            assert.equal(lineAt(text, s.line).charAt(s.character), s.original);
          }
          const h = lineAt(text, plan.main.hover.line);
          assert.match(h.slice(0, plan.main.hover.character + 7), /^\s*Route::resources\($/);
          assert.ok(text.includes(`'as' => '${plan.main.probeName}'`));
          if (mix === 'one-per-line' || mix === 'app') {
            for (const l of text.split('\n')) assert.ok((l.match(/Route::|\$route\[/g) ?? []).length <= 1, l);
          }
          if (plan.moduleEdit) {
            const f = plan.extra.find((x) => x.rel === plan.moduleEdit!.rel)!;
            const l = lineAt(f.text, plan.moduleEdit.edit.line);
            assert.equal(l.slice(0, plan.moduleEdit.edit.character), `$route['${f.module}/`);
            assert.equal(l.charAt(plan.moduleEdit.edit.character), plan.moduleEdit.edit.original);
          }
        });
      });
    }

    it(`${mix}: the same seed writes the same text, another seed another`, () => {
      const a = generateMix(mix, 300, controllers, 7);
      const b = generateMix(mix, 300, controllers, 7);
      const c = generateMix(mix, 300, controllers, 8);
      const all = (p: typeof a) => [p.main.text, ...p.extra.map((f) => f.text)].join('\n---\n');
      assert.equal(all(a), all(b));
      assert.notEqual(all(a), all(c));
    });
  }

  it('keeps the bonfire file as it was before mixes (the same text for the same seed)', () => {
    const plan = generateMix('bonfire', 1_000, controllers, SEED + 1_000);
    // The hash of the text the generator wrote before mixes existed, for the default seed.
    assert.equal(createHash('sha256').update(plan.main.text).digest('hex'), 'd89725fae5934d07dba0eaaa1f053b940d7aa8844474959d665939ad01157f53');
  });

  // Each mix's only mistakes are its deliberate ones: two made many more by accident.
  it("context-heavy: a context of its own name (past the controllers) has no 'home', whose controller no workspace has", () => {
    const text = generateMix('context-heavy', 10_000, controllers, SEED + 10_000).main.text;
    const own = text.split('\n').filter((l) => /Route::context\('[a-z]+_\d+_\d+', '/.test(l));
    assert.ok(own.length > 100, `${own.length} contexts of their own name`);
    assert.deepEqual(own.filter((l) => l.includes("'home'")), []);
  });

  it('any-heavy: no $route entry covers a library key of its base (map() puts the entries first)', () => {
    const text = generateMix('any-heavy', 10_000, controllers, SEED + 10_000).main.text;
    const entries = [...text.matchAll(/^\$route\['([^']+)'\]/gm)].map((m) => m[1]);
    assert.ok(entries.length > 100);
    // `b/(:num)/(:any)` would take `b/(:num)/edit`'s URIs.
    assert.deepEqual(entries.filter((k) => /^[a-z]+-\d+\/\(:num\)\/\(:any\)$/.test(k)), []);
  });

  it('parses --mix', () => {
    assert.deepEqual(parseMixes('app,bonfire,app'), ['app', 'bonfire']);
    assert.deepEqual(parseMixes('all'), [...MIX_NAMES]);
    assert.throws(() => parseMixes('nope'), /expected mixes/);
  });

  describe('app, written to disk', () => {
    let ws: BenchWorkspace;
    before(() => {
      ws = generateWorkspace([400], SEED, ['app']);
    });
    after(() => ws?.remove());

    it('has module route files, an environment file and an include the application model finds and evaluates', () => {
      const sw = ws.sizes[0];
      const apps = new Applications(diskProjectFiles());
      const app = apps.of(sw.routeFile)!;
      assert.ok(app);
      const files = app.routeFiles();
      assert.equal(files.main, sw.routeFile);
      assert.equal(files.modules.length, 12);
      assert.deepEqual(files.environments.map((e) => e.environment), ['development']);
      assert.equal(app.router().flavour, 'mx');
      assert.ok(sw.moduleEdit && files.modules.some((m) => m.file === sw.moduleEdit!.file));
      for (const { file } of app.routeFilesInRouterOrder()) {
        const setup = apps.setupFor(file);
        const text = fs.readFileSync(file, 'utf8');
        const options: EvaluateOptions = { dialect: setup.dialect, constants: setup.constants, file, includes: setup.includes, environmentRoutes: setup.environmentRoutes, phpVersion: setup.php.version };
        evaluateBoth(text, options);
        if (file === sw.routeFile) {
          const ev = evaluateRouteFile(text, { ...options, maxSteps: 50_000_000 });
          const included = ev.included.map((f) => path.relative(path.join(sw.folder, 'application'), f.path)).sort();
          assert.deepEqual(included, [ENVIRONMENT_FILE, INCLUDED_FILE].sort());
        }
      }
    });
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { controllerLenses, controllerReach, declarationLenses } from '../../shared/analysis/features/code-lens';
import { targetLinks } from '../../shared/analysis/features/document-links';
import { backReferenceHints } from '../../shared/analysis/features/inlay-hints';
import { documentSymbols, workspaceSymbols, type RouteSymbol } from '../../shared/analysis/features/symbols';
import type { Span } from '../../shared/php/ast';
import { evaluateRouteFile, type FileEvaluation } from '../../shared/evaluate/evaluate-file';
import { FileListTree } from '../../shared/router/app-tree';
import { indexPhpFile } from '../../shared/workspace/php-index';
import { loadRouteFile } from '../../server/src/host/route-file';
import { CONFORMANCE, EXAMPLE_APP, ROOT } from '../helpers/paths';
import { seededRandom } from '../helpers/random';

const tree = new FileListTree(['controllers/Pages.php', 'controllers/Home.php', 'modules/blog/controllers/Posts.php']);

function validSpan(text: string, s: Span, what: string): void {
  assert.ok(Number.isInteger(s.start) && Number.isInteger(s.end) && s.start >= 0 && s.start <= s.end && s.end <= text.length, `${what}: ${JSON.stringify(s)}`);
}

function checkSymbols(text: string, symbols: RouteSymbol[], parent?: RouteSymbol): void {
  for (const s of symbols) {
    validSpan(text, s.span, s.name);
    assert.ok(s.selectionSpan.start >= s.span.start && s.selectionSpan.end <= s.span.end, `${s.name}: selection inside`);
    if (parent) assert.ok(s.span.start >= parent.span.start && s.span.end <= parent.span.end, `${s.name} inside ${parent.name}`);
    checkSymbols(text, s.children, s);
  }
}

/** Runs every editor feature on a file and checks their offsets stay inside it. */
function exercise(text: string, evaluation: FileEvaluation): void {
  checkSymbols(text, documentSymbols(text, evaluation));
  for (const l of declarationLenses(text, evaluation)) validSpan(text, l.span, l.title);
  for (const h of backReferenceHints(text, evaluation)) assert.ok(h.offset >= 0 && h.offset <= text.length && h.label.startsWith('← '));
  for (const l of targetLinks(text, evaluation, tree)) {
    validSpan(text, l.span, l.tooltip);
    assert.ok(!text.slice(l.span.start, l.span.end).match(/^['"]|['"]$/), 'the quotes are not in the link');
  }
  for (const w of workspaceSymbols([{ file: 'f', text, evaluation }], 'a')) validSpan(text, w.span, w.name);
}

function phpFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.php')).map((f) => path.join(dir, f));
}

describe('editor features on every fixture', () => {
  const files = [...phpFiles(path.join(ROOT, 'test', 'fixtures', 'diagnostics')), ...phpFiles(path.join(CONFORMANCE, 'cases'))];

  it('finds the fixtures', () => assert.ok(files.length > 20, `${files.length} files`));

  for (const file of files) {
    it(`${path.relative(ROOT, file)}: no throw, spans inside the file`, () => {
      const text = fs.readFileSync(file, 'utf8');
      exercise(text, evaluateRouteFile(text, { maxSteps: 200_000 }));
      exercise(text, evaluateRouteFile(text, { maxSteps: 200_000, perMethod: true }));
    });
  }

  it('truncated and spliced copies of the example routes (syntax errors everywhere)', () => {
    const text = fs.readFileSync(path.join(EXAMPLE_APP, 'application', 'config', 'routes.php'), 'utf8');
    const random = seededRandom(7);
    for (let i = 0; i < 40; i++) {
      const a = Math.floor(random() * text.length);
      const b = Math.min(text.length, a + Math.floor(random() * 80));
      const broken = i % 2 ? text.slice(0, a) : text.slice(0, a) + text.slice(b);
      exercise(broken, evaluateRouteFile(broken, { maxSteps: 200_000 }));
    }
  });
});

describe('editor features on the example app', () => {
  const routesFile = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');
  const ctx = loadRouteFile(routesFile);
  const evaluation = evaluateRouteFile(ctx.text, { constants: ctx.constants });
  const appTree = ctx.tree!;

  it('every controller method with a route shows it; the reach is computed once for all controllers', () => {
    const reach = controllerReach([evaluation], appTree);
    const photos = 'modules/gallery/controllers/Photos.php';
    const text = fs.readFileSync(path.join(EXAMPLE_APP, 'application', photos), 'utf8');
    const lenses = controllerLenses(photos, indexPhpFile(text), [evaluation], appTree, reach);
    assert.ok(lenses.length > 0);
    assert.ok(lenses.some((l) => l.routes.length > 0), lenses.map((l) => `${l.methodName}: ${l.title}`).join('\n'));
    for (const l of lenses) assert.equal(text.slice(l.span.start, l.span.end), l.methodName);
  });

  it('links targets to files that exist', () => {
    const links = targetLinks(ctx.text, evaluation, appTree);
    assert.ok(links.length > 10);
    for (const l of links) assert.ok(appTree.isFile(l.file), l.file);
  });
});

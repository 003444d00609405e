import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths';

/**
 * The layers of the code and the one direction they may import in, read from the sources. Each
 * folder of `shared/` is a layer; a file may import its own layer and those listed before it.
 * `server/` sits above `shared/` (only it knows LSP), `client/` above both (only it knows `vscode`).
 * Analysis has rooms of its own: the regular languages, then the model every feature and check
 * reads, then the features, then the diagnostics last, so that no feature (nor the model) can
 * import a check; the checks import neither features nor anything above them today. A file a
 * sub-layer does not claim falls to `shared/analysis` (matched after them, as the first prefix wins).
 */
const LAYERS = [
  'shared/php',
  'shared/util',
  'shared/runtime',
  'shared/library',
  'shared/evaluate',
  'shared/router',
  'shared/workspace',
  'shared/app',
  'shared/analysis/regular',
  'shared/analysis/model',
  'shared/analysis/features',
  'shared/analysis/diagnostics',
  'shared/analysis',
  'shared/protocol',
  'server/src',
  'client/src',
];


interface Graph {
  files: string[];
  edges: Map<string, Set<string>>;
}

function sources(): Graph {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const f of fs.readdirSync(path.join(ROOT, dir))) {
      const p = `${dir}/${f}`;
      if (fs.statSync(path.join(ROOT, p)).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  for (const dir of ['shared', 'server/src', 'client/src']) walk(dir);
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const m of fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/^(?:import|export)\b[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]));
      const resolved = [`${target}.ts`, `${target}/index.ts`].find((t) => files.includes(t));
      if (resolved) targets.add(resolved);
    }
    edges.set(file, targets);
  }
  return { files, edges };
}

function layerOf(file: string): number {
  return LAYERS.findIndex((l) => file === l || file.startsWith(`${l}/`));
}

/** Strongly connected components of more than one node (Tarjan). */
function cycles(nodes: readonly string[], next: (n: string) => Iterable<string>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) out.push(component.sort());
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return out.map((c) => c.join(' ↔ ')).sort().map((c) => c.split(' ↔ '));
}

describe('architecture: layers import in one direction', () => {
  const graph = sources();

  it('every file belongs to a layer', () => {
    assert.deepEqual(graph.files.filter((f) => layerOf(f) < 0), []);
  });

  it('no file imports a layer above its own', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph.edges) for (const t of targets) if (layerOf(t) > layerOf(file)) upward.push(`${file} → ${t}`);
    assert.deepEqual(upward, []);
  });

  it('no file cycle (a set of files importing itself around)', () => {
    assert.deepEqual(cycles(graph.files, (f) => graph.edges.get(f) ?? []), []);
  });

  it('no folder cycle', () => {
    const folders = [...new Set(graph.files.map((f) => path.posix.dirname(f)))];
    const next = (folder: string) => {
      const out = new Set<string>();
      for (const f of graph.files) if (path.posix.dirname(f) === folder) for (const t of graph.edges.get(f) ?? []) if (path.posix.dirname(t) !== folder) out.add(path.posix.dirname(t));
      return out;
    };
    assert.deepEqual(cycles(folders, next), []);
  });

  it('sees an upward import and a cycle when there is one (the checks can fail)', () => {
    const fake: Graph = { files: ['shared/php/a.ts', 'shared/analysis/b.ts'], edges: new Map([['shared/php/a.ts', new Set(['shared/analysis/b.ts'])], ['shared/analysis/b.ts', new Set(['shared/php/a.ts'])]]) };
    assert.ok(layerOf('shared/analysis/b.ts') > layerOf('shared/php/a.ts'));
    assert.deepEqual(cycles(fake.files, (f) => fake.edges.get(f) ?? []), [['shared/analysis/b.ts', 'shared/php/a.ts']]);
  });
});

/** Source files longer than this are split (one job per file). */
const MAX_LINES = 700;

describe('architecture: small files, and only the front ends know their editors', () => {
  const graph = sources();
  const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

  it(`no source file is over ${MAX_LINES} lines`, () => {
    const long = graph.files.map((f) => `${f}: ${read(f).split('\n').length}`).filter((s) => Number(s.split(': ')[1]) > MAX_LINES);
    assert.deepEqual(long, []);
  });

  it("only the server's scheduler sets timers in server/src/lsp (the server is a loop)", () => {
    const timers = graph.files.filter((f) => f.startsWith('server/src/lsp/') && !f.endsWith('/scheduler.ts') && /\b(?:setTimeout|setImmediate|setInterval)\(/.test(read(f)));
    assert.deepEqual(timers, []);
  });

  it('only server/src imports the language server protocol, only client/src imports vscode', () => {
    const wrong: string[] = [];
    for (const file of graph.files) {
      for (const m of read(file).matchAll(/^(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
        const lsp = /^vscode-languageserver/.test(m[1]);
        const editor = m[1] === 'vscode' || /^vscode-languageclient/.test(m[1]);
        if ((lsp && !file.startsWith('server/src/')) || (editor && !file.startsWith('client/src/'))) wrong.push(`${file} → ${m[1]}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
});


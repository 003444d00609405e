import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths';
import { MANIFEST } from './artifacts';
import { pngSize } from './zip';

/** The lowest Node.js version the project supports (engines.node, `>=X.Y.Z`). */
function minimumNode(): number[] {
  const m = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(MANIFEST.engines.node);
  assert.ok(m, `engines.node is a plain lower bound: ${MANIFEST.engines.node}`);
  return m.slice(1).map(Number);
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/**
 * Does an engines.node range admit `node`? The forms npm packages use: `>=X`, `^X.Y.Z`, `X`,
 * `X.x`, `*`, joined by `||`; a form not read here counts as admitting it.
 */
function admits(range: string, node: number[]): boolean {
  return range.split('||').some((alternative) => {
    const a = alternative.trim();
    const version = (s: string) => s.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : 0));
    let m: RegExpExecArray | null;
    if ((m = /^>=\s*v?([\d.]+)$/.exec(a))) return compare(version(m[1]), node) <= 0;
    if ((m = /^>\s*v?([\d.]+)$/.exec(a))) return compare(version(m[1]), node) < 0;
    if ((m = /^\^\s*v?([\d.]+)$/.exec(a))) return version(m[1])[0] === node[0] && compare(version(m[1]), node) <= 0;
    if ((m = /^(\d+)(\.x)?$/.exec(a))) return Number(m[1]) === node[0];
    return true;
  });
}

describe('the package manifest', () => {
  it('is publishable to npm, the Marketplace and Open VSX', () => {
    assert.equal(MANIFEST.private, undefined, 'not private');
    assert.equal(MANIFEST.name, 'ci-routes');
    assert.match(MANIFEST.version, /^\d+\.\d+\.\d+$/);
    assert.ok(MANIFEST.publisher, 'publisher');
    assert.equal(MANIFEST.license, 'MIT');
    assert.ok(fs.existsSync(path.join(ROOT, 'LICENSE')), 'LICENSE');
    assert.match(MANIFEST.repository?.url ?? '', /^https:\/\//, 'repository.url');
    assert.match(MANIFEST.homepage ?? '', /^https:\/\//, 'homepage');
    assert.match(MANIFEST.bugs?.url ?? '', /^https:\/\//, 'bugs.url');
    assert.ok(MANIFEST.engines?.vscode && MANIFEST.engines?.node, 'engines.vscode and engines.node');
    assert.ok(MANIFEST.categories?.length && MANIFEST.keywords?.length, 'categories and keywords');
    assert.match(MANIFEST.galleryBanner?.color ?? '', /^#[0-9a-fA-F]{6}$/, 'galleryBanner.color');
  });

  it('has a PNG icon of at least 128 px, made by scripts/make-icon.js', () => {
    const { width, height } = pngSize(fs.readFileSync(path.join(ROOT, MANIFEST.icon)));
    assert.ok(width >= 128 && width === height, `${width} × ${height}`);
    assert.ok(fs.existsSync(path.join(ROOT, 'scripts', 'make-icon.js')));
  });

  it('ships the bins with their bundles and needs no dependency at install', () => {
    assert.deepEqual(MANIFEST.dependencies ?? {}, {}, 'everything the bins need is bundled into dist/ (scripts/bundle.js): libraries are devDependencies');
    const files: string[] = MANIFEST.files;
    const listed = (file: string) => files.some((f) => file === f || (f.endsWith('/') && file.startsWith(f)));
    for (const [name, bin] of Object.entries(MANIFEST.bin as Record<string, string>)) {
      assert.ok(listed(bin), `${name}: ${bin} is in files`);
      const bundles = [...fs.readFileSync(path.join(ROOT, bin), 'utf8').matchAll(/require\('\.\.\/(dist\/[^']+)'\)/g)].map((m) => m[1]);
      assert.ok(bundles.length > 0, `${bin} runs a bundle of dist/`);
      for (const bundle of bundles) assert.ok(listed(bundle), `${name}: ${bundle} is in files`);
    }
    for (const doc of ['README.md', 'LICENSE', 'CHANGELOG.md']) assert.ok(listed(doc), `${doc} is in files`);
    assert.ok(!files.some((f) => f.startsWith('out') || f === 'dist/' || f.endsWith('.map')), `only the bins' bundles of dist/: ${files.join(', ')}`);
  });

  it("lets npm ci install every locked package on the lowest Node.js it supports, without an engine warning", () => {
    const node = minimumNode();
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }> };
    const refused = Object.entries(lock.packages)
      .filter(([at, p]) => at !== '' && !p.optional && p.engines && !Array.isArray(p.engines) && p.engines.node && !admits(p.engines.node, node))
      .map(([at, p]) => `${at.replace(/^.*node_modules\//, '')} (node ${(p.engines as { node: string }).node})`);
    assert.deepEqual(refused, [], `packages that refuse Node ${node.join('.')}`);
  });

  it('has a walkthrough whose pages ship in the .vsix and whose commands exist', () => {
    const walkthroughs = MANIFEST.contributes.walkthroughs as { steps: { description: string; media: { markdown?: string; image?: string }; completionEvents?: string[] }[] }[];
    assert.equal(walkthroughs.length, 1);
    const steps = walkthroughs[0].steps;
    assert.ok(steps.length >= 3 && steps.length <= 4, `${steps.length} steps`);
    const letIn = fs
      .readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('!'))
      .map((l) => new RegExp(`^${l.slice(1).trim().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`));
    const commands = new Set((MANIFEST.contributes.commands as { command: string }[]).map((c) => c.command));
    for (const step of steps) {
      const page = step.media.markdown ?? step.media.image;
      assert.ok(page && fs.existsSync(path.join(ROOT, page)), `${page} exists`);
      assert.ok(letIn.some((r) => r.test(page)), `${page} is let in by .vscodeignore`);
      const used = [...step.description.matchAll(/\(command:([\w.]+)/g), ...(step.completionEvents ?? []).join(' ').matchAll(/onCommand:([\w.]+)/g)].map((m) => m[1]);
      for (const command of used.filter((c) => c.startsWith('ciRoutes.'))) assert.ok(commands.has(command), `${command} is a contributed command`);
    }
  });
});

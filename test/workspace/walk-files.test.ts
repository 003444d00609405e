import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { walkFiles } from '../../server/src/host/walk-files';

describe('walkFiles', () => {
  let root: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-walk-'));
    for (const dir of ['a/deep/deeper', 'b', 'node_modules/x']) fs.mkdirSync(path.join(root, dir), { recursive: true });
    for (const file of ['top.php', 'a/one.php', 'a/deep/two.php', 'a/deep/deeper/three.php', 'b/four.php', 'node_modules/x/five.php']) fs.writeFileSync(path.join(root, file), '<?php\n');
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const files = (entries: Iterable<{ kind: string; rel: string }>) => [...entries].filter((e) => e.kind === 'file').map((e) => e.rel).sort();

  it('gives every file with its path relative to the root, and every folder it enters', () => {
    const entries = [...walkFiles(root)];
    assert.deepEqual(files(entries), ['a/deep/deeper/three.php', 'a/deep/two.php', 'a/one.php', 'b/four.php', 'node_modules/x/five.php', 'top.php']);
    assert.deepEqual(entries.filter((e) => e.kind === 'folder').map((e) => e.rel).sort(), ['a', 'a/deep', 'a/deep/deeper', 'b', 'node_modules', 'node_modules/x']);
    for (const e of entries) assert.equal(e.path, path.join(root, ...e.rel.split('/')));
  });

  it('skips folders by name and stops at a depth', () => {
    assert.deepEqual(files(walkFiles(root, { skipFolder: (n) => n === 'node_modules' })), ['a/deep/deeper/three.php', 'a/deep/two.php', 'a/one.php', 'b/four.php', 'top.php']);
    // Depth 1: a/, b/ and node_modules/ are entered, not the folders inside them.
    assert.deepEqual(files(walkFiles(root, { maxDepth: 1 })), ['a/one.php', 'b/four.php', 'top.php']);
  });

  it('enters each real folder once: symlink loops end, and walks sharing `seen` do not repeat each other', () => {
    fs.symlinkSync(root, path.join(root, 'a', 'loop'));
    fs.symlinkSync(path.join(root, 'b'), path.join(root, 'b-again'));
    const all = files(walkFiles(root));
    assert.equal(all.filter((f) => f.endsWith('four.php')).length, 1, all.join(' '));
    assert.equal(all.filter((f) => f.endsWith('top.php')).length, 1, all.join(' '));
    const seen = new Set<string>();
    assert.deepEqual(files(walkFiles(path.join(root, 'b'), { seen })), ['four.php']);
    assert.deepEqual(files(walkFiles(path.join(root, 'b-again'), { seen })), []);
  });

  it('passes over a folder that cannot be read or does not exist', () => {
    assert.deepEqual([...walkFiles(path.join(root, 'missing'))], []);
  });
});

#!/usr/bin/env node
// Packages the VS Code extension (ci-routes.vsix) with @vscode/vsce.
//
// package.json's "files" is the npm package's list (the bins and their bundles), and vsce refuses a
// package.json with "files" beside a .vscodeignore. So the extension is packaged from a staging
// folder: the top-level entries .vscodeignore lets in, and package.json without "files"; there
// .vscodeignore chooses the files, as it would in the checkout.
//   node scripts/package-vsix.js [--out path.vsix]      (npm run package builds first)
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const outAt = process.argv.indexOf('--out');
const out = path.resolve(outAt > 0 ? process.argv[outAt + 1] : path.join(root, 'ci-routes.vsix'));

const ignore = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8');
const letIn = ignore
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l.startsWith('!'))
  .map((l) => l.slice(1).replace(/^\//, ''));
const topLevel = [...new Set(letIn.map((p) => p.split('/')[0]))].filter((p) => p !== 'package.json');

const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-vsix-'));
try {
  for (const entry of topLevel) {
    const from = path.join(root, entry);
    if (!fs.existsSync(from)) throw new Error(`${entry} (let in by .vscodeignore) does not exist: run npm run build first`);
    fs.cpSync(from, path.join(stage, entry), { recursive: true });
  }
  fs.copyFileSync(path.join(root, '.vscodeignore'), path.join(stage, '.vscodeignore'));
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  delete manifest.files;
  fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');

  const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], { cwd: stage, stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = r.status ?? 1;
} catch (e) {
  console.error(`package-vsix: ${e.message}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}

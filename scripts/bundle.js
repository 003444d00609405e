#!/usr/bin/env node
// Bundles the extension's client and the language server into one file each (dist/), so the
// packaged extension needs no node_modules. The CLI and tests run from out/ (tsc output).
'use strict';
const esbuild = require('esbuild');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const common = { bundle: true, platform: 'node', target: 'node18', format: 'cjs', sourcemap: true, minify: false, logLevel: 'warning' };

Promise.all([
  esbuild.build({ ...common, entryPoints: [path.join(root, 'client/src/extension.ts')], outfile: path.join(root, 'dist/extension.js'), external: ['vscode'] }),
  esbuild.build({ ...common, entryPoints: [path.join(root, 'server/src/main.ts')], outfile: path.join(root, 'dist/server.js') }),
]).catch((e) => {
  console.error(e.message);
  process.exit(1);
});

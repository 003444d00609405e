#!/usr/bin/env node
// Bundles each entry point with its dependencies into one file (dist/), so neither the packaged
// extension nor the npm package needs node_modules:
//   dist/extension.js  the VS Code extension's client ('vscode' is the editor's)
//   dist/server.js     the language server (bin/ci-routes-language-server.js, and the extension)
//   dist/cli.js        the command line (bin/ci-routes.js)
// Tests import the tsc output (out/); the bins run these bundles, in a checkout as once installed.
// Written without comments and with ASCII escapes: V8 keeps a script's source for the process's
// life, and one character past ASCII makes it a two-byte string (the server's was 5.9 MB, now
// 2.4 MB). Identifiers are kept, so that stack traces name their functions.
'use strict';
const esbuild = require('esbuild');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const common = { bundle: true, platform: 'node', target: 'node20.19', format: 'cjs', sourcemap: true, minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: false, charset: 'ascii', logLevel: 'warning' };

Promise.all([
  esbuild.build({ ...common, entryPoints: [path.join(root, 'client/src/extension.ts')], outfile: path.join(root, 'dist/extension.js'), external: ['vscode'] }),
  esbuild.build({ ...common, entryPoints: [path.join(root, 'server/src/main.ts')], outfile: path.join(root, 'dist/server.js') }),
  esbuild.build({ ...common, entryPoints: [path.join(root, 'server/src/cli/index.ts')], outfile: path.join(root, 'dist/cli.js') }),
]).catch((e) => {
  console.error(e.message);
  process.exit(1);
});

#!/usr/bin/env node
'use strict';
// The language server, bundled (scripts/bundle.js): the npm package ships dist/, a checkout builds
// it with `npm run build`.
try {
  require.resolve('../dist/server.js');
} catch {
  process.stderr.write('ci-routes-language-server: dist/server.js is missing: run `npm run build` in the checkout first\n');
  process.exit(2);
}
require('../dist/server.js');

#!/usr/bin/env node
'use strict';
// The command line, bundled (scripts/bundle.js): the npm package ships dist/, a checkout builds it
// with `npm run build`.
try {
  require.resolve('../dist/cli.js');
} catch {
  process.stderr.write('ci-routes: dist/cli.js is missing: run `npm run build` in the checkout first\n');
  process.exit(2);
}
require('../dist/cli.js');

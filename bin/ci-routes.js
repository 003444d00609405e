#!/usr/bin/env node
'use strict';
require('../out/server/src/cli/index.js');

#!/usr/bin/env node
'use strict';
require('../out/server/src/main.js');

#!/usr/bin/env node
'use strict';
require('./load-cli.js').loadCli().cli.main(process.argv.slice(2));

#!/usr/bin/env node
'use strict';
/** `kubetape replay` for the benchmark, through the library API of the built package: `node replay-server.js DB`. Prints `listening PORT`. */
const { replay } = require('../dist/replay');
const runServer = require('./child-server');

runServer(async () => {
  const server = await replay({ db: process.argv[2], listen: '127.0.0.1:0', logger: runServer.benchLogger(), speed: 0 });
  return { port: new URL(server.url).port, close: () => server.close() };
});

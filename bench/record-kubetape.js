#!/usr/bin/env node
'use strict';
/** `kubetape record` for the benchmark, through the library API of the built package: `node record-kubetape.js UPSTREAM DB [worker|inline]`. */
const { record } = require('../dist/record');
const runServer = require('./child-server');

runServer(async () => {
  const server = await record({ upstream: process.argv[2], db: process.argv[3], listen: '127.0.0.1:0', logger: runServer.benchLogger(), writer: process.argv[4] ?? 'worker' });
  return { port: new URL(server.url).port, close: () => server.close() };
});

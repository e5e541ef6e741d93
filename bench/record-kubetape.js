#!/usr/bin/env node
'use strict';
/** `kubetape record` for the benchmark, through the library API of the built package: `node record-kubetape.js UPSTREAM DB [worker|inline]`. */
const { record } = require('../dist/proxy');

(async () => {
  const server = await record({ upstream: process.argv[2], db: process.argv[3], listen: '127.0.0.1:0', writer: process.argv[4] ?? 'worker' });
  process.stdout.write(`listening ${new URL(server.url).port}\n`);
  const stop = () => server.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
})().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});

#!/usr/bin/env node
'use strict';
/** `kubetape replay` for the benchmark, through the library API of the built package: `node replay-server.js DB`. Prints `listening PORT`. */
const { replay } = require('../dist/replay');

(async () => {
  const server = await replay({ db: process.argv[2], listen: '127.0.0.1:0', speed: 0 });
  process.stdout.write(`listening ${new URL(server.url).port}\n`);
  const stop = () => server.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
})().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});

#!/usr/bin/env node
'use strict';
/**
 * talkback 4.2 replaying tapes, for the benchmark: `node replay-talkback.js TALKBACK_MODULE TAPES_DIR PORT`.
 * talkback is not a dependency of kubetape: bench/replay.js installs it into a temp directory.
 * Prints `listening PORT`.
 */
const [talkbackModule, tapes, port] = process.argv.slice(2);
const talkback = require(talkbackModule);
const runServer = require('./child-server');

runServer(async () => {
  const server = talkback({
    host: 'http://127.0.0.1:9', // never asked: record DISABLED, fallback NOT_FOUND
    path: tapes,
    port: Number(port),
    record: talkback.Options.RecordMode.DISABLED,
    fallbackMode: talkback.Options.FallbackMode.NOT_FOUND,
    silent: true,
    summary: false,
  });
  await server.start();
  return { port, close: () => server.close() };
});

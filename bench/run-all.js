#!/usr/bin/env node
/**
 * Runs every benchmark in turn (each prints its own table and the command that produced it):
 *
 *   npm run build && npm run bench
 *
 * Run them on a quiet machine: each compares kubetape with a baseline measured in the same run,
 * but absolute figures move with load.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

let failed = 0;
for (const name of ['record-writer.js', 'record.js', 'replay.js', 'serve.js', 'serve-writes.js']) {
  console.log(`\n=== bench/${name}`);
  const run = spawnSync(process.execPath, [join(__dirname, name), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);

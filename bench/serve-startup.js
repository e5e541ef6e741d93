#!/usr/bin/env node
/**
 * How soon an empty `kubetape serve` (no --db) answers /readyz: spawns
 * `node bin/kubetape.js serve --listen 127.0.0.1:0`, reads the URL from its first line, polls
 * /readyz until it answers `ok`; the time is from the spawn. Median of 5 runs (issue 15 target:
 * ≤ 300 ms; a real kube-apiserver v1.26 with etcd from empty data: ~3.1 s).
 *
 *   npm run build && node bench/serve-startup.js [runs]
 *
 * Exits 1 when the median misses the target.
 */
'use strict';
const { spawn } = require('node:child_process');
const http = require('node:http');
const { join } = require('node:path');

const TARGET_MS = 300;
const bin = join(__dirname, '..', 'bin', 'kubetape.js');

function readyz(url) {
  return new Promise((resolve) => {
    const req = http.get(`${url}/readyz`, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve(res.statusCode === 200 && body === 'ok'));
    });
    req.on('error', () => resolve(false));
  });
}

function once() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, 'serve', '--listen', '127.0.0.1:0', '--log-level', 'silent'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.once('exit', (code) => reject(new Error(`kubetape serve exited ${code}`)));
    child.stdout.on('data', async (chunk) => {
      if (out.includes('\n')) return;
      out += chunk;
      if (!out.includes('\n')) return;
      const url = /(http:\/\/\S+)/.exec(out.split('\n')[0])[1];
      while (!(await readyz(url))) await new Promise((r) => setTimeout(r, 2));
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      child.removeAllListeners('exit');
      child.once('exit', () => resolve(ms));
      child.kill('SIGTERM');
    });
  });
}

async function main() {
  const runs = Number(process.argv[2] ?? 5);
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  const sorted = times.slice().sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`empty serve to /readyz ok: median ${median.toFixed(0)} ms of ${runs} (runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms); target ≤ ${TARGET_MS} ms`);
  if (median > TARGET_MS) process.exit(1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

#!/usr/bin/env node
'use strict';
/**
 * The crash window of `kubetape record` (issue 19): how much of a busy watch `kill -9` loses, and
 * what the commit interval costs in throughput. Against the built package (`npm run build` first).
 *
 *   node bench/crash-window.js [--commit-ms 20,50,200] [--rounds 3] [--seconds 1.5] [--size 1024]
 *
 * For each commit interval (KUBETAPE_COMMIT_MS, read by the writer), in rounds: the CLI recorder
 * proxies one firehose watch of ~SIZE-byte events from bench/record-upstream.js to a client that
 * counts them; after SECONDS it is killed with SIGKILL, the client reads what was still in the
 * sockets, and the file is opened (WAL recovered) to count the events in it. Loss = events the
 * client received that the file lacks; the window = loss / the stream's rate. The -wal file's
 * largest size is sampled every 20 ms. Then, once per interval, the same stream is stopped by the
 * client instead, and the -wal file's size is read 2 s later (the recorder idle), before the kill.
 * Prints one row per interval: events/s, loss window (min / median / max ms), events lost,
 * largest WAL, WAL 2 s after the stream.
 */
const { spawn } = require('node:child_process');
const { statSync } = require('node:fs');
const http = require('node:http');
const { join } = require('node:path');
const { opt, start, stop, stopAll, freshDb, track } = require('./harness');
const { openRecording } = require('../dist/recording/open');

const COMMIT_MS = opt('commit-ms', '20,50,200').split(',').map(Number);
const ROUNDS = Number(opt('rounds', 3));
const SECONDS = Number(opt('seconds', 1.5));
const SIZE = Number(opt('size', 1024));
const BIN = join(__dirname, '..', 'bin', 'kubetape.js');

function walBytes(db) {
  try {
    return statSync(`${db}-wal`).size;
  } catch {
    return 0;
  }
}

function recorder(upstream, db, commitMs) {
  return new Promise((resolve, reject) => {
    const child = track(spawn(process.execPath, [BIN, 'record', '--upstream', upstream, '--db', db, '--listen', '127.0.0.1:0', '--log-level', 'error'], {
      stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KUBETAPE_COMMIT_MS: String(commitMs) },
    }));
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`record exited ${code}`)));
  });
}

async function round(upstream, commitMs, i) {
  const db = freshDb(`crash-window-${commitMs}-${i}.db`);
  const rec = await recorder(upstream, db, commitMs);
  let received = 0;
  let first = 0;
  let ended;
  const closed = new Promise((resolve) => (ended = resolve));
  const req = http.get(`${rec.url}/api/v1/namespaces/fh/configmaps?watch=1&events=50000000&size=${SIZE}`, (res) => {
    res.on('data', (chunk) => {
      first ||= performance.now();
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) received++;
    });
    res.on('error', () => undefined);
    res.on('close', ended);
  });
  req.on('error', ended);
  let wal = 0;
  const sampler = setInterval(() => (wal = Math.max(wal, walBytes(db))), 20);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const killedAt = performance.now();
  const atKill = received;
  await stop(rec.child, 'SIGKILL');
  clearInterval(sampler);
  wal = Math.max(wal, walBytes(db));
  await closed; // what was in the sockets' buffers when it died
  req.destroy();
  const d = openRecording(db);
  const stored = d.prepare("SELECT count(*) AS n FROM observations o JOIN exchanges e ON e.id = o.exchange_id WHERE e.verb = 'watch'").get().n;
  d.close();
  const rate = atKill / ((killedAt - first) / 1000);
  const lost = Math.max(0, received - stored);
  return { rate, lost, windowMs: (lost / rate) * 1000, wal };
}

/** The stream for SECONDS, then the client hangs up; the -wal file's size after 2 s of quiet. */
async function settledWal(upstream, commitMs) {
  const db = freshDb(`crash-window-${commitMs}-settle.db`);
  const rec = await recorder(upstream, db, commitMs);
  const req = http.get(`${rec.url}/api/v1/namespaces/fh/configmaps?watch=1&events=50000000&size=${SIZE}`, (res) => {
    res.on('data', () => undefined);
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  req.destroy();
  await new Promise((r) => setTimeout(r, 2000));
  const wal = walBytes(db);
  await stop(rec.child, 'SIGKILL');
  return wal;
}

(async () => {
  const up = await start(process.execPath, [join(__dirname, 'record-upstream.js')]);
  const upstream = `http://127.0.0.1:${up.port}`;
  const rows = [];
  try {
    const results = new Map(COMMIT_MS.map((ms) => [ms, []]));
    for (let i = 0; i < ROUNDS; i++) for (const ms of COMMIT_MS) results.get(ms).push(await round(upstream, ms, i));
    const settled = new Map();
    for (const ms of COMMIT_MS) settled.set(ms, await settledWal(upstream, ms));
    for (const [ms, rs] of results) {
      const w = rs.map((r) => r.windowMs).sort((a, b) => a - b);
      rows.push({
        'commit ms': ms,
        'events/s': Math.round(Math.max(...rs.map((r) => r.rate))),
        'loss window ms (min/median/max)': `${w[0].toFixed(0)} / ${w[Math.floor(w.length / 2)].toFixed(0)} / ${w.at(-1).toFixed(0)}`,
        'events lost (max)': Math.max(...rs.map((r) => r.lost)),
        'largest WAL MB': (Math.max(...rs.map((r) => r.wal)) / 2 ** 20).toFixed(1),
        'WAL 2 s after MB': (settled.get(ms) / 2 ** 20).toFixed(1),
      });
    }
    console.table(rows);
  } finally {
    await stop(up.child);
    await stopAll();
  }
})().catch((err) => {
  console.error(err);
  process.exit(1);
});

#!/usr/bin/env node
'use strict';
/**
 * The recording writer alone, on this thread, as the worker runs it (WriterHost: batches, commits,
 * the checkpointer thread): how long it takes per watch event and per small GET exchange. Steadier
 * than the proxy benchmarks on a shared machine (no sockets, no other processes), so it is the one
 * to compare writer changes with. `npm run build` first.
 *
 *   node bench/record-writer.js [--events 100000] [--gets 50000] [--rounds 3]
 *
 * Watch events arrive as the proxy sends them: 64 KiB reads of whole events, 16 reads per batch.
 * Objects: a ~1 KiB ConfigMap (JSON and protobuf, as bench/record.js streams) and a ~3 KiB Pod
 * (JSON, with managedFields, spec and status as an apiserver sends it). Prints µs per event or
 * exchange, best of the rounds, and the process CPU per event (the checkpointer included).
 */
const { opt, freshDb } = require('./harness');
const { configMap, pod, events } = require('./watch-events');
const { WriterHost } = require('../dist/recording/writer/writer-host');
const { prepareRecording } = require('../dist/recording/writer/prepare-recording');

const EVENTS = Number(opt('events', 100000));
const GETS = Number(opt('gets', 50000));
const ROUNDS = Number(opt('rounds', 3));
const READ_BYTES = 65536;
const READS_PER_BATCH = 16;

function freshRecording() {
  const db = freshDb('bench-writer.db');
  prepareRecording(db, {});
  return db;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Runs `batches` through a fresh writer; resolves { wallUs, cpuUs } per unit. */
async function drive(batches, units) {
  const host = new WriterHost({ db: freshRecording(), keepSecrets: false }, (reply) => {
    if (reply.k === 'fatal') throw new Error(reply.message);
  });
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (const batch of batches) {
    host.command({ k: 'batch', batch, bytes: batch.data.length });
    await tick(); // lets the commit timer fire, as between batches on the worker
  }
  host.command({ k: 'flush' });
  const wallUs = Number(process.hrtime.bigint() - t0) / 1000 / units;
  const cpu = process.cpuUsage(cpu0);
  host.close();
  return { wallUs, cpuUs: (cpu.user + cpu.system) / units };
}

function watchBatches(template, resource, contentType, n) {
  const stream = events(template);
  const perRead = Math.max(1, Math.floor(READ_BYTES / stream.size));
  const head = { id: 1, startedAt: Date.now(), method: 'GET', url: `/api/v1/namespaces/fh/${resource}?watch=1`, requestHeaders: '[]', status: 200,
    responseHeaders: JSON.stringify([['Content-Type', contentType]]), streamed: true, upgrade: false };
  const batches = [{ msgs: [{ k: 'open', head, requestBody: null }], data: Buffer.alloc(0) }];
  for (let i = 0, at = 0; i < n;) {
    const msgs = [];
    const reads = [];
    for (let r = 0; r < READS_PER_BATCH && i < n; r++) {
      const count = Math.min(perRead, n - i);
      const read = Buffer.allocUnsafe(count * stream.size);
      for (let k = 0; k < count; k++, i++) stream.fill(read, k * stream.size, i);
      reads.push(read);
    }
    let off = 0;
    for (const read of reads) {
      msgs.push({ k: 'chunk', id: 1, at: at++, data: { off, len: read.length } });
      off += read.length;
    }
    batches.push({ msgs, data: Buffer.concat(reads) });
  }
  batches.push({ msgs: [{ k: 'close', id: 1, outcome: 'complete', durationMs: 1000 }], data: Buffer.alloc(0) });
  return batches;
}

function getBatches(n) {
  const body = Buffer.from(JSON.stringify({
    kind: 'ConfigMap', apiVersion: 'v1',
    metadata: { name: 'small', namespace: 'default', uid: '6f1c2e4a-0000-4000-8000-000000000001', resourceVersion: '1000', creationTimestamp: '2026-01-01T00:00:00Z' },
    data: { key: 'value', other: 'a little more text so the body is a few hundred bytes long' },
  }));
  const requestHeaders = JSON.stringify([['Host', '127.0.0.1:8001'], ['User-Agent', 'wrk'], ['Accept', '*/*']]);
  const responseHeaders = JSON.stringify([['Content-Type', 'application/json'], ['Content-Length', String(body.length)], ['Cache-Control', 'no-cache, private'], ['Date', 'Sat, 21 Nov 2026 05:00:00 GMT']]);
  const batches = [];
  for (let id = 1; id <= n;) {
    const msgs = [];
    const count = Math.min(70, n - id + 1); // ~20 ms of GETs at 3,500/s
    for (let k = 0; k < count; k++, id++) {
      msgs.push({ k: 'close', id, head: { id, startedAt: Date.now(), method: 'GET', url: '/api/v1/namespaces/default/configmaps/small', requestHeaders, status: 200,
        responseHeaders, streamed: false, upgrade: false }, requestBody: null, responseBody: { off: k * body.length, len: body.length }, outcome: 'complete', durationMs: 0.3 });
    }
    batches.push({ msgs, data: Buffer.concat(Array.from({ length: count }, () => body)) });
  }
  return batches;
}

async function main() {
  const cases = [
    ['watch event: ConfigMap ~1 KiB, JSON', () => watchBatches(configMap('json', 1024), 'configmaps', 'application/json', EVENTS), EVENTS],
    ['watch event: ConfigMap ~1 KiB, protobuf', () => watchBatches(configMap('protobuf', 1024), 'configmaps', 'application/vnd.kubernetes.protobuf;stream=watch', EVENTS), EVENTS],
    ['watch event: Pod ~3 KiB, JSON', () => watchBatches(pod(), 'pods', 'application/json', EVENTS), EVENTS],
    ['small GET exchange', () => getBatches(GETS), GETS],
  ];
  const rows = [];
  for (const [name, make, units] of cases) {
    const batches = make();
    let best = { wallUs: Infinity, cpuUs: Infinity };
    for (let r = 0; r < ROUNDS; r++) {
      const run = await drive(batches, units);
      if (run.wallUs < best.wallUs) best = run;
    }
    rows.push(`| ${name} | ${best.wallUs.toFixed(1)} | ${best.cpuUs.toFixed(1)} |`);
    process.stderr.write(`  ${name}: ${best.wallUs.toFixed(1)} µs\n`);
  }
  process.stdout.write(`\nThe recording writer alone (best of ${ROUNDS} rounds; ${EVENTS} events, ${GETS} GETs)\n| per | writer thread µs | process CPU µs |\n|---|--:|--:|\n${rows.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exitCode = 1;
});

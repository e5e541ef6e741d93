#!/usr/bin/env node
'use strict';
/**
 * The benchmark upstream: a trivial apiserver stand-in, in its own process.
 *   GET /version                                   small JSON
 *   GET /api/v1/namespaces/default/configmaps/small a ~300-byte ConfigMap
 *   GET /api/v1/namespaces/fh/configmaps?watch=1&events=N&size=B
 *       a watch of N ADDED events of ~B bytes (JSON, or protobuf with Accept …;stream=watch), as fast as
 *       the client drains them; events are stamped into a pre-encoded template, so producing one costs a copy.
 * Prints `listening PORT` on stdout.
 */
const http = require('node:http');
const { encodeEnvelope, encodeWatchEvent, lengthPrefix } = require('../dist/wire/protobuf');
const { ProtoWriter } = require('../dist/wire/protobuf-fields');

const SMALL = Buffer.from(JSON.stringify({
  kind: 'ConfigMap', apiVersion: 'v1',
  metadata: { name: 'small', namespace: 'default', uid: '6f1c2e4a-0000-4000-8000-000000000001', resourceVersion: '1000', creationTimestamp: '2026-01-01T00:00:00Z' },
  data: { key: 'value', other: 'a little more text so the body is a few hundred bytes long' },
}));
const VERSION = Buffer.from(JSON.stringify({ major: '1', minor: '32', gitVersion: 'v1.32.4', platform: 'linux/amd64' }));

const NAME = 'fh-########';
const UID = '00000000-0000-4000-8000-############';
const RV = 'RRRRRRRRR';

function jsonTemplate(size) {
  const make = (blob) => Buffer.from(`${JSON.stringify({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: NAME, namespace: 'fh', uid: UID, resourceVersion: RV, creationTimestamp: '2026-01-01T00:00:00Z' }, data: { blob } } })}\n`);
  return make('x'.repeat(Math.max(0, size - make('').length)));
}

function protobufTemplate(size) {
  const make = (blob) => {
    const meta = new ProtoWriter().string(1, NAME).string(3, 'fh').string(5, UID).string(6, RV);
    const entry = new ProtoWriter().string(1, 'blob').string(2, blob);
    const cm = new ProtoWriter().message(1, meta).message(2, entry).finish();
    return lengthPrefix(encodeWatchEvent('ADDED', encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap' }, cm)));
  };
  return make('x'.repeat(Math.max(0, size - make('').length)));
}

function positions(buf, mark) {
  const out = [];
  for (let at = buf.indexOf(mark); at >= 0; at = buf.indexOf(mark, at + 1)) out.push(at);
  return out;
}

function firehose(req, res, url) {
  const n = Number(url.searchParams.get('events') ?? 200000);
  const size = Number(url.searchParams.get('size') ?? 1024);
  const protobuf = /stream=watch/.test(req.headers.accept ?? '');
  const t = protobuf ? protobufTemplate(size) : jsonTemplate(size);
  const at = { name: positions(t, NAME), uid: positions(t, UID), rv: positions(t, RV) };
  res.writeHead(200, { 'Content-Type': protobuf ? 'application/vnd.kubernetes.protobuf;stream=watch' : 'application/json', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  // As the apiserver writes a watch (each event encoded and written on its own, Go's response
  // writer sending chunks of at most 2 KiB): each event its own HTTP chunk, ~64 KiB of them per
  // socket write. `chunks=batch`: one chunk per ~64 KiB write instead (fewer 'data' events for a proxy).
  const perEvent = url.searchParams.get('chunks') !== 'batch';
  const perWrite = Math.max(1, Math.floor(65536 / t.length));
  let i = 0;
  let stopped = false;
  res.on('close', () => (stopped = true));
  const pump = () => {
    while (!stopped && i < n) {
      const count = Math.min(perWrite, n - i);
      const batch = Buffer.allocUnsafe(t.length * count);
      for (let k = 0; k < count; k++, i++) {
        const base = k * t.length;
        t.copy(batch, base);
        const id = String(i + 1);
        for (const a of at.name) batch.write(id.padStart(8, '0'), base + a + 3, 'latin1');
        for (const a of at.uid) batch.write(id.padStart(12, '0'), base + a + 24, 'latin1');
        for (const a of at.rv) batch.write(String(100000000 + i + 1), base + a, 'latin1');
      }
      let more;
      if (perEvent) {
        res.cork();
        for (let k = 0; k < count; k++) more = res.write(batch.subarray(k * t.length, (k + 1) * t.length));
        res.uncork();
      } else more = res.write(batch);
      if (!more) return void res.once('drain', pump);
    }
    if (!stopped) res.end();
  };
  pump();
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/version') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': VERSION.length });
    return void res.end(VERSION);
  }
  if (url.pathname === '/api/v1/namespaces/fh/configmaps' && url.searchParams.get('watch')) return firehose(req, res, url);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': SMALL.length, 'Cache-Control': 'no-cache, private' });
  res.end(SMALL);
});
server.keepAliveTimeout = 60000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));

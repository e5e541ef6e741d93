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
const { configMap, events } = require('./watch-events');

const SMALL = Buffer.from(JSON.stringify({
  kind: 'ConfigMap', apiVersion: 'v1',
  metadata: { name: 'small', namespace: 'default', uid: '6f1c2e4a-0000-4000-8000-000000000001', resourceVersion: '1000', creationTimestamp: '2026-01-01T00:00:00Z' },
  data: { key: 'value', other: 'a little more text so the body is a few hundred bytes long' },
}));
const VERSION = Buffer.from(JSON.stringify({ major: '1', minor: '32', gitVersion: 'v1.32.4', platform: 'linux/amd64' }));

function firehose(req, res, url) {
  const n = Number(url.searchParams.get('events') ?? 200000);
  const size = Number(url.searchParams.get('size') ?? 1024);
  const protobuf = /stream=watch/.test(req.headers.accept ?? '');
  const stream = events(configMap(protobuf ? 'protobuf' : 'json', size));
  res.writeHead(200, { 'Content-Type': protobuf ? 'application/vnd.kubernetes.protobuf;stream=watch' : 'application/json', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  // As the apiserver writes a watch (each event encoded and written on its own, Go's response
  // writer sending chunks of at most 2 KiB): each event its own HTTP chunk, ~64 KiB of them per
  // socket write. `chunks=batch`: one chunk per ~64 KiB write instead (fewer 'data' events for a proxy).
  const perEvent = url.searchParams.get('chunks') !== 'batch';
  const perWrite = Math.max(1, Math.floor(65536 / stream.size));
  let i = 0;
  let stopped = false;
  res.on('close', () => (stopped = true));
  const pump = () => {
    while (!stopped && i < n) {
      const count = Math.min(perWrite, n - i);
      const batch = Buffer.allocUnsafe(stream.size * count);
      for (let k = 0; k < count; k++, i++) stream.fill(batch, k * stream.size, i);
      let more;
      if (perEvent) {
        res.cork();
        for (let k = 0; k < count; k++) more = res.write(batch.subarray(k * stream.size, (k + 1) * stream.size));
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

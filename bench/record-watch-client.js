#!/usr/bin/env node
'use strict';
/**
 * Reads one firehose watch and counts its events. `node record-watch-client.js URL EVENTS json|protobuf [count|decode]`
 * `count` only finds where each event ends; `decode` also parses each one, as a watch client does
 * (JSON.parse of each line; protobuf: kubetape's decoder of the envelope and object metadata).
 * Prints JSON {events, seconds, eventsPerSec} (timed from the response head to the last byte).
 */
const http = require('node:http');

const [url, expected, encoding] = [process.argv[2], Number(process.argv[3]), process.argv[4] ?? 'json'];
const decode = process.argv[5] === 'decode';
const { decodeProtobufWatchFrame } = require('../dist/wire/decode-protobuf');
const accept = encoding === 'protobuf' ? 'application/vnd.kubernetes.protobuf;stream=watch' : 'application/json';
const req = http.get(url, { headers: { Accept: accept } }, (res) => {
  const t0 = process.hrtime.bigint();
  let events = 0;
  let pending = Buffer.alloc(0);
  res.on('data', (chunk) => {
    if (encoding === 'protobuf') {
      let buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let pos = 0;
      while (buf.length - pos >= 4) {
        const end = pos + 4 + buf.readUInt32BE(pos);
        if (end > buf.length) break;
        if (decode) decodeProtobufWatchFrame(buf.subarray(pos, end));
        events++;
        pos = end;
      }
      pending = buf.subarray(pos);
    } else {
      if (!decode) {
        for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) events++;
        return;
      }
      let buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let pos = 0;
      for (let at = buf.indexOf(10); at >= 0; at = buf.indexOf(10, pos)) {
        JSON.parse(buf.toString('utf8', pos, at));
        events++;
        pos = at + 1;
      }
      pending = buf.subarray(pos);
    }
  });
  res.on('end', () => {
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    process.stdout.write(`${JSON.stringify({ events, expected, seconds, eventsPerSec: Math.round(events / seconds) })}\n`);
  });
});
req.on('error', (err) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});

#!/usr/bin/env node
'use strict';
/**
 * The ceiling for the replay benchmark: a bare Node HTTP server answering every GET with one fixed
 * ~300-byte ConfigMap and the same headers, matching nothing, reading nothing. `node replay-baseline.js`
 */
const http = require('node:http');
const { bodyOf } = require('./replay-fixtures');

const body = Buffer.from(bodyOf(0));
const headers = ['Cache-Control', 'no-cache, private', 'Content-Type', 'application/json', 'Content-Length', String(body.length)];
const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));

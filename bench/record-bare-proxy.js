#!/usr/bin/env node
'use strict';
/** The baseline: a bare http-proxy-3 passthrough with its default options. `node record-bare-proxy.js UPSTREAM_URL [keepalive]` */
const http = require('node:http');
const { createProxyServer } = require('http-proxy-3');

const target = process.argv[2];
const agent = process.argv[3] === 'keepalive' ? new http.Agent({ keepAlive: true }) : undefined;
const proxy = createProxyServer({ target, agent });
proxy.on('error', (err, _req, res) => { try { res.writeHead?.(502); res.end(String(err)); } catch { /* closed */ } });
const server = http.createServer((req, res) => proxy.web(req, res));
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));

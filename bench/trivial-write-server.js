'use strict';
/**
 * The load generator's ceiling for bench/serve-writes.js: a node:http server that reads each
 * request's body and answers it at once — POST 201 and PUT 200 with the body it was sent (a
 * resourceVersion added), DELETE 200 with a small Status — so that the same client processes,
 * sending the same requests, show how many requests/s they can make at all on this machine.
 *
 *   node bench/trivial-write-server.js   → prints `listening PORT`
 */
const http = require('node:http');
const runServer = require('./child-server');

let rv = 1;
const status = Buffer.from('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success"}');

runServer(
  () =>
    new Promise((resolve) => {
      const server = http.createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          let body = status;
          let code = 200;
          if (req.method !== 'DELETE') {
            const sent = Buffer.concat(chunks).toString();
            body = Buffer.from(sent.replace('"metadata":{', `"metadata":{"resourceVersion":"${++rv}",`));
            code = req.method === 'POST' ? 201 : 200;
          }
          res.writeHead(code, { 'content-type': 'application/json', 'content-length': body.length });
          res.end(body);
        });
      });
      server.keepAliveTimeout = 60_000;
      server.listen(0, '127.0.0.1', () => resolve({ port: server.address().port, close: () => server.close() }));
    }),
);

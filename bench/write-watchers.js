'use strict';
/**
 * Watchers of bench/serve-writes.js's fan-out phase, one process holding several, driven over
 * IPC: `{ url, path, watchers, writes }` opens `watchers` watches of `path` (a watch URL with
 * its resourceVersion), answers `{ open: true }` once every one has its response headers, then
 * reads events as a client would (each line JSON.parse'd) until each watcher has seen `writes`
 * of them. Each event's object carries the wall-clock time its write was sent (annotation
 * `bench/sent`, ms since the epoch, from performance.timeOrigin + performance.now() in the
 * writer); the latency of a delivery is the time this process read it minus that. The answer:
 * `{ latencies }`, a Float64Array's buffer of writes × watchers delays (row = write index from
 * annotation `bench/index`), NaN where an event never came.
 */
const http = require('node:http');

const now = () => performance.timeOrigin + performance.now();

function run({ url, path, watchers, writes }) {
  const latencies = new Float64Array(writes * watchers).fill(NaN);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  let open = 0;
  let done = 0;
  const reqs = [];
  return new Promise((resolve, reject) => {
    for (let w = 0; w < watchers; w++) {
      let seen = 0;
      let buf = '';
      const req = http.get(`${url}${path}`, { agent, headers: { accept: 'application/json' } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`watch answered ${res.statusCode}`));
        if (++open === watchers) process.send({ open: true });
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          const at = now();
          buf += chunk;
          let nl;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (!line) continue;
            const ev = JSON.parse(line);
            const ann = ev.object?.metadata?.annotations;
            if (!ann || ann['bench/sent'] === undefined) continue;
            latencies[Number(ann['bench/index']) * watchers + w] = at - Number(ann['bench/sent']);
            if (++seen === writes && ++done === watchers) {
              for (const r of reqs) r.destroy();
              resolve({ latencies: Buffer.from(latencies.buffer).toString('base64') });
            }
          }
        });
      });
      req.on('error', (err) => {
        if (done < watchers) reject(err);
      });
      reqs.push(req);
    }
  });
}

process.on('message', (msg) => {
  if (msg.exit) process.exit(0);
  run(msg).then(
    (r) => process.send(r),
    (err) => process.send({ error: String(err) }),
  );
});

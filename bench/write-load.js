'use strict';
/**
 * One load-generator process of bench/serve-writes.js, driven over IPC by the parent:
 *
 *   { phase: 'create' | 'update' | 'delete', url, names, inFlight, dataBytes }
 *
 * keeps `inFlight` requests outstanding, one per keep-alive connection (see Connection),
 * until every name has had its request, and answers `{ ok, failed, firstError, latencies }`
 * (latencies in ms, one per request, as a Float64Array's buffer). `create` POSTs a ConfigMap
 * per name into namespace `default` and keeps the resourceVersion of each answer; `update` PUTs
 * each one back with that resourceVersion and a changed data value, keeping the new one;
 * `delete` DELETEs each. The parent sends the same messages to a trivial node:http server to
 * measure this generator's own ceiling.
 */
const net = require('node:net');

const NS = 'default';
/** resourceVersion per name, from the last create or update of this process. */
const rvs = new Map();
/** The connections of this process, one per request in flight, kept across phases per server URL. */
const pools = new Map();
let filler = '';

function configMap(name, rv, value) {
  const metadata = rv ? { name, namespace: NS, resourceVersion: rv } : { name, namespace: NS };
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { value, filler } });
}

/**
 * A keep-alive HTTP/1.1 connection with one request outstanding at a time, written as bytes and
 * read back by Content-Length (or chunked): node:http's client costs this 2-core machine more
 * CPU per request than the servers measured here, so it would be the limit.
 */
class Connection {
  constructor(host, port) {
    this.host = `${host}:${port}`;
    this.port = port;
    this.hostname = host;
    this.connect();
  }

  /** (Re)connects: a server closes keep-alive connections left idle while the others are measured. */
  connect() {
    const socket = net.connect(this.port, this.hostname);
    this.socket = socket;
    socket.setNoDelay(true);
    this.buf = Buffer.alloc(0);
    this.pending = undefined;
    socket.on('data', (d) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
      this.parse();
    });
    socket.on('error', (err) => socket === this.socket && this.fail(err));
    socket.on('close', () => socket === this.socket && this.fail(new Error('connection closed')));
  }

  fail(err) {
    const p = this.pending;
    this.pending = undefined;
    p?.({ status: 0, body: Buffer.from(String(err)) });
  }

  send(method, path, body) {
    if (this.socket.destroyed) this.connect();
    let head = `${method} ${path} HTTP/1.1\r\nHost: ${this.host}\r\nAccept: application/json\r\nUser-Agent: bench-write-load\r\n`;
    if (body !== undefined) head += `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
    this.socket.write(body === undefined ? `${head}\r\n` : `${head}\r\n${body}`);
    return new Promise((resolve) => (this.pending = resolve));
  }

  parse() {
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buf.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const cl = /\r\ncontent-length: *(\d+)/i.exec(head);
    let body;
    let rest;
    if (cl) {
      const total = end + 4 + Number(cl[1]);
      if (this.buf.length < total) return;
      body = this.buf.subarray(end + 4, total);
      rest = this.buf.subarray(total);
    } else {
      const done = this.buf.indexOf('\r\n0\r\n\r\n', end);
      if (done < 0) return;
      body = this.buf.subarray(end + 4, done);
      rest = this.buf.subarray(done + 7);
    }
    this.buf = rest;
    const p = this.pending;
    this.pending = undefined;
    p?.({ status, body });
  }
}

/** The resourceVersion in a JSON answer, without parsing the rest of it. */
function rvOf(body) {
  const m = /"resourceVersion":"(\d+)"/.exec(body.toString('latin1', 0, 400));
  return m ? m[1] : undefined;
}

function op(conn, phase, name) {
  const base = `/api/v1/namespaces/${NS}/configmaps`;
  if (phase === 'create') return conn.send('POST', base, configMap(name, undefined, 'v1'));
  if (phase === 'update') return conn.send('PUT', `${base}/${name}`, configMap(name, rvs.get(name), 'v2'));
  return conn.send('DELETE', `${base}/${name}`);
}

function pool(url, size) {
  let conns = pools.get(url);
  if (!conns) {
    const { hostname, port } = new URL(url);
    conns = Array.from({ length: size }, () => new Connection(hostname, Number(port)));
    pools.set(url, conns);
  }
  return conns;
}

const expected = { create: 201, update: 200, delete: 200 };

async function run({ phase, url, names, inFlight, dataBytes }) {
  const conns = pool(url, inFlight);
  if (filler.length !== dataBytes) filler = 'x'.repeat(dataBytes);
  const latencies = new Float64Array(names.length);
  let next = 0;
  let ok = 0;
  let failed = 0;
  let firstError;
  const worker = async (conn) => {
    while (next < names.length) {
      const i = next++;
      const t0 = performance.now();
      const res = await op(conn, phase, names[i]);
      latencies[i] = performance.now() - t0;
      if (res.status === expected[phase]) {
        ok++;
        if (phase !== 'delete') rvs.set(names[i], rvOf(res.body));
      } else {
        failed++;
        firstError ??= `${res.status} ${res.body.toString('utf8', 0, 300)}`;
      }
    }
  };
  await Promise.all(conns.map(worker));
  return { ok, failed, firstError, latencies: Buffer.from(latencies.buffer).toString('base64') };
}

process.on('message', (msg) => {
  if (msg.phase === 'exit') {
    for (const conns of pools.values()) for (const c of conns) c.socket.destroy();
    process.exit(0);
  }
  if (msg.phase === 'forget') {
    rvs.clear();
    process.send({ ok: 0 });
    return;
  }
  run(msg).then((r) => process.send(r));
});

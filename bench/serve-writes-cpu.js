#!/usr/bin/env node
/**
 * Server CPU per plain write, in process: the request listener of an empty `kubetape serve` called
 * with node:http's own request and response objects on a socket that only collects the bytes, so
 * no kernel, no client and no other process is measured — only what the server does per write
 * (node:http's response head and body included). The quick loop beside bench/serve-writes.js:
 *
 *   node bench/serve-writes-cpu.js [--roots DIR,DIR…] [--ops 5000] [--rounds 5] [--data-bytes 760]
 *
 * Each root is a checkout with dist/ built (default: this one); rounds alternate between the
 * roots, each round a fresh child process: a warm-up (the three phases, `--ops` each, not
 * counted), then the same ConfigMaps as bench/write-load.js sends (~1 KiB, into `default`)
 * created, each PUT back with the resourceVersion its create answered, each deleted, one
 * request at a time. Per phase it reads process.cpuUsage() (user + system, GC threads included)
 * and prints CPU µs per write, the median over the rounds and every round's figure.
 *
 * `--steps`: each child also prints, per measured phase, the wall-clock µs per write spent inside
 * each step of the write path (exported functions of dist/ wrapped with a timer, nested steps
 * counted in their callers too; calls within one module are not seen).
 */
'use strict';
const { fork } = require('node:child_process');
const { resolve, join } = require('node:path');
const { opt, flag } = require('./harness');

const ops = Number(opt('ops', 5000));
const rounds = Number(opt('rounds', 5));
const dataBytes = Number(opt('data-bytes', 760));
const PHASES = ['create', 'update', 'delete'];

if (process.env.KUBETAPE_BENCH_CHILD) child(process.env.KUBETAPE_BENCH_CHILD).catch((err) => {
  console.error(err);
  process.exit(1);
});
else parent().catch((err) => {
  console.error(err);
  process.exit(1);
});

async function parent() {
  const roots = (opt('roots') ?? join(__dirname, '..')).split(',').map((r) => resolve(r));
  const results = roots.map(() => ({ create: [], update: [], delete: [] }));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < roots.length; i++) {
      const r = await runChild(roots[i]);
      for (const p of PHASES) results[i][p].push(r[p]);
    }
  }
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`server CPU µs per write, in process, ${ops} ops per phase, ${rounds} rounds (median; every round)`);
  for (let i = 0; i < roots.length; i++) {
    const cells = PHASES.map((p) => `${p} ${median(results[i][p]).toFixed(1)} (${results[i][p].map((x) => x.toFixed(0)).join(' ')})`);
    console.log(`${roots[i]}: ${cells.join(', ')}`);
  }
}

function runChild(root) {
  return new Promise((res, rej) => {
    const c = fork(__filename, process.argv.slice(2), { env: { ...process.env, KUBETAPE_BENCH_CHILD: root }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let out;
    c.on('message', (m) => (out = m));
    c.on('exit', (code) => (code === 0 && out ? res(out) : rej(new Error(`child for ${root} exited ${code}`))));
  });
}

async function child(root) {
  const http = require('node:http');
  const { Writable } = require('node:stream');
  let listener;
  const createServer = http.createServer;
  http.createServer = (...args) => {
    listener = args.find((a) => typeof a === 'function');
    return createServer(...args);
  };
  const steps = flag('steps') ? stepTimer(root) : undefined;
  const { serve } = require(join(root, 'dist', 'index.js'));
  const api = await serve({ listen: '127.0.0.1:0' });
  const host = new URL(api.url).host;
  const filler = 'x'.repeat(dataBytes);
  const rvs = new Map();

  /** A socket that collects what the response writes. */
  class Sink extends Writable {
    constructor() {
      super({ decodeStrings: false });
      this.chunks = [];
      this.remoteAddress = '127.0.0.1';
    }
    _write(chunk, enc, cb) {
      this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, enc) : chunk);
      cb();
    }
    _writev(chunks, cb) {
      for (const { chunk, encoding } of chunks) this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
      cb();
    }
    setTimeout() {}
    setNoDelay() {}
    setKeepAlive() {}
  }

  function request(method, path, body) {
    const socket = new Sink();
    const req = new http.IncomingMessage(socket);
    req.method = method;
    req.url = path;
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.httpVersion = '1.1';
    const headers = { host, accept: 'application/json', 'user-agent': 'bench-write-load' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    req.headers = headers;
    req.rawHeaders = Object.entries(headers).flat();
    const res = new http.ServerResponse(req);
    res.assignSocket(socket);
    const done = new Promise((ok) => res.on('finish', () => ok(Buffer.concat(socket.chunks))));
    listener(req, res);
    if (body !== undefined) req.push(Buffer.from(body));
    req.complete = true;
    req.push(null);
    return done;
  }

  const base = '/api/v1/namespaces/default/configmaps';
  const configMap = (name, rv, value) =>
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: rv ? { name, namespace: 'default', resourceVersion: rv } : { name, namespace: 'default' }, data: { value, filler } });
  const expected = { create: ' 201 ', update: ' 200 ', delete: ' 200 ' };

  async function phase(name, names) {
    const t0 = process.cpuUsage();
    for (const n of names) {
      const answer =
        name === 'create' ? await request('POST', base, configMap(n, undefined, 'v1'))
        : name === 'update' ? await request('PUT', `${base}/${n}`, configMap(n, rvs.get(n), 'v2'))
        : await request('DELETE', `${base}/${n}`);
      const text = answer.toString('latin1');
      if (!text.startsWith(`HTTP/1.1${expected[name]}`)) throw new Error(`${name} ${n}: ${text.slice(0, 300)}`);
      if (name !== 'delete') rvs.set(n, /"resourceVersion":"(\d+)"/.exec(text)[1]);
    }
    const d = process.cpuUsage(t0);
    return (d.user + d.system) / names.length;
  }

  const names = (prefix) => Array.from({ length: ops }, (_, i) => `${prefix}-${String(i).padStart(6, '0')}`);
  const warm = names('warm');
  for (const p of PHASES) await phase(p, warm);
  const measured = names('cm');
  const out = {};
  for (const p of PHASES) {
    steps?.start();
    out[p] = await phase(p, measured);
    steps?.report(p);
  }
  await api.close();
  if (process.send) {
    process.send(out);
    process.disconnect();
  } else console.log(out);
}

/** Wraps the write path's exported steps (module → names) with timers; `report` prints µs per write. */
function stepTimer(root) {
  const STEPS = {
    'serve/writes/request-body': ['readBody', 'decodeObject'],
    'serve/writes/field-validation': ['validateDecodedFields'],
    'serve/writes/prepare': ['prepareCreate', 'prepareUpdate'],
    'serve/writes/managed-fields-cache': ['cachedManagedFields'],
    'serve/writes/stored-write': ['currentRevision', 'currentReadOnly', 'currentObject', 'finalObject', 'sameObject', 'commitObject', 'commitDeletion', 'respondObject', 'respondJson'],
    'serve/writes/write-request': ['admitNamespace', 'actor', 'writeTarget'],
    'serve/response-body': ['writeBody'],
    'serve/resource-handlers': ['representation', 'fallBack'],
    'k8s/request-info': ['requestInfo'],
    'k8s/object-order': ['orderObject'],
    'k8s/config-validation': ['validateConfigData', 'validateConfigUpdate'],
    'k8s/object-meta-validation': ['validateObjectMeta', 'validateObjectMetaUpdate'],
    'wire/json-spans': ['goJson'],
    'store/commit': ['commitWrite'],
  };
  const totals = new Map();
  let on = false;
  for (const [mod, names] of Object.entries(STEPS)) {
    const m = require(join(root, 'dist', mod));
    for (const name of names) {
      const f = m[name];
      if (typeof f !== 'function') continue;
      const t = { ns: 0n, calls: 0 };
      totals.set(`${mod.split('/').pop()}.${name}`, t);
      m[name] = function timed(...args) {
        if (!on) return f.apply(this, args);
        const t0 = process.hrtime.bigint();
        try {
          return f.apply(this, args);
        } finally {
          t.ns += process.hrtime.bigint() - t0;
          t.calls++;
        }
      };
    }
  }
  return {
    start() {
      for (const t of totals.values()) (t.ns = 0n), (t.calls = 0);
      on = true;
    },
    report(phase) {
      on = false;
      const rows = [...totals].filter(([, t]) => t.calls > 0).sort((a, b) => Number(b[1].ns - a[1].ns));
      console.log(`${root} ${phase}: ${rows.map(([k, t]) => `${k} ${(Number(t.ns) / 1000 / ops).toFixed(1)}`).join(', ')}`);
    },
  };
}

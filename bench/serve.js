#!/usr/bin/env node
/**
 * kubetape serve benchmarks (issue 3 targets; a real kube-apiserver v1.26 on the same kind of
 * machine: full list 302 ms / 155 ms from its watch cache, limit=500 page 14 ms, 100 watchers ×
 * 2,000 updates in 7.0 s).
 *
 *   npm run build && node bench/serve.js            # all three
 *   node bench/serve.js rebuild|list|watch          # one
 *
 * Each benchmark writes its own recording (object log and watch frames, as the recorder writes them) into a
 * temporary directory, then measures serve. Prints a table; exits 1 when a target is missed.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const http = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
const { openRecording } = require(join(dist, 'recording', 'open.js'));
const { PackedWatchEvents } = require(join(dist, 'recording', 'writer', 'packed-watch-events.js'));

const TARGETS = {
  rebuildMs: 10_000,
  rebuildRssMb: 1024,
  fullListMs: 155,
  pageMs: 14,
  watchMs: 3_500,
};

// ---------------------------------------------------------------- recordings

function configMap(name, rv, payload, namespace = 'bench') {
  return JSON.stringify({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: {
      name,
      namespace,
      uid: `00000000-0000-4000-8000-${String(name.length * 7919 + Number(name.replace(/\D/g, '') || 0)).padStart(12, '0')}`,
      resourceVersion: String(rv),
      creationTimestamp: '2026-11-21T00:46:05Z',
      labels: { app: 'bench', shard: String(Number(name.replace(/\D/g, '') || 0) % 10) },
      managedFields: [
        { manager: 'kubectl-create', operation: 'Update', apiVersion: 'v1', time: '2026-11-21T00:46:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:k': {} } } },
      ],
    },
    data: { k: payload },
  });
}

/**
 * A recording as the recorder writes it: one full list of `count` objects at RV `base` (a row
 * each), then a watch with `versions - 1` MODIFIED events per object, in frames of
 * EVENTS_PER_FRAME events with one watch_observations row each.
 */
const EVENTS_PER_FRAME = 64;
function writeRecording(path, { count, versions, payloadBytes }) {
  const db = openRecording(path, { create: true });
  const exchange = db.prepare(`INSERT INTO exchanges (started_at, method, url, verb, api_version, resource, namespace, request_headers, status, streamed, outcome)
                               VALUES (?, 'GET', ?, ?, 'v1', 'configmaps', 'bench', '[]', 200, ?, 'complete')`);
  const observation = db.prepare(`INSERT INTO observation_rows (id, exchange_id, seq, at_ms, source, event, form, api_group, api_version, resource, kind, namespace, name, uid, rv, encoding, raw)
                                  VALUES (?, ?, ?, ?, ?, ?, 'object', '', 'v1', 'configmaps', 'ConfigMap', 'bench', ?, NULL, ?, 'json', ?)`);
  const frame = db.prepare('INSERT INTO frames (exchange_id, seq, offset_ms, data) VALUES (?, ?, ?, ?)');
  const watchObservations = db.prepare(`INSERT INTO watch_observations (first_id, count, exchange_id, seq, at_ms, api_group, api_version, resource, encoding, events)
                                        VALUES (?, ?, ?, ?, ?, '', 'v1', 'configmaps', 'json', ?)`);
  const t0 = Date.parse('2026-11-21T00:00:00Z');
  const base = count + 1000;
  const payload = 'x'.repeat(payloadBytes);
  db.transaction(() => {
    const listId = Number(exchange.run(t0, '/api/v1/namespaces/bench/configmaps', 'list', 0).lastInsertRowid);
    for (let i = 0; i < count; i++) {
      const name = `cm-${String(i).padStart(6, '0')}`;
      observation.run(i + 1, listId, i, t0, 'list', null, name, String(base - count + i), Buffer.from(configMap(name, base - count + i, payload)));
    }
    db.prepare(`INSERT INTO lists (exchange_id, at_ms, api_group, api_version, resource, kind, namespace, rv, items, encoding) VALUES (?, ?, '', 'v1', 'configmaps', 'ConfigMapList', 'bench', ?, ?, 'json')`).run(listId, t0, String(base), count);
    if (versions > 1) {
      const watchId = Number(exchange.run(t0 + 1, `/api/v1/namespaces/bench/configmaps?watch=true&resourceVersion=${base}`, 'watch', 1).lastInsertRowid);
      const prefix = '{"type":"MODIFIED","object":';
      let rv = base;
      let nextId = count + 1;
      let seq = 0;
      let lines = [];
      const packed = new PackedWatchEvents();
      let offset = 0;
      const flush = () => {
        const at = 10 + seq;
        const events = packed.count;
        frame.run(watchId, seq, at, Buffer.from(lines.join('')));
        watchObservations.run(nextId, events, watchId, seq, t0 + 1 + at, packed.take());
        nextId += events;
        seq++;
        lines = [];
        offset = 0;
      };
      for (let v = 1; v < versions; v++) {
        for (let i = 0; i < count; i++) {
          rv++;
          const name = `cm-${String(i).padStart(6, '0')}`;
          const object = configMap(name, rv, payload);
          const line = `${prefix}${object}}\n`;
          packed.add('MODIFIED', 'object', 'ConfigMap', 'bench', name, null, String(rv), offset + Buffer.byteLength(prefix), Buffer.byteLength(object));
          lines.push(line);
          offset += Buffer.byteLength(line);
          if (packed.count === EVENTS_PER_FRAME) flush();
        }
      }
      if (packed.count > 0) flush();
      db.prepare(`INSERT INTO watches (exchange_id, at_ms, api_group, api_version, resource, namespace, start_rv, encoding, events, ended) VALUES (?, ?, '', 'v1', 'configmaps', 'bench', ?, 'json', ?, 'complete')`)
        .run(watchId, t0 + 1, String(base), count * (versions - 1));
    }
  })();
  db.close();
}

// ---------------------------------------------------------------- measurements

/**
 * Rebuild in a child process so its memory is its own: reconstruct, load into the store, read the
 * current objects. Reports the process's peak RSS (VmHWM) and its RSS at the end.
 */
function benchRebuild(dir) {
  const db = join(dir, 'rebuild.db');
  writeRecording(db, { count: 100_000, versions: 10, payloadBytes: 64 });
  const script = `
    const { openRecording } = require(${JSON.stringify(join(dist, 'recording', 'open.js'))});
    const { reconstruct, TimelineCursor, preloadState } = require(${JSON.stringify(join(dist, 'reconstruct', 'index.js'))});
    const { Store, systemClock } = require(${JSON.stringify(join(dist, 'store', 'index.js'))});
    const t0 = process.hrtime.bigint();
    const db = openRecording(${JSON.stringify(db)}, { readonly: true });
    const rebuilt = reconstruct(db);
    const store = new Store({ clock: systemClock });
    const cursor = new TimelineCursor(rebuilt, store);
    cursor.loadUntil(rebuilt.endRevision);
    preloadState(store, rebuilt.loader); // what serve() does before it answers: the current objects' bytes
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    db.close();
    const endRss = process.memoryUsage().rss;
    const objects = store.find('/v1/configmaps').snapshot(store.head, '').length;
    console.log(JSON.stringify({ ms, peakMb: peakRss() / 1048576, endRssMb: endRss / 1048576, revisions: rebuilt.timeline.length, objects, head: store.head }));
    // The rebuild is synchronous: no timer runs during it, so the peak is the kernel's high-water
    // mark (VmHWM), or getrusage's maxrss where there is no /proc.
    function peakRss() {
      try {
        const m = /^VmHWM:\s+(\d+) kB/m.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'));
        if (m) return Number(m[1]) * 1024;
      } catch {}
      return process.resourceUsage().maxRSS * 1024;
    }
  `;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop());
  return [
    row('rebuild 100,000 objects × 10 versions', `${out.revisions.toLocaleString()} revisions → ${out.objects.toLocaleString()} objects at RV ${out.head}`, out.ms, TARGETS.rebuildMs, 'ms'),
    row('rebuild peak RSS', `VmHWM of the rebuilding process; RSS at the end ${out.endRssMb.toFixed(0)} MiB`, out.peakMb, TARGETS.rebuildRssMb, 'MiB'),
  ];
}

async function benchList(dir) {
  const { serve } = require(join(dist, 'serve', 'index.js'));
  const db = join(dir, 'list.db');
  writeRecording(db, { count: 10_000, versions: 1, payloadBytes: 1200 });
  const api = await serve({ db });
  try {
    // Requests come from another process (as curl would), so the server has its core to itself.
    const path = `${api.url}/api/v1/namespaces/bench/configmaps`;
    const t = await inChild(['list-client', path]);
    return [
      row('full JSON list, 10,000 ConfigMaps', `${t.items} items, ${(t.perItem / 1024).toFixed(2)} KiB each as listed, ${(t.bytes / 1048576).toFixed(1)} MiB`, t.fullMs, TARGETS.fullListMs, 'ms'),
      row('full JSON list, resourceVersion=0', '', t.fullRv0Ms, TARGETS.fullListMs, 'ms'),
      row('limit=500 page (first)', '', t.pageMs, TARGETS.pageMs, 'ms'),
      row('limit=500 page (continue)', '', t.page2Ms, TARGETS.pageMs, 'ms'),
    ];
  } finally {
    await api.close();
  }
}

/** Child process: times list requests (median of n, after warm-ups). */
async function listClient(path) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const full = await fetchBody(agent, path);
  const items = JSON.parse(full.body).items;
  const cont = JSON.parse((await fetchBody(agent, `${path}?limit=500`)).body).metadata.continue;
  const result = {
    items: items.length,
    bytes: full.body.length,
    perItem: full.body.length / items.length,
    fullMs: await timed(agent, path, 20),
    fullRv0Ms: await timed(agent, `${path}?resourceVersion=0`, 20),
    pageMs: await timed(agent, `${path}?limit=500`, 50),
    page2Ms: await timed(agent, `${path}?limit=500&continue=${cont}`, 50),
  };
  agent.destroy();
  process.send(result);
}

function inChild(args) {
  const child = require('node:child_process').fork(__filename, args, { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => {
      child.kill();
      resolve(m);
    });
    child.once('exit', (code) => reject(new Error(`bench client exited ${code}`)));
  });
}

/** 100 watchers in a child process (the other core) count events until each has 2,000. */
async function benchWatch(dir) {
  const { serve } = require(join(dist, 'serve', 'index.js'));
  const db = join(dir, 'watch.db');
  const changes = 2000;
  writeRecording(db, { count: 100, versions: 1 + changes / 100, payloadBytes: 600 });
  const api = await serve({ db, clock: 'manual' });
  try {
    const watchers = 100;
    const client = require('node:child_process').fork(__filename, ['watch-clients', api.url, String(watchers), String(changes)], { stdio: 'inherit' });
    await new Promise((resolve) => client.once('message', resolve)); // all connected
    const t0 = Date.now();
    const result = new Promise((resolve) => client.once('message', resolve));
    api.advance({ toEnd: true });
    const { counts, lastAt } = await result;
    const ms = lastAt - t0;
    const delivered = counts.reduce((a, b) => a + b, 0);
    client.kill();
    return [
      row(`${watchers} watchers × ${changes.toLocaleString()} changes`, `${delivered.toLocaleString()} of ${(watchers * changes).toLocaleString()} delivered, ${Math.round(delivered / (ms / 1000)).toLocaleString()}/s`, ms, TARGETS.watchMs, 'ms'),
      row('events dropped', '', watchers * changes - delivered, 0, ''),
    ];
  } finally {
    await api.close();
  }
}

/** Child process: opens the watches, reports when connected, then when every watcher has all events. */
function watchClients(url, watchers, changes) {
  const counts = new Array(watchers).fill(0);
  let connected = 0;
  let done = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: watchers });
  for (let i = 0; i < watchers; i++) {
    http.get(`${url}/api/v1/namespaces/bench/configmaps?watch=1&resourceVersion=1100`, { agent }, (res) => {
      if (++connected === watchers) process.send('connected');
      res.on('data', (chunk) => {
        for (let p = chunk.indexOf(10); p >= 0; p = chunk.indexOf(10, p + 1)) counts[i]++;
        if (counts[i] === changes && ++done === watchers) process.send({ counts, lastAt: Date.now() });
      });
    });
  }
}

// ---------------------------------------------------------------- plumbing

function fetchBody(agent, url) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
    }).on('error', reject);
  });
}

/** Median time to the last byte of `n` sequential requests (after two warm-ups); the body is only counted. */
async function timed(agent, url, n) {
  const drain = () =>
    new Promise((resolve, reject) => {
      http.get(url, { agent }, (res) => {
        let bytes = 0;
        res.on('data', (c) => (bytes += c.length));
        res.on('end', () => resolve(bytes));
      }).on('error', reject);
    });
  await drain();
  await drain();
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await drain();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function row(what, detail, value, target, unit) {
  return { what, detail, value, target, unit, ok: value <= target };
}

function printTable(rows) {
  const fmt = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(1));
  const lines = rows.map((r) => [r.what, `${fmt(r.value)} ${r.unit}`.trim(), `≤ ${fmt(r.target)} ${r.unit}`.trim(), r.ok ? 'ok' : 'MISSED', r.detail]);
  const header = ['benchmark', 'measured', 'target', '', 'detail'];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const out = (cells) => console.log(cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
  out(header);
  out(widths.map((w) => '-'.repeat(w)));
  lines.forEach(out);
}

async function main() {
  const which = process.argv[2] ?? 'all';
  if (which === 'watch-clients') return watchClients(process.argv[3], Number(process.argv[4]), Number(process.argv[5]));
  if (which === 'list-client') return listClient(process.argv[3]);
  const dir = mkdtempSync(join(tmpdir(), 'kubetape-bench-serve-'));
  const rows = [];
  try {
    if (which === 'all' || which === 'rebuild') rows.push(...benchRebuild(dir));
    if (which === 'all' || which === 'list') rows.push(...(await benchList(dir)));
    if (which === 'all' || which === 'watch') rows.push(...(await benchWatch(dir)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`node bench/serve.js ${which === 'all' ? '' : which}`.trim());
  printTable(rows);
  process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

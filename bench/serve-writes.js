#!/usr/bin/env node
/**
 * Writes against an empty `kubetape serve` (issue 15's benchmark), beside the load generator's
 * own ceiling measured in the same run:
 *
 *   npm run build && node bench/serve-writes.js [--clients 3] [--in-flight 8] [--ops 10000]
 *     [--rounds 3] [--watchers 100] [--watch-writes 500] [--memory-objects 100000]
 *     [--pin] [--prof DIR] [--out-dir DIR] [--skip-ceiling] [--skip-watch] [--skip-memory]
 *     [--only-watch] [--root DIR]
 *
 * - creates / updates / deletes: `--clients` load processes (bench/write-load.js), each keeping
 *   `--in-flight` requests outstanding on keep-alive sockets, share `--ops` requests per phase:
 *   POST a ConfigMap (~1 KiB) into `default`, PUT each back with the resourceVersion its create
 *   answered, DELETE each. ops/s is the phase's requests over the time from the parent's "go"
 *   to the last client's answer; p50/p99 over every request's latency. Each round runs the
 *   three phases against a trivial node:http server first (bench/trivial-write-server.js: the
 *   ceiling of these clients on this machine), then against kubetape; the table shows the
 *   median of `--rounds` rounds and the ratio to a real kube-apiserver v1.26 + etcd 3.4 (the
 *   anchor, measured once on this machine with one Node client, 8 in flight, 10,000 ops).
 *   Each phase also reads the server process's CPU time (/proc/PID/stat) before and after: CPU
 *   µs per write, and its ratio to the trivial server's per request, hold on a machine shared
 *   with other work, where ops/s does not.
 * - watch fan-out: `--watchers` watches of ConfigMaps in `default` (held by two processes,
 *   bench/write-watchers.js), then `--watch-writes` creates, one at a time, each after the
 *   previous one's answer; each object carries the wall-clock time its request was sent. The
 *   delay of a delivery is its receipt by a watcher minus that time; the table shows the
 *   median and p99 over all deliveries and over each write's last delivery (when it has
 *   reached every watcher), the median time the writer waited for each answer, and the CPU
 *   time per write of the server and of the two watcher processes during the writes.
 *   `--only-watch` runs this phase alone.
 * - memory: a fresh server, `--memory-objects` ConfigMaps of ~1 KiB created, then the server's
 *   VmRSS and VmHWM from /proc/PID/status.
 *
 * A warm-up round (up to 3,000 ops per phase against each server) comes first and is not counted.
 *
 * `--pin` runs the server on CPU 0 and the load processes on CPU 1 (taskset); without it they
 * share both cores of this VM. `--prof DIR` runs the kubetape server under `node --cpu-prof`
 * (a .cpuprofile per server process in DIR, written when it stops). `--out-dir DIR` runs each
 * kubetape server with `--out DIR/serve-out-N.db` (every exchange recorded; DIR must not hold them).
 * `--root DIR` serves with DIR/bin/kubetape.js (another built checkout, for before/after runs).
 */
'use strict';
const { fork, spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { opt, flag, track, stop, stopAll, start, cpuSeconds } = require('./harness');

const ANCHOR = { create: 1590, update: 1430, delete: 1396 };
const TARGET = { create: 16000, update: 14000, p99: 2, fanoutMedian: 5, rssMb: 400 };

const clients = Number(opt('clients', 3));
const inFlight = Number(opt('in-flight', 8));
const ops = Number(opt('ops', 10000));
const rounds = Number(opt('rounds', 3));
const watchers = Number(opt('watchers', 100));
const watchWrites = Number(opt('watch-writes', 500));
const memoryObjects = Number(opt('memory-objects', 100000));
const pin = flag('pin');
const profDir = opt('prof');
const outDir = opt('out-dir');
/** Extra node/V8 flags for the kubetape server (space-separated), e.g. `--node-flags=--max-semi-space-size=32`. */
const nodeFlags = (opt('node-flags') ?? '').split(' ').filter(Boolean);
let outFiles = 0;
/** The filler that makes a created ConfigMap ~1 KiB as kubetape serves it (metadata included). */
const DATA_BYTES = 760;

const bin = join(opt('root') ? resolve(opt('root')) : join(__dirname, '..'), 'bin', 'kubetape.js');
const onlyWatch = flag('only-watch');
const pinned = (cpu, argv) => (pin ? ['taskset', ['-c', String(cpu), ...argv]] : [argv[0], argv.slice(1)]);

/** An empty kubetape serve: `{ child, url }`, the URL from its first stdout line. */
function startKubetape() {
  const node = [process.execPath, ...nodeFlags];
  if (profDir) node.push('--cpu-prof', '--cpu-prof-dir', resolve(profDir));
  const out = outDir ? ['--out', join(resolve(outDir), `serve-out-${process.pid}-${++outFiles}.db`)] : [];
  const [cmd, argv] = pinned(0, [...node, bin, 'serve', '--listen', '127.0.0.1:0', '--log-level', 'silent', ...out]);
  return start(cmd, argv, { ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/ }).then(({ child, port }) => ({
    child,
    url: `http://127.0.0.1:${port}`,
  }));
}

function startTrivial() {
  const [cmd, argv] = pinned(0, [process.execPath, join(__dirname, 'trivial-write-server.js')]);
  return start(cmd, argv).then(({ child, port }) => ({ child, url: `http://127.0.0.1:${port}` }));
}

/** A forked helper, pinned to CPU 1 with --pin (taskset on the running process). */
function forkPinned(file) {
  const child = track(fork(join(__dirname, file), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  if (pin) spawn('taskset', ['-pc', '1', String(child.pid)], { stdio: 'ignore' });
  return child;
}

function ask(child, msg, timeoutMs = 600_000) {
  return new Promise((res, rej) => {
    const t = setTimeout(() => rej(new Error(`no answer to ${JSON.stringify(msg).slice(0, 80)} in ${timeoutMs} ms`)), timeoutMs);
    child.once('message', (m) => {
      clearTimeout(t);
      if (m.error) rej(new Error(m.error));
      else res(m);
    });
    child.send(msg);
  });
}

const floats = (b64) => {
  const b = Buffer.from(b64, 'base64');
  return new Float64Array(b.buffer, b.byteOffset, b.length / 8);
};

function pct(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '–');

/**
 * One phase against one server: every load process gets its share of names at once. `cpuUs` is
 * the server process's CPU time (all threads, /proc/PID/stat, ticks of 10 ms) per request, read
 * 100 ms after the last answer so that work the server does after answering is counted too.
 */
async function phase(loads, server, name, names) {
  const { url } = server;
  const shares = loads.map((_, i) => names.filter((_, j) => j % loads.length === i));
  const cpu0 = cpuSeconds(server.child.pid);
  const t0 = performance.now();
  const answers = await Promise.all(
    loads.map((c, i) => ask(c, { phase: name, url, names: shares[i], inFlight, dataBytes: DATA_BYTES })),
  );
  const seconds = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 100));
  const cpuUs = ((cpuSeconds(server.child.pid) - cpu0) * 1e6) / names.length;
  const lat = [];
  let failed = 0;
  let firstError;
  for (const a of answers) {
    lat.push(...floats(a.latencies));
    failed += a.failed;
    firstError ??= a.firstError;
  }
  lat.sort((a, b) => a - b);
  if (failed) console.error(`  ${name}: ${failed} failed, first: ${firstError}`);
  return { opsPerSec: names.length / seconds, p50: pct(lat, 50), p99: pct(lat, 99), failed, cpuUs };
}

async function throughput(loads) {
  const servers = { ceiling: flag('skip-ceiling') ? undefined : await startTrivial(), kubetape: await startKubetape() };
  const results = { ceiling: { create: [], update: [], delete: [] }, kubetape: { create: [], update: [], delete: [] } };
  // Warm-up, not counted: the JIT of clients and servers, the first connections.
  for (const server of Object.values(servers)) {
    if (!server) continue;
    const names = Array.from({ length: Math.min(ops, 3000) }, (_, i) => `warm-${i}`);
    for (const name of ['create', 'update', 'delete']) await phase(loads, server, name, names);
    await Promise.all(loads.map((c) => ask(c, { phase: 'forget' })));
  }
  for (let r = 0; r < rounds; r++) {
    const names = Array.from({ length: ops }, (_, i) => `bench-${r}-${i}`);
    for (const [which, server] of Object.entries(servers)) {
      if (!server) continue;
      for (const name of ['create', 'update', 'delete']) {
        const res = await phase(loads, server, name, names);
        results[which][name].push(res);
        console.log(
          `  round ${r + 1} ${which.padEnd(8)} ${name.padEnd(6)} ${fmt(res.opsPerSec).padStart(7)}/s  p50 ${fmt(res.p50, 2)} ms  p99 ${fmt(res.p99, 2)} ms  server CPU ${fmt(res.cpuUs)} µs/op`,
        );
      }
      await Promise.all(loads.map((c) => ask(c, { phase: 'forget' })));
    }
  }
  await stop(servers.ceiling?.child);
  await stop(servers.kubetape.child);
  return results;
}

/** The watch fan-out: watchers open, then writes one at a time; delays per delivery. */
async function fanout() {
  const server = await startKubetape();
  const holders = [forkPinned('write-watchers.js'), forkPinned('write-watchers.js')];
  const listRv = await new Promise((res, rej) => {
    require('node:http')
      .get(`${server.url}/api/v1/namespaces/default/configmaps`, (r) => {
        let b = '';
        r.on('data', (c) => (b += c));
        r.on('end', () => res(JSON.parse(b).metadata.resourceVersion));
      })
      .on('error', rej);
  });
  const path = `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${listRv}`;
  const per = holders.map((_, i) => Math.floor(watchers / holders.length) + (i < watchers % holders.length ? 1 : 0));
  const opened = holders.map(
    (h) => new Promise((res) => h.once('message', res)), // { open: true }
  );
  const finished = holders.map((h, i) => {
    h.send({ url: server.url, path, watchers: per[i], writes: watchWrites });
    return opened[i].then(() => new Promise((res) => h.once('message', res)));
  });
  await Promise.all(opened);
  const http = require('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const filler = 'x'.repeat(DATA_BYTES);
  const cpu0 = [server.child, ...holders].map((c) => cpuSeconds(c.pid));
  const answers = [];
  for (let i = 0; i < watchWrites; i++) {
    await new Promise((res, rej) => {
      const sent = performance.timeOrigin + performance.now();
      const body = JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `fanout-${i}`, annotations: { 'bench/sent': String(sent), 'bench/index': String(i) } },
        data: { filler },
      });
      const req = http.request(
        `${server.url}/api/v1/namespaces/default/configmaps`,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (r) => {
          r.resume();
          r.on('end', () => {
            answers.push(performance.timeOrigin + performance.now() - sent);
            if (r.statusCode === 201) res();
            else rej(new Error(`create answered ${r.statusCode}`));
          });
        },
      );
      req.on('error', rej);
      req.end(body);
    });
  }
  let timer;
  const timeout = new Promise((_, rej) => (timer = setTimeout(() => rej(new Error('watchers did not see every write in 60 s')), 60_000)));
  const delays = await Promise.race([Promise.all(finished), timeout]).finally(() => clearTimeout(timer));
  await new Promise((r) => setTimeout(r, 100));
  const [serverUs, ...holderUs] = [server.child, ...holders].map((c, i) => ((cpuSeconds(c.pid) - cpu0[i]) * 1e6) / watchWrites);
  agent.destroy();
  for (const h of holders) h.send({ exit: true });
  await stop(server.child);
  const all = [];
  const lastPerWrite = new Array(watchWrites).fill(-Infinity);
  let missing = 0;
  delays.forEach((a, hi) => {
    const l = floats(a.latencies);
    for (let i = 0; i < watchWrites; i++)
      for (let w = 0; w < per[hi]; w++) {
        const d = l[i * per[hi] + w];
        if (Number.isNaN(d)) missing++;
        else {
          all.push(d);
          if (d > lastPerWrite[i]) lastPerWrite[i] = d;
        }
      }
  });
  all.sort((a, b) => a - b);
  lastPerWrite.sort((a, b) => a - b);
  return {
    deliveries: all.length,
    missing,
    p50: pct(all, 50),
    p99: pct(all, 99),
    lastP50: pct(lastPerWrite, 50),
    lastP99: pct(lastPerWrite, 99),
    answerP50: pct(answers.sort((a, b) => a - b), 50),
    serverUs,
    watchersUs: holderUs.reduce((a, b) => a + b, 0),
  };
}

function procStatus(pid) {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)[1]) / 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function memory(loads) {
  const server = await startKubetape();
  const before = procStatus(server.child.pid);
  const names = Array.from({ length: memoryObjects }, (_, i) => `mem-${i}`);
  const t0 = performance.now();
  const res = await phase(loads, server, 'create', names);
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(loads.map((c) => ask(c, { phase: 'forget' })));
  const objectBytes = await new Promise((res2, rej) => {
    require('node:http')
      .get(`${server.url}/api/v1/namespaces/default/configmaps/mem-0`, { headers: { accept: 'application/json' } }, (r) => {
        let n = 0;
        r.on('data', (c) => (n += c.length));
        r.on('end', () => res2(n));
      })
      .on('error', rej);
  });
  await new Promise((r) => setTimeout(r, 1000));
  const after = procStatus(server.child.pid);
  await stop(server.child);
  return { before, after, seconds, failed: res.failed, objectBytes, opsPerSec: res.opsPerSec };
}

async function main() {
  const cpu = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(
    `serve writes: ${clients} load processes × ${inFlight} in flight, ${fmt(ops)} ops per phase, ${rounds} rounds` +
      `${pin ? ', server on CPU 0, clients on CPU 1' : ', server and clients share both CPUs'}; load average before: ${cpu}`,
  );
  const loads = onlyWatch ? [] : Array.from({ length: clients }, () => forkPinned('write-load.js'));
  const out = {};
  if (!onlyWatch) printThroughput((out.throughput = await throughput(loads)));
  if (!flag('skip-watch')) {
    const f = await fanout();
    console.log(
      `\nwatch fan-out, ${watchers} watchers × ${watchWrites} writes one at a time: ${fmt(f.deliveries)} deliveries, ${f.missing} missing;` +
        ` CPU per write: server ${fmt(f.serverUs)} µs, watcher processes ${fmt(f.watchersUs)} µs;` +
        ` the writer's answer p50 ${fmt(f.answerP50, 2)} ms;` +
        ` every delivery p50 ${fmt(f.p50, 2)} ms p99 ${fmt(f.p99, 2)} ms; a write's last delivery p50 ${fmt(f.lastP50, 2)} ms p99 ${fmt(f.lastP99, 2)} ms` +
        ` (target: median ≤ ${TARGET.fanoutMedian} ms)`,
    );
  }
  if (!onlyWatch && !flag('skip-memory')) {
    const m = await memory(loads);
    console.log(
      `\nmemory: ${fmt(memoryObjects)} ConfigMaps of ${fmt(m.objectBytes)} bytes each (as served) created in ${fmt(m.seconds, 1)} s (${fmt(m.opsPerSec)}/s, ${m.failed} failed);` +
        ` server VmRSS ${fmt(m.before.rss)} MB empty → ${fmt(m.after.rss)} MB, VmHWM ${fmt(m.after.hwm)} MB (target ≤ ${TARGET.rssMb} MB)`,
    );
  }
  for (const c of loads) c.send({ phase: 'exit' });
}

/** The throughput table: one row per phase, medians over the rounds. */
function printThroughput(throughputResults) {
  const rows = [];
  for (const name of ['create', 'update', 'delete']) {
    const k = throughputResults.kubetape[name];
    const c = throughputResults.ceiling[name];
    const kOps = median(k.map((x) => x.opsPerSec));
    const cOps = c.length ? median(c.map((x) => x.opsPerSec)) : NaN;
    const kCpu = median(k.map((x) => x.cpuUs));
    const cCpu = c.length ? median(c.map((x) => x.cpuUs)) : NaN;
    rows.push(
      `| ${name} | **${fmt(kCpu / cCpu, 1)}×** | ${fmt(kCpu)} | ${fmt(cCpu)} | ${fmt(1e6 / kCpu)} | ` +
        `${fmt(kOps)} | ${fmt(median(k.map((x) => x.p50)), 2)} / ${fmt(median(k.map((x) => x.p99)), 2)} ms | ` +
        `${fmt(cOps)} | ${fmt((100 * kOps) / cOps)} % | **${fmt(kOps / ANCHOR[name], 1)}×** | ${fmt(ANCHOR[name])} |` +
        (TARGET[name] ? ` ≥ ${fmt(TARGET[name])}/s, p99 ≤ ${TARGET.p99} ms` : ' –') +
        ' |',
    );
  }
  console.log(
    '\n| phase | server CPU per write vs the trivial server | kubetape CPU µs/write | trivial CPU µs/request | writes/s per core of server CPU |' +
      ' kubetape ops/s (median) | kubetape p50 / p99 | ceiling: trivial node:http, ops/s | kubetape / ceiling | vs apiserver | apiserver ops/s | target |',
  );
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const r of rows) console.log(r);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => stopAll());

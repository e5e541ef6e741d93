#!/usr/bin/env node
/**
 * Writes with managedFields tracked (issue 16 targets: server-side apply ≥ 5,000/s, strategic
 * merge patch ≥ 8,000/s; a real kube-apiserver v1.26 does ~1,590 plain ConfigMap creates/s on
 * this kind of machine). A ~3 KiB Deployment is applied (application/apply-patch+yaml, a JSON
 * body as kubectl sends) with a changed image each time, then strategic-merge-patched the same
 * way, against serve (empty cluster) in its own process; the same load against a trivial
 * node:http server that reads the body and answers a 3 KiB object gives the ceiling of the
 * load generator in the same run. The apply is forced (`kubectl apply --server-side
 * --force-conflicts`): after a round of patches the patcher owns the image, and the first apply
 * of the next round takes it back.
 *
 *   npm run build && node bench/serve-apply.js [--seconds 4] [--connections 16] [--threads 1]
 *     [--rounds 3] [--prof DIR]
 *
 * The load generator is wrk (a Lua script writes each request's body: the image tag carries a
 * counter), so that it costs far less CPU per request than the servers measured. Each phase also
 * reads the server process's CPU time (/proc/PID/stat, all threads, ticks of 10 ms) before and
 * after: server CPU µs per request holds on a machine shared with other work, where requests/s
 * does not; `1 core` is the rate that CPU cost allows one core. Rounds alternate between the
 * servers after a warm-up (not counted); the table shows each figure's median over `--rounds`.
 * `--prof DIR` runs serve under `node --cpu-prof` (a .cpuprofile in DIR when it stops).
 *
 * Prints a table; exits 1 when a target is missed.
 */
'use strict';
const http = require('node:http');
const { spawn } = require('node:child_process');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { opt, start, stopAll, cpuSeconds, OUT } = require('./harness');

const TARGETS = { apply: 5_000, smp: 8_000 };
const seconds = Number(opt('seconds', '4'));
const connections = Number(opt('connections', '16'));
const threads = Number(opt('threads', '1'));
const rounds = Number(opt('rounds', '3'));
const profDir = opt('prof');

// ---------------------------------------------------------------- child servers

if (process.argv[2] === '--child') {
  const runServer = require('./child-server');
  if (process.argv[3] === 'trivial') {
    const reply = Buffer.from(JSON.stringify({ kind: 'Deployment', pad: 'x'.repeat(3000) }));
    runServer(async () => {
      const server = http.createServer((req, res) => {
        req.on('data', () => {});
        req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': reply.length }).end(reply));
      });
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      return { port: server.address().port, close: () => new Promise((r) => server.close(r)) };
    });
  } else {
    const { serve } = require(join(__dirname, '..', 'dist', 'serve'));
    runServer(async () => {
      const api = await serve({ seed: 1, listen: '127.0.0.1:0' });
      return { port: Number(new URL(api.url).port), close: () => api.close() };
    });
  }
  return;
}

// ---------------------------------------------------------------- the Deployment

const env = Array.from({ length: 32 }, (_, k) => ({ name: `SETTING_${k}`, value: `value-${k}-${'v'.repeat(24)}` }));
function deployment(tag) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web', tier: 'frontend', team: 'bench' }, annotations: { description: 'd'.repeat(160) } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web', tier: 'frontend' } },
        spec: {
          containers: [
            {
              name: 'app',
              image: `registry.example.com/web:${tag}`,
              ports: [{ containerPort: 8080, name: 'http' }, { containerPort: 8443, name: 'https' }],
              env,
              resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
              readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5 },
              livenessProbe: { httpGet: { path: '/livez', port: 8080 }, periodSeconds: 10 },
            },
            { name: 'sidecar', image: 'busybox:1.36', args: ['sh', '-c', 'sleep infinity'] },
          ],
        },
      },
    },
  };
}
const smp = (tag) => ({ spec: { template: { spec: { containers: [{ name: 'app', image: `registry.example.com/web:${tag}` }] } } } });

// ---------------------------------------------------------------- load generator

function send(port, method, path, type, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const TAG = '@@TAG@@';
const luaString = (s) => `[==[${s}]==]`;

/**
 * A wrk script sending PATCHes of `type` to `path` whose body is `template` with TAG replaced by
 * `prefix.thread.counter`; done() prints the summary as one JSON line.
 */
function wrkScript(name, path, type, template, prefix) {
  const [head, tail] = template.split(TAG);
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `serve-apply-${name}.lua`);
  writeFileSync(
    file,
    `local head, tail = ${luaString(head)}, ${luaString(tail)}
local counter, id = 0, 0
local threads = {}
function setup(thread) id = id + 1; thread:set("id", id); table.insert(threads, thread) end
function request()
  counter = counter + 1
  return wrk.format("PATCH", ${luaString(path)}, { ["Content-Type"] = ${luaString(type)} }, head .. ${luaString(prefix)} .. "." .. id .. "." .. counter .. tail)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"us":%d,"status":%d,"socket":%d,"p50":%d,"p99":%d}\\n', summary.requests, summary.duration,
    e.status, e.connect + e.read + e.write + e.timeout, latency:percentile(50), latency:percentile(99)))
end
`,
  );
  return file;
}

/** One wrk run against `port`: requests/s, non-2xx answers, socket errors, latency, server CPU µs per request. */
function load(server, script, secs = seconds) {
  const cpu0 = cpuSeconds(server.child.pid);
  return new Promise((resolveRun, reject) => {
    const wrk = spawn('wrk', ['-t', String(threads), '-c', String(connections), '-d', `${secs}s`, '-s', script, `http://127.0.0.1:${server.port}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    wrk.stdout.on('data', (d) => (out += d));
    wrk.on('error', reject);
    wrk.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
      if (code !== 0 || !line) return reject(new Error(`wrk exited ${code}: ${out}`));
      const r = JSON.parse(line);
      // Work the server does after its last answer is counted too.
      setTimeout(() => {
        const cpuUs = ((cpuSeconds(server.child.pid) - cpu0) * 1e6) / r.requests;
        resolveRun({ rate: r.requests / (r.us / 1e6), requests: r.requests, failed: r.status + r.socket, p50: r.p50 / 1000, p99: r.p99 / 1000, cpuUs });
      }, 100);
    });
  });
}

// ---------------------------------------------------------------- run

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '–');

(async () => {
  const path = '/apis/apps/v1/namespaces/bench/deployments/web';
  const applyTemplate = JSON.stringify(deployment(TAG));
  const applyBody = applyTemplate.replace(TAG, '0');
  const scripts = {
    trivial: wrkScript('trivial', '/x', 'application/apply-patch+yaml', applyTemplate, '1'),
    apply: wrkScript('apply', `${path}?fieldManager=bench&force=true`, 'application/apply-patch+yaml', applyTemplate, '1'),
    smp: wrkScript('smp', `${path}?fieldManager=bench-smp`, 'application/strategic-merge-patch+json', JSON.stringify(smp(TAG)), '2'),
  };

  const trivial = await start(process.execPath, [__filename, '--child', 'trivial']);
  const node = profDir ? ['--cpu-prof', '--cpu-prof-dir', resolve(profDir)] : [];
  const served = await start(process.execPath, [...node, __filename, '--child', 'serve']);
  const ns = await send(served.port, 'POST', '/api/v1/namespaces', 'application/json', '{"metadata":{"name":"bench"}}');
  if (ns.status !== 201) throw new Error(`namespace: ${ns.status} ${ns.body}`);
  const created = await send(served.port, 'PATCH', `${path}?fieldManager=bench`, 'application/apply-patch+yaml', applyBody);
  if (created.status !== 201) throw new Error(`apply: ${created.status} ${created.body}`);
  const stored = JSON.parse(created.body);

  const phases = [
    ['trivial', trivial, scripts.trivial],
    ['apply', served, scripts.apply],
    ['smp', served, scripts.smp],
  ];
  const warm = Math.min(2, seconds);
  for (const [, server, script] of phases) await load(server, script, warm);
  const results = { trivial: [], apply: [], smp: [] };
  for (let r = 0; r < rounds; r++) {
    for (const [name, server, script] of phases) {
      const res = await load(server, script);
      results[name].push(res);
      console.log(`  round ${r + 1} ${name.padEnd(7)} ${fmt(res.rate).padStart(6)}/s  server CPU ${fmt(res.cpuUs).padStart(5)} µs/request  p50 ${fmt(res.p50, 2)} ms  p99 ${fmt(res.p99, 2)} ms  failed ${res.failed}`);
    }
  }
  const after = JSON.parse((await send(served.port, 'GET', path, 'application/json', '')).body);
  await stopAll();

  const summary = (name) => {
    const rs = results[name];
    return { rate: median(rs.map((x) => x.rate)), cpuUs: median(rs.map((x) => x.cpuUs)), p99: median(rs.map((x) => x.p99)), failed: rs.reduce((n, x) => n + x.failed, 0) };
  };
  const ceiling = summary('trivial');
  const rows = [
    ['trivial node:http server (the load generator’s ceiling)', ceiling, undefined],
    [`server-side apply, ${(applyBody.length / 1024).toFixed(1)} KiB body (${(created.body.length / 1024).toFixed(1)} KiB stored), changed image`, summary('apply'), TARGETS.apply],
    ['strategic merge patch of the same Deployment, changed image', summary('smp'), TARGETS.smp],
  ];
  console.log(
    `wrk -t${threads} -c${connections}, ${seconds} s × ${rounds} rounds (medians), load average ${require('node:os').loadavg()[0].toFixed(1)}; ` +
      `managedFields entries at the end: ${after.metadata.managedFields.map((e) => `${e.manager}/${e.operation}`).join(', ')} (created with ${stored.metadata.managedFields.length})`,
  );
  console.log('| workload | requests/s | of the trivial server | server CPU µs/request | at 1 core | p99 ms | failed | target |');
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|');
  let missed = false;
  for (const [name, s, target] of rows) {
    if (target && s.rate < target) missed = true;
    const share = name.startsWith('trivial') ? '100 %' : `${fmt((100 * s.rate) / ceiling.rate, 1)} %`;
    console.log(`| ${name} | ${fmt(s.rate)} | ${share} | ${fmt(s.cpuUs)} | ${fmt(1e6 / s.cpuUs)}/s | ${fmt(s.p99, 1)} | ${s.failed} | ${target ? `≥ ${fmt(target)}` : ''} |`);
  }
  process.exit(missed ? 1 : 0);
})().catch(async (err) => {
  console.error(err);
  await stopAll();
  process.exit(2);
});

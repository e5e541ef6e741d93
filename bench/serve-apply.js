#!/usr/bin/env node
/**
 * Writes with managedFields tracked (issue 16 targets: server-side apply ≥ 5,000/s, strategic
 * merge patch ≥ 8,000/s; a real kube-apiserver v1.26 does ~1,590 plain ConfigMap creates/s on
 * this kind of machine). A ~3 KiB Deployment is applied (application/apply-patch+yaml, a JSON
 * body as kubectl sends) with a changed image each time, then strategic-merge-patched the same
 * way, against serve (empty cluster) in its own process; the same load generator against a
 * trivial node:http server that reads the body and answers a 3 KiB object gives the ceiling of
 * the load generator in the same run.
 *
 *   npm run build && node bench/serve-apply.js [--seconds 5] [--connections 16]
 *
 * Prints a table; exits 1 when a target is missed.
 */
'use strict';
const http = require('node:http');
const { join } = require('node:path');
const { opt, start, stopAll } = require('./harness');

const TARGETS = { apply: 5_000, smp: 8_000 };
const seconds = Number(opt('seconds', '5'));
const connections = Number(opt('connections', '16'));

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
function deployment(i) {
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
              image: `registry.example.com/web:1.${i}`,
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
const smp = (i) => ({ spec: { template: { spec: { containers: [{ name: 'app', image: `registry.example.com/web:2.${i}` }] } } } });

// ---------------------------------------------------------------- load generator

function send(agent, port, method, path, type, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers: { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `connections` loops sending `next(i)` for `seconds`; returns requests/s and the statuses seen. */
async function load(port, next) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let i = 0;
  let done = 0;
  const statuses = {};
  const until = Date.now() + seconds * 1000;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const { method, path, type, body } = next(i++);
        const reply = await send(agent, port, method, path, type, body);
        statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
        done++;
      }
    }),
  );
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  agent.destroy();
  return { rate: done / secs, statuses };
}

// ---------------------------------------------------------------- run

(async () => {
  const rows = [];
  const trivial = await start(process.execPath, [__filename, '--child', 'trivial']);
  const applyBody = JSON.stringify(deployment(0));
  const ceiling = await load(trivial.port, (i) => ({ method: 'PATCH', path: '/x', type: 'application/apply-patch+yaml', body: JSON.stringify(deployment(i)) }));
  rows.push(['trivial node:http server (the load generator’s ceiling)', ceiling.rate, undefined, ceiling.statuses]);

  const served = await start(process.execPath, [__filename, '--child', 'serve']);
  const ns = await send(undefined, served.port, 'POST', '/api/v1/namespaces', 'application/json', '{"metadata":{"name":"bench"}}');
  if (ns.status !== 201) throw new Error(`namespace: ${ns.status} ${ns.body}`);
  const path = '/apis/apps/v1/namespaces/bench/deployments/web';
  const created = await send(undefined, served.port, 'PATCH', `${path}?fieldManager=bench`, 'application/apply-patch+yaml', applyBody);
  if (created.status !== 201) throw new Error(`apply: ${created.status} ${created.body}`);
  const stored = JSON.parse(created.body);
  const apply = await load(served.port, (i) => ({ method: 'PATCH', path: `${path}?fieldManager=bench`, type: 'application/apply-patch+yaml', body: JSON.stringify(deployment(i + 1)) }));
  rows.push([`server-side apply, ${(applyBody.length / 1024).toFixed(1)} KiB body (${(created.body.length / 1024).toFixed(1)} KiB stored), changed image`, apply.rate, TARGETS.apply, apply.statuses]);
  const patch = await load(served.port, (i) => ({ method: 'PATCH', path: `${path}?fieldManager=bench-smp`, type: 'application/strategic-merge-patch+json', body: JSON.stringify(smp(i)) }));
  rows.push(['strategic merge patch of the same Deployment, changed image', patch.rate, TARGETS.smp, patch.statuses]);
  const after = JSON.parse((await send(undefined, served.port, 'GET', path, 'application/json', '')).body);
  await stopAll();

  console.log(`${seconds} s each, ${connections} connections, managedFields entries at the end: ${after.metadata.managedFields.map((e) => `${e.manager}/${e.operation}`).join(', ')} (created with ${stored.metadata.managedFields.length})`);
  console.log('| workload | requests/s | target | statuses |');
  console.log('|---|--:|--:|---|');
  let missed = false;
  for (const [name, rate, target, statuses] of rows) {
    if (target && rate < target) missed = true;
    console.log(`| ${name} | ${Math.round(rate).toLocaleString('en')} | ${target ? `≥ ${target.toLocaleString('en')}` : ''} | ${JSON.stringify(statuses)} |`);
  }
  process.exit(missed ? 1 : 0);
})().catch(async (err) => {
  console.error(err);
  await stopAll();
  process.exit(2);
});

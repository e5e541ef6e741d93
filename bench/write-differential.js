#!/usr/bin/env node
/**
 * Differential check of the write path between two builds: the same seeded random sequence of
 * writes (server-side applies with and without force by three managers, strategic merge, merge
 * and JSON patches, /status patches, PUTs with and without the resourceVersion, creates that take
 * defaults, dry runs, deletes, GETs as JSON, Table and protobuf; Deployments, Pods, Services,
 * ConfigMaps and a custom resource; unknown fields under every fieldValidation) against an empty
 * serve of each build, with a fixed serve seed and a store clock that moves 1 s per request.
 * Every answer (status, headers but Date and Audit-Id, body) must be byte-identical.
 * `--mix patches`: mostly patches of objects that exist (applies, strategic merge patches with
 * directives, hostNetwork and metadata-only changes, merge and JSON patches, custom resources'
 * patches with unknown and `__proto__` members), for the paths that share the stored object.
 *
 *   npm run build && node bench/write-differential.js --base DIR [--requests 1000] [--seeds 1,2,3] [--mix patches]
 *
 * DIR is another checkout of the repository, built (its dist/ is used), e.g. made by
 * `git worktree add /tmp/base <commit>` with node_modules linked. Exits 1 at the first difference
 * (printed with the request before it).
 */
'use strict';
const http = require('node:http');
const { execFileSync } = require('node:child_process');
const { join, resolve } = require('node:path');

if (process.argv[2] === '--child') return void child(process.argv[3], Number(process.argv[4]), Number(process.argv[5]), process.argv[6]);

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const base = opt('base');
if (!base) {
  console.error('usage: node bench/write-differential.js --base DIR [--requests 1000] [--seeds 1,2,3] [--mix patches]');
  process.exit(2);
}
const requests = Number(opt('requests', '1000'));
const seeds = opt('seeds', '1,2,3').split(',').map(Number);
const mix = opt('mix', 'all');
let failed = false;
for (const seed of seeds) {
  const run = (dist) => execFileSync(process.execPath, [__filename, '--child', dist, String(seed), String(requests), mix], { maxBuffer: 1 << 30 }).toString().split('\n----\n');
  const a = run(resolve(base, 'dist'));
  const b = run(join(__dirname, '..', 'dist'));
  const at = a.findIndex((x, i) => x !== b[i]);
  if (at < 0 && a.length === b.length) {
    console.log(`seed ${seed}: ${a.length} answers, all identical`);
    continue;
  }
  failed = true;
  console.log(`seed ${seed}: answer ${at} differs\n--- base\n${a[at]}\n--- this build\n${b[at]}`);
}
process.exit(failed ? 1 : 0);

function child(dist, seed, n, mix) {
  let s = seed;
  const rnd = () => { s |= 0; s = (s + 0x6d2b79f5) | 0; let t = Math.imul(s ^ (s >>> 15), 1 | s); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  let ms = Date.UTC(2023, 10, 14, 22, 13, 20);
  const clock = { now: () => ms };
  const { serve } = require(join(dist, 'serve'));
  const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'routes.net.example.com' }, spec: { group: 'net.example.com', scope: 'Namespaced', names: { plural: 'routes', singular: 'route', kind: 'Route', listKind: 'RouteList' }, versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string', default: 'blue' }, ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } } }, hosts: { type: 'array', items: { type: 'string' } } } }, status: { type: 'object', properties: { ready: { type: 'boolean' } } } } } } }] } };
  const managers = ['m1', 'm2', 'kubectl'];
  const names = ['a', 'b', 'c'];
  const img = () => `nginx:1.${Math.floor(rnd() * 6)}`;
  function container(k) {
    const c = { name: pick(['app', 'side', 'init']), image: img() };
    if (rnd() < 0.5) c.ports = [{ containerPort: pick([80, 8080, 9090]), protocol: pick(['TCP', undefined]) }].map((p) => JSON.parse(JSON.stringify(p)));
    if (rnd() < 0.4) c.env = Array.from({ length: Math.floor(rnd() * 4) }, (_, i) => ({ name: `E${pick([0, 1, 2, 3])}`, value: `v${k}${i}` }));
    if (rnd() < 0.2) c.resources = { limits: { cpu: pick(['100m', '1', '0.5']) } };
    if (rnd() < 0.1) c.imagee = 'x';
    if (rnd() < 0.1) c.bogus = { a: 1 };
    return c;
  }
  function deploy(name) {
    const labels = { app: name };
    if (rnd() < 0.5) labels[pick(['tier', 'team', 'x'])] = pick(['a', 'b']);
    const d = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels } };
    if (rnd() < 0.3) d.metadata.annotations = { note: pick(['x', 'y', 'z']) };
    const spec = {};
    if (rnd() < 0.7) spec.replicas = pick([1, 2, 3]);
    if (rnd() < 0.8) spec.selector = { matchLabels: { app: name } };
    if (rnd() < 0.9) spec.template = { metadata: { labels: { app: name } }, spec: { containers: Array.from({ length: 1 + Math.floor(rnd() * 2) }, (_, k) => container(k)) } };
    if (rnd() < 0.2) spec.strategy = { type: pick(['Recreate', 'RollingUpdate']) };
    if (rnd() < 0.1) spec.unknownField = 1;
    if (rnd() < 0.1) { spec.unknownTwo = 2; d.metadata.bogus = 'b'; }
    d.spec = spec;
    return d;
  }
  function pod(name) { return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: pick(['p', 'q']) } }, spec: { containers: [container(0)], ...(rnd() < 0.3 ? { restartPolicy: 'Never' } : {}) } }; }
  function svc(name) { return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: { app: 'x' }, ports: [{ port: pick([80, 443]), ...(rnd() < 0.5 ? { name: 'p' } : {}) }], ...(rnd() < 0.3 ? { type: 'NodePort' } : {}) } }; }
  function cm(name) { const data = {}; for (let i = 0; i < 1 + Math.floor(rnd() * 3); i++) data[pick(['a', 'b', 'c'])] = img(); return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }; }
  function route(name) { const spec = {}; if (rnd() < 0.5) spec.color = pick(['red', 'green']); spec.ports = [{ name: pick(['http', 'm']), port: pick([80, 90]) }]; if (rnd() < 0.4) spec.hosts = [pick(['x', 'y'])]; return { apiVersion: 'net.example.com/v1', kind: 'Route', metadata: { name }, spec }; }
  const kinds = [
    { base: '/apis/apps/v1/namespaces/default/deployments', make: deploy, status: { status: { replicas: 2, observedGeneration: 1 } } },
    { base: '/api/v1/namespaces/default/pods', make: pod, status: { status: { phase: 'Running' } } },
    { base: '/api/v1/namespaces/default/services', make: svc, status: { status: { loadBalancer: {} } } },
    { base: '/api/v1/namespaces/default/configmaps', make: cm },
    { base: '/apis/net.example.com/v1/namespaces/default/routes', make: route, status: { status: { ready: true } }, custom: true },
  ];

  (async () => {
    const api = await serve({ seed: 7, storeClock: clock, listen: '127.0.0.1:0' });
    const port = Number(new URL(api.url).port);
    const out = [];
    const log = async (label, ...a) => { ms += 1000; out.push(`${label}\n${await req(port, ...a)}`); };
    await log('crd', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(CRD), 'application/json');
    while (!(await req(port, 'GET', '/apis/net.example.com/v1/namespaces/default/routes')).startsWith('200')) await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; i < n; i++) {
      const k = pick(kinds); const name = pick(names); const path = `${k.base}/${name}`;
      if (mix === 'patches' && rnd() < 0.5) {
        await patchOf(i, k, name, path);
        continue;
      }
      const r = rnd();
      const fv = pick(['', '&fieldValidation=Strict', '&fieldValidation=Warn', '&fieldValidation=Ignore']);
      const dry = rnd() < 0.05 ? '&dryRun=All' : '';
      if (r < 0.3) {
        const obj = k.make(name); const mgr = pick(managers);
        if (rnd() < 0.05) obj.metadata.managedFields = [];
        await log(`apply ${i}`, 'PATCH', `${path}?fieldManager=${mgr}${rnd() < 0.5 ? '&force=true' : ''}${fv}${dry}`, JSON.stringify(obj), 'application/apply-patch+yaml');
      } else if (r < 0.45) {
        const obj = k.make(name); delete obj.apiVersion; delete obj.kind;
        if (rnd() < 0.3) obj.metadata = { labels: { z: pick(['1', '2']) } };
        await log(`smp ${i}`, 'PATCH', `${path}?fieldManager=${pick(managers)}${fv}${dry}`, JSON.stringify(obj), 'application/strategic-merge-patch+json');
      } else if (r < 0.55) {
        const patch = rnd() < 0.5 ? { metadata: { labels: { y: pick(['1', null]) } } } : { spec: k.make(name).spec };
        await log(`merge ${i}`, 'PATCH', `${path}?x=1${fv}${dry}`, JSON.stringify(patch), 'application/merge-patch+json');
      } else if (r < 0.62) {
        const ops = pick([[{ op: 'add', path: '/metadata/labels', value: { j: 'k' } }], [{ op: 'replace', path: '/metadata/labels/app', value: 'zz' }], [{ op: 'remove', path: '/spec/replicas' }], [{ op: 'test', path: '/metadata/name', value: name }, { op: 'add', path: '/metadata/annotations', value: { a: 'b' } }]]);
        await log(`json ${i}`, 'PATCH', `${path}?x=1${dry}`, JSON.stringify(ops), 'application/json-patch+json');
      } else if (r < 0.7 && k.status) {
        const ct = pick(['application/merge-patch+json', 'application/apply-patch+yaml', 'application/strategic-merge-patch+json']);
        const body = ct.includes('apply') ? { apiVersion: k.make(name).apiVersion, kind: k.make(name).kind, metadata: { name }, ...k.status } : k.status;
        await log(`status ${i}`, 'PATCH', `${path}/status?fieldManager=${pick(managers)}${ct.includes('apply') && rnd() < 0.5 ? '&force=true' : ''}`, JSON.stringify(body), ct);
      } else if (r < 0.8) {
        const obj = k.make(name);
        const withRv = rnd() < 0.5;
        if (withRv) { const g = await req(port, 'GET', path); const b = g.split('\n').pop(); try { obj.metadata.resourceVersion = JSON.parse(b).metadata.resourceVersion; } catch {} }
        await log(`put ${i}`, 'PUT', `${path}?fieldManager=${pick(managers)}${fv}${dry}`, JSON.stringify(obj), 'application/json');
      } else if (r < 0.9) {
        await log(`create ${i}`, 'POST', `${k.base}?fieldManager=${pick(managers)}${fv}${dry}`, JSON.stringify(k.make(name)), 'application/json');
      } else if (r < 0.95) {
        await log(`get ${i}`, 'GET', path, undefined, undefined, pick([undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/vnd.kubernetes.protobuf']));
      } else {
        await log(`delete ${i}`, 'DELETE', `${path}${dry ? '?dryRun=All' : ''}`);
      }
    }
    await log('list', 'GET', '/apis/apps/v1/deployments');
    await log('list', 'GET', '/apis/net.example.com/v1/routes');

    /** A patch of an object that (most likely) exists: the shapes that meet shared subtrees and defaults. */
    async function patchOf(i, k, name, path) {
      const fv = pick(['', '&fieldValidation=Strict', '&fieldValidation=Warn']);
      const mgr = pick(managers);
      const r = rnd();
      if (r < 0.15) {
        // Make sure it exists.
        await log(`apply+ ${i}`, 'PATCH', `${path}?fieldManager=${mgr}&force=true`, JSON.stringify(k.make(name)), 'application/apply-patch+yaml');
      } else if (k.custom) {
        const body = pick([
          '{"spec":{"__proto__":{"color":"red"},"color":"green"}}',
          '{"spec":{"ports":[{"name":"http","port":81,"extra":1}],"bogus":true}}',
          '{"metadata":{"labels":{"__proto__":"x","l":"1"}},"spec":{"hosts":null}}',
          '{"spec":{"color":null}}',
        ]);
        const ct = pick(['application/merge-patch+json', 'application/apply-patch+yaml', 'application/strategic-merge-patch+json']);
        const text = ct.includes('apply') ? `{"apiVersion":"net.example.com/v1","kind":"Route","metadata":{"name":"${name}"},${body.slice(1)}` : body;
        await log(`cr-patch ${i}`, 'PATCH', `${path}?fieldManager=${mgr}${rnd() < 0.5 ? '&force=true' : ''}${fv}`, text, ct);
      } else if (r < 0.6) {
        const c = pick(['app', 'side', 'init']);
        const pod = k.base.includes('deployments') ? (s) => ({ spec: { template: { spec: s } } }) : (s) => ({ spec: s });
        const patch = pick([
          pod({ hostNetwork: true }),
          pod({ hostNetwork: false, containers: [{ name: c, image: img() }] }),
          pod({ containers: [{ name: c, ports: [{ containerPort: 8080, $patch: 'delete' }] }] }),
          pod({ '$setElementOrder/containers': [{ name: 'side' }, { name: 'app' }], containers: [{ name: 'app', image: img() }] }),
          pod({ containers: [{ name: c, $patch: 'delete' }] }),
          pod({ containers: [{ name: c, env: [{ name: 'E1', value: 'q' }], resources: { limits: { memory: '1Gi' } } }] }),
          pod({ volumes: [{ name: 'v', configMap: { name: 'x' } }], containers: [{ name: c, volumeMounts: [{ name: 'v', mountPath: '/v' }] }] }),
          { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
          { spec: { replicas: pick([1, 2, null]) } },
          { metadata: { labels: { app: null, tier: pick(['a', 'b']) }, annotations: { n: pick(['1', '2']) } } },
          { metadata: { labels: { '<a&b>': 'x' } } },
          { spec: { ports: [{ port: 80, targetPort: 8080 }] } },
          { data: { a: pick(['1', null]) } },
          {},
        ]);
        await log(`smp+ ${i}`, 'PATCH', `${path}?fieldManager=${mgr}${fv}`, JSON.stringify(patch), 'application/strategic-merge-patch+json');
      } else if (r < 0.85) {
        const obj = k.make(name);
        if (rnd() < 0.5 && obj.spec?.template) obj.spec.template.spec.hostNetwork = true;
        await log(`apply ${i}`, 'PATCH', `${path}?fieldManager=${mgr}${rnd() < 0.7 ? '&force=true' : ''}${fv}`, JSON.stringify(obj), 'application/apply-patch+yaml');
      } else {
        await log(`merge+ ${i}`, 'PATCH', `${path}?x=1${fv}`, JSON.stringify(pick([{ metadata: { labels: { m: pick(['1', null]) } } }, { spec: { replicas: 2 } }])), 'application/merge-patch+json');
      }
    }
    process.stdout.write(out.join('\n----\n'), () => api.close().then(() => process.exit(0)));
  })().catch((e) => { console.error(e); process.exit(1); });
}

function req(port, method, path, body, ct, accept) {
  return new Promise((resolve, reject) => {
    const headers = {};
    if (body !== undefined) { headers['Content-Type'] = ct; headers['Content-Length'] = Buffer.byteLength(body); }
    if (accept) headers.Accept = accept;
    const r = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const h = Object.entries(res.headers).filter(([k]) => k !== 'date' && k !== 'audit-id').map(([k, v]) => `${k}: ${v}`).join('\n');
        resolve(`${res.statusCode}\n${h}\n${Buffer.concat(chunks).toString('latin1')}`);
      });
    });
    r.on('error', reject);
    if (body !== undefined) r.write(body);
    r.end();
  });
}

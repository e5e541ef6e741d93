#!/usr/bin/env node
/**
 * The cost of the built-in spec validation serve runs on every write of a Deployment (create and
 * update rules, after defaulting): a 3 KiB Deployment with three containers (ports, env, resources,
 * a probe, a volume mount), validated in a loop after a warm-up, in this process.
 *
 *   npm run build && node bench/validate.js [--iterations 50000] [--rounds 3]
 */
'use strict';
const { join } = require('node:path');
const { opt } = require('./harness');

const dist = join(__dirname, '..', 'dist', 'k8s');
const { validateBuiltinSpec, validateBuiltinSpecUpdate } = require(join(dist, 'builtin-validation'));
const { applyDefaults } = require(join(dist, 'object-defaults'));

const iterations = Number(opt('iterations', 50000));
const rounds = Number(opt('rounds', 3));

const containers = Array.from({ length: 3 }, (_, i) => ({
  name: `c${i}`,
  image: `registry.example.com/app:1.${i}`,
  ports: [{ containerPort: 8080 + i, name: `http-${i}` }],
  env: Array.from({ length: 8 }, (_, j) => ({ name: `SETTING_${j}`, value: 'x'.repeat(20) })),
  resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '1', memory: '1Gi' } },
  readinessProbe: { httpGet: { path: '/healthz', port: 8080 + i } },
  volumeMounts: [{ name: 'config', mountPath: '/etc/app' }],
}));
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers, volumes: [{ name: 'config', configMap: { name: 'app' } }] } } },
};
applyDefaults('Deployment', deployment);
const errors = validateBuiltinSpec('Deployment', deployment);
if (errors.length > 0) throw new Error(`the benchmark's Deployment is invalid: ${JSON.stringify(errors)}`);

const phases = { create: () => validateBuiltinSpec('Deployment', deployment), update: () => validateBuiltinSpecUpdate('Deployment', deployment, deployment) };
console.log(`validation of a ${JSON.stringify(deployment).length}-byte Deployment, ${iterations} iterations × ${rounds} rounds (µs each, per round)`);
for (const [name, run] of Object.entries(phases)) {
  for (let i = 0; i < iterations / 2; i++) run();
  const figures = [];
  for (let r = 0; r < rounds; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) run();
    figures.push(Number(process.hrtime.bigint() - t) / iterations / 1000);
  }
  console.log(`${name}: ${figures.map((f) => f.toFixed(1)).join(' ')}`);
}

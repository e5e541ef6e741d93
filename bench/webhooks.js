#!/usr/bin/env node
/**
 * What an admission webhook costs a write: ConfigMap creates one at a time (a Node client,
 * keep-alive) against an empty serve in this process, first without webhooks, then with one
 * validating webhook (HTTPS on 127.0.0.1, the test certificate in test/fixtures/webhook-tls)
 * that allows everything; ms per create for each, median of the rounds.
 *
 *   npm run build && node bench/webhooks.js [--writes 300] [--rounds 3]
 */
'use strict';
const https = require('node:https');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { opt } = require('./harness');

const { serve } = require(join(__dirname, '..', 'dist', 'serve'));
const TLS = join(__dirname, '..', 'test', 'fixtures', 'webhook-tls');
const writes = Number(opt('writes', 300));
const rounds = Number(opt('rounds', 3));

async function main() {
  const webhook = https.createServer({ cert: readFileSync(join(TLS, 'server.crt')), key: readFileSync(join(TLS, 'server.key')) }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: review.kind, response: { uid: review.request.uid, allowed: true } }));
    });
  });
  await new Promise((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  const api = await serve({ seed: 1 });
  const post = (path, body) => fetch(`${api.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  let n = 0;
  const createAll = async (count) => {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      const r = await post('/api/v1/namespaces/default/configmaps', { metadata: { name: `cm-${n++}` }, data: { a: '1' } });
      if (r.status !== 201) throw new Error(`create: ${r.status} ${await r.text()}`);
    }
    return (performance.now() - t0) / count;
  };
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const measure = async () => {
    await createAll(50);
    const times = [];
    for (let r = 0; r < rounds; r++) times.push(await createAll(writes));
    return median(times);
  };
  const plain = await measure();
  const config = await post('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
    metadata: { name: 'bench' },
    webhooks: [{
      name: 'bench.example.com',
      clientConfig: { url: `https://127.0.0.1:${webhook.address().port}/validate`, caBundle: readFileSync(join(TLS, 'ca.crt')).toString('base64') },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    }],
  });
  if (config.status !== 201) throw new Error(`webhook configuration: ${config.status}`);
  const hooked = await measure();
  console.log(`creates, one at a time: ${plain.toFixed(2)} ms without webhooks, ${hooked.toFixed(2)} ms with one validating webhook (+${(hooked - plain).toFixed(2)} ms per call)`);
  await api.close();
  webhook.closeAllConnections();
  webhook.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

#!/usr/bin/env node
'use strict';
/**
 * Builds data/builtin-api/ — what `kubetape serve` without a recording answers for discovery
 * and OpenAPI — from the answers a real kube-apiserver v1.26 gave (../shared/reference/discovery/
 * and openapi/, each with an INDEX.tsv of url, Accept, status and content type):
 *
 *   discovery.json.gz     { legacy: {"/apis": doc, "/api/v1": doc, "/apis/G/V": doc …},
 *                           aggregated: {"/api": doc, "/apis": doc} }   (apidiscovery.k8s.io/v2beta1,
 *                           the documents served with the AggregatedDiscoveryEndpoint gate on)
 *   openapi.json          { gitVersion, v2: {etag}, v3: the /openapi/v3 index as served }
 *   openapi-v2.json.gz    /openapi/v2, the bytes as served
 *   openapi-v3/P.json.gz  /openapi/v3/P for every path P of the index ("/" written "__"), as served
 *
 * `/api` (APIVersions) is left out: it names the address of the server that answered, so serve
 * builds it from its own. OpenAPI bytes are kept exactly (their hashes are the index's and the
 * ETags); discovery documents must re-serialise to the bytes served, which this script checks.
 *
 *   node scripts/build-builtin-api.js [REFERENCE_DIR]   (default ../shared/reference beside the repo)
 */
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync, statSync } = require('node:fs');
const path = require('node:path');
const { gzipSync } = require('node:zlib');

const repo = path.join(__dirname, '..');
const reference = path.resolve(process.argv[2] ?? path.join(repo, '..', '..', 'shared', 'reference'));
const out = path.join(repo, 'data', 'builtin-api');

const AGGREGATED_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

function readIndex(dir) {
  const [header, ...lines] = readFileSync(path.join(dir, 'INDEX.tsv'), 'utf8').trim().split('\n');
  const names = header.split('\t');
  return lines.map((line) => Object.fromEntries(line.split('\t').map((v, i) => [names[i], v])));
}

function fail(message) {
  console.error(`build-builtin-api: ${message}`);
  process.exit(1);
}

function sha512(bytes) {
  return createHash('sha512').update(bytes).digest('hex').toUpperCase();
}

function gzip(bytes) {
  return gzipSync(bytes, { level: 9 });
}

/** A discovery document as data: parsed, and checked to re-serialise to the bytes served. */
function discoveryDoc(file) {
  const bytes = readFileSync(path.join(reference, file), 'utf8');
  const doc = JSON.parse(bytes);
  if (JSON.stringify(doc) + '\n' !== bytes) fail(`${file}: does not re-serialise to the bytes served`);
  return doc;
}

// ------------------------------------------------------------------ discovery

const legacy = {};
const aggregated = {};
for (const row of readIndex(path.join(reference, 'discovery'))) {
  if (row.status !== '200') continue;
  if (row['content-type'] === 'application/json' && row.accept === 'application/json') {
    if (row.url !== '/api') legacy[row.url] = discoveryDoc(row.file);
  } else if (row['content-type'] === AGGREGATED_TYPE && row.accept === AGGREGATED_TYPE) {
    aggregated[row.url] = discoveryDoc(row.file);
  }
}
if (!legacy['/apis'] || !legacy['/api/v1']) fail('the reference has no /apis or /api/v1');
if (!aggregated['/api'] || !aggregated['/apis']) fail('the reference has no aggregated /api or /apis (feature gate on)');
for (const group of legacy['/apis'].groups) {
  for (const v of group.versions) if (!legacy[`/apis/${v.groupVersion}`]) fail(`no /apis/${v.groupVersion} in the reference`);
}

// ------------------------------------------------------------------ OpenAPI

const openapiRows = readIndex(path.join(reference, 'openapi'));
const fileOf = (url) => {
  const row = openapiRows.find((r) => r.url === url && r.status === '200');
  if (!row) fail(`no 200 answer for ${url} in openapi/INDEX.tsv`);
  return path.join(reference, row.file);
};
const v2 = readFileSync(fileOf('/openapi/v2'));
const v2Info = JSON.parse(v2).info;
const v3IndexBytes = readFileSync(fileOf('/openapi/v3'));
const v3Index = JSON.parse(v3IndexBytes);
const v3Docs = {};
for (const [p, entry] of Object.entries(v3Index.paths)) {
  const bytes = readFileSync(fileOf(entry.serverRelativeURL));
  const hash = new URL(entry.serverRelativeURL, 'http://x').searchParams.get('hash');
  if (sha512(bytes) !== hash) fail(`/openapi/v3/${p}: its bytes do not hash to the index's ${hash.slice(0, 12)}…`);
  v3Docs[p] = bytes;
}

// ------------------------------------------------------------------ write

rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, 'openapi-v3'), { recursive: true });
writeFileSync(path.join(out, 'discovery.json.gz'), gzip(Buffer.from(JSON.stringify({ legacy, aggregated }))));
writeFileSync(
  path.join(out, 'openapi.json'),
  JSON.stringify({ gitVersion: v2Info.version, v2: { etag: sha512(v2) }, v3: v3Index }),
);
writeFileSync(path.join(out, 'openapi-v2.json.gz'), gzip(v2));
for (const [p, bytes] of Object.entries(v3Docs)) writeFileSync(path.join(out, 'openapi-v3', `${p.replace(/\//g, '__')}.json.gz`), gzip(bytes));

let total = 0;
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else total += statSync(full).size;
  }
};
walk(out);
const resources = Object.values(aggregated).flatMap((d) => d.items.flatMap((g) => g.versions.flatMap((v) => v.resources)));
console.log(
  `data/builtin-api: ${Object.keys(legacy).length} legacy and ${Object.keys(aggregated).length} aggregated discovery documents ` +
    `(${resources.length} resources), OpenAPI v2 and ${Object.keys(v3Docs).length} v3 documents of ${v2Info.version}; ${(total / 1024).toFixed(0)} KiB`,
);

#!/usr/bin/env node
'use strict';
/**
 * Builds data/builtin-api/protobuf.json.gz — the protobuf field numbers of the built-in
 * Kubernetes types, which OpenAPI does not carry — from the file descriptors a kubectl binary
 * embeds (every `k8s.io/…/generated.proto` is registered in it as a gzipped
 * FileDescriptorProto). The output, per message: its fields as
 * [jsonName, number, protoType, repeated 0|1, typeName|0, nonNullable 0|1]
 * (nonNullable: gogoproto.nullable=false, a Go value field that is always on the wire; jsonName
 * as the shipped OpenAPI names the property, '' for an embedded struct whose fields are inlined),
 * `mapEntry` messages as {map: [keyField, valueField]}; and `kinds`: "group/version/Kind"
 * (core: "/v1/Kind") → message name, for the kinds the shipped discovery serves.
 *
 *   node scripts/build-builtin-protobuf.js [KUBECTL_BINARY]   (default: kubectl on PATH)
 */
const { execFileSync } = require('node:child_process');
const { readFileSync, writeFileSync, realpathSync } = require('node:fs');
const path = require('node:path');
const { gunzipSync, gzipSync, constants } = require('node:zlib');

const repo = path.join(__dirname, '..');
const out = path.join(repo, 'data', 'builtin-api');
const binary = realpathSync(process.argv[2] ?? execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim());

function fail(message) {
  console.error(`build-builtin-protobuf: ${message}`);
  process.exit(1);
}

// ------------------------------------------------------------------ wire reading
function varint(buf, pos) {
  let v = 0, mul = 1, b;
  do {
    b = buf[pos++];
    v += (b & 0x7f) * mul;
    mul *= 128;
  } while (b >= 0x80);
  return [v, pos];
}

function fields(buf) {
  const res = [];
  let pos = 0;
  while (pos < buf.length) {
    let tag;
    [tag, pos] = varint(buf, pos);
    const no = Math.floor(tag / 8), wire = tag & 7;
    if (wire === 0) { let v; [v, pos] = varint(buf, pos); res.push({ no, v }); }
    else if (wire === 2) { let len; [len, pos] = varint(buf, pos); res.push({ no, b: buf.subarray(pos, pos + len) }); pos += len; }
    else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else throw new Error(`wire type ${wire}`);
  }
  return res;
}

const str = (f) => f.b.toString('utf8');

// ------------------------------------------------------------------ descriptors
function* gzipStreams(bin) {
  const magic = Buffer.from([0x1f, 0x8b, 0x08]);
  for (let i = bin.indexOf(magic); i >= 0; i = bin.indexOf(magic, i + 1)) {
    try {
      yield gunzipSync(bin.subarray(i, i + 4_000_000), { finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      // not a gzip stream
    }
  }
}

const messages = {};

function addMessage(prefix, buf) {
  const fs = fields(buf);
  const name = `${prefix}.${str(fs.find((f) => f.no === 1))}`;
  const opts = fs.find((f) => f.no === 7);
  const mapEntry = opts ? fields(opts.b).some((f) => f.no === 7 && f.v === 1) : false;
  const list = [];
  for (const f of fs) {
    if (f.no === 3) addMessage(name, f.b);
    if (f.no !== 2) continue;
    const ff = fields(f.b);
    const get = (no) => ff.find((x) => x.no === no);
    const options = get(8) ? fields(get(8).b) : [];
    const nonNullable = options.some((o) => o.no === 65001 && o.v === 0) ? 1 : 0;
    const typeName = get(6) ? str(get(6)).replace(/^\./, '') : 0;
    list.push([str(get(10) ?? get(1)), get(3).v, get(5).v, get(4).v === 3 ? 1 : 0, typeName, nonNullable]);
  }
  messages[name] = mapEntry ? { map: list } : { fields: list };
}

const bin = readFileSync(binary);
const files = new Set();
for (const fd of gzipStreams(bin)) {
  if (fd[0] !== 0x0a) continue;
  const fs = fields(fd);
  const name = str(fs[0]);
  if (!/^k8s\.io\/.*generated\.proto$/.test(name) || files.has(name)) continue;
  files.add(name);
  const pkg = str(fs.find((f) => f.no === 2));
  for (const f of fs) if (f.no === 4) addMessage(pkg, f.b);
}
if (!messages['k8s.io.api.core.v1.ConfigMap'] || !messages['k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta']) fail(`${binary}: no Kubernetes descriptors found`);

// ------------------------------------------------------------------ JSON names from the OpenAPI
// A descriptor's json_name is protoc's camel case of the Go field name (`UID` → `uID`) and knows
// nothing of Go's `json:",inline"` embedding. Where the shipped OpenAPI defines the message, a
// field takes the property name that differs only in case (`uid`, `apiGroup`, `webhooks`), and an
// embedded struct (a value message field whose own fields are the parent's properties: Volume's
// VolumeSource, Probe's ProbeHandler, the LocalObjectReference of a key selector) gets the
// json name '' — the transcoders then read and write its fields as the parent's.
const openapi = JSON.parse(gunzipSync(readFileSync(path.join(out, 'openapi-v2.json.gz'))).toString('utf8')).definitions;
const definitionOf = (message) => openapi[message.replace(/^k8s\.io\./, 'io.k8s.')];
let renamed = 0;
let inlined = 0;
for (const [name, message] of Object.entries(messages)) {
  const props = definitionOf(name)?.properties;
  if (!props || !message.fields) continue;
  const names = Object.keys(props);
  for (const f of message.fields) {
    if (f[0] in props) continue;
    const sameLetters = names.find((p) => p.toLowerCase() === f[0].toLowerCase());
    if (sameLetters) {
      f[0] = sameLetters;
      renamed++;
      continue;
    }
    const embedded = f[2] === 11 && f[3] === 0 && f[5] === 1 ? messages[f[4]]?.fields : undefined;
    if (embedded?.some(([json]) => json in props)) {
      f[0] = '';
      inlined++;
    }
  }
}

// ------------------------------------------------------------------ kinds served
const discovery = JSON.parse(gunzipSync(readFileSync(path.join(out, 'discovery.json.gz'))).toString('utf8'));
const kinds = {};
const missing = [];
for (const [url, doc] of Object.entries(discovery.legacy)) {
  if (!doc.groupVersion) continue;
  const [group, version] = doc.groupVersion.includes('/') ? doc.groupVersion.split('/') : ['', doc.groupVersion];
  for (const r of doc.resources) {
    // Subresources of another kind (deployments/scale: autoscaling/v1 Scale) name its group and version.
    const [g, v] = r.name.includes('/') ? [r.group ?? group, r.version ?? version] : [group, version];
    const l = g === '' ? 'core' : g === 'internal.apiserver.k8s.io' ? 'apiserverinternal' : g.split('.')[0];
    const key = `${g}/${v}/${r.kind}`;
    if (kinds[key] || (r.name.includes('/') && g === group && v === version)) continue;
    const message = [`k8s.io.api.${l}.${v}.${r.kind}`, `k8s.io.${l}.pkg.apis.${l}.${v}.${r.kind}`].find((m) => messages[m]);
    if (message) kinds[key] = message;
    else missing.push(`${url} ${r.name} ${r.kind}`);
  }
}

const data = Buffer.from(JSON.stringify({ source: path.basename(binary), kinds, messages }));
writeFileSync(path.join(out, 'protobuf.json.gz'), gzipSync(data, { level: 9 }));
console.log(`build-builtin-protobuf: ${files.size} descriptor files, ${Object.keys(messages).length} messages (${renamed} json names from the OpenAPI, ${inlined} embedded structs), ${Object.keys(kinds).length} kinds; without a descriptor: ${missing.join(', ') || 'none'}`);

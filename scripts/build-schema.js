#!/usr/bin/env node
'use strict';
/**
 * Builds data/builtin-api/schema.json.gz — the compact API schema `src/schema/` reads — from the
 * OpenAPI documents shipped in data/builtin-api/ (made by scripts/build-builtin-api.js): every
 * component schema of the OpenAPI v3 documents (they carry `default`s), and the v2 definitions
 * the v3 documents lack (apiregistration's APIService).
 *
 *   { version: 1,
 *     definitions: { NAME: NODE },
 *     kinds: { "APIVERSION/KIND": NAME } }        (from x-kubernetes-group-version-kind)
 *
 * NODE keeps what the code needs, descriptions dropped:
 *   type          object | map | array | string | integer | number | boolean | int-or-string |
 *                 quantity | any    (absent when `ref` is given)
 *   ref           the definition NAME the node stands for (field-level keys below override it)
 *   format        int32, int64, double, byte, date-time …
 *   properties    { field: NODE }   (object)
 *   items         NODE              (array)
 *   values        NODE              (map: additionalProperties)
 *   required, default, enum
 *   patchStrategy, patchMergeKey, listType, listMapKeys, mapType, preserveUnknownFields,
 *   embeddedResource, unions       (the x-kubernetes-* extensions)
 *
 *   node scripts/build-schema.js
 */
const { readFileSync, readdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { gunzipSync, gzipSync } = require('node:zlib');

const dir = path.join(__dirname, '..', 'data', 'builtin-api');
const readGz = (file) => JSON.parse(gunzipSync(readFileSync(path.join(dir, file))).toString('utf8'));

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

const raw = {};
for (const file of readdirSync(path.join(dir, 'openapi-v3')).sort()) {
  const doc = readGz(path.join('openapi-v3', file));
  for (const [name, def] of Object.entries(doc.components?.schemas ?? {})) {
    if (raw[name] && JSON.stringify(raw[name]) !== JSON.stringify(def)) throw new Error(`${name}: differs between v3 documents`);
    raw[name] = def;
  }
}
const v2 = readGz('openapi-v2.json.gz').definitions;
for (const [name, def] of Object.entries(v2)) raw[name] ??= def;

const refName = (ref) => ref.replace(/^#\/(components\/schemas|definitions)\//, '');

const EXTENSIONS = {
  'x-kubernetes-patch-strategy': 'patchStrategy',
  'x-kubernetes-patch-merge-key': 'patchMergeKey',
  'x-kubernetes-list-type': 'listType',
  'x-kubernetes-list-map-keys': 'listMapKeys',
  'x-kubernetes-map-type': 'mapType',
  'x-kubernetes-preserve-unknown-fields': 'preserveUnknownFields',
  'x-kubernetes-embedded-resource': 'embeddedResource',
  'x-kubernetes-unions': 'unions',
};

function typeOf(s, name) {
  if (name === QUANTITY) return 'quantity';
  if (name === INT_OR_STRING || s.format === 'int-or-string' || s['x-kubernetes-int-or-string']) return 'int-or-string';
  if (s.type === 'object' || (!s.type && (s.properties || s.additionalProperties))) {
    if (s.properties) return 'object';
    if (s.additionalProperties && typeof s.additionalProperties === 'object') return 'map';
    return 'any';
  }
  if (['array', 'string', 'integer', 'number', 'boolean'].includes(s.type)) return s.type;
  return 'any';
}

function node(s, name) {
  const out = {};
  const ref = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0].$ref : undefined);
  if (ref) out.ref = refName(ref);
  else {
    out.type = typeOf(s, name);
    if (s.format && out.type !== 'int-or-string') out.format = s.format;
    if (out.type === 'object') {
      out.properties = {};
      for (const [field, sub] of Object.entries(s.properties)) out.properties[field] = node(sub);
      if (s.additionalProperties && typeof s.additionalProperties === 'object') out.values = node(s.additionalProperties);
    }
    if (out.type === 'map') out.values = node(s.additionalProperties);
    if (out.type === 'array' && s.items) out.items = node(s.items);
    if (s.required?.length) out.required = s.required;
    if (s.enum) out.enum = s.enum;
  }
  if (s.default !== undefined) out.default = s.default;
  for (const [ext, key] of Object.entries(EXTENSIONS)) if (s[ext] !== undefined) out[key] = s[ext];
  return out;
}

const definitions = {};
const kinds = {};
for (const name of Object.keys(raw).sort()) {
  const def = raw[name];
  definitions[name] = node(def, name);
  for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
    const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
    kinds[`${apiVersion}/${gvk.kind}`] ??= name;
  }
}
for (const [name, def] of Object.entries(definitions)) {
  JSON.stringify(def, (key, value) => {
    if (key === 'ref' && !definitions[value]) throw new Error(`${name}: $ref to unknown ${value}`);
    return value;
  });
}

const bytes = gzipSync(Buffer.from(JSON.stringify({ version: 1, definitions, kinds })), { level: 9 });
writeFileSync(path.join(dir, 'schema.json.gz'), bytes);
console.log(`data/builtin-api/schema.json.gz: ${Object.keys(definitions).length} definitions, ${Object.keys(kinds).length} kinds, ${bytes.length} bytes`);

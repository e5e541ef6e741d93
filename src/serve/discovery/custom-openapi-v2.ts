/**
 * `/openapi/v2` with the installed CRDs' kinds, as apiextensions-apiserver publishes them into
 * the aggregated v2 document: per served version a definition `com.example.v1.Widget` (apiVersion,
 * kind, metadata → ObjectMeta, then the CRD's schema converted for v2 as
 * ToStructuralOpenAPIV2 does: no allOf/anyOf/oneOf/not, nullable and preserve-unknown-fields
 * nodes untyped and without properties, an array without items untyped) with its
 * `x-kubernetes-group-version-kind`, and its list kind. The built-in document is parsed once; the
 * merged one is rebuilt only when the set of CRDs changes, and its ETag is the hash of its JSON.
 * builtin-openapi.ts serves it as JSON, or as protobuf encoded from these bytes.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { crdDefinitionName } from '../../schema';
import type { CustomDiscoveryEntry } from './custom-discovery';

type Obj = Record<string, any>;

const META = '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.';
const API_VERSION = {
  description: 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  type: 'string',
};
const KIND = {
  description: 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  type: 'string',
};

export interface OpenApiV2Document {
  body: Buffer;
  /** Upper-case hex SHA-512 of the body. */
  hash: string;
  /** The body gzip-encoded (made on first use). */
  gzip(): Buffer;
}

export class CustomOpenApiV2 {
  private base: Obj | undefined;
  private last: { key: string; doc: OpenApiV2Document } | undefined;

  /** `builtin`: the shipped v2 document's JSON bytes (read when first needed). */
  constructor(private readonly builtin: () => Buffer) {}

  /** The built-in document with the entries' definitions (undefined without entries: the built-in one is served as is). */
  document(entries: readonly CustomDiscoveryEntry[]): OpenApiV2Document | undefined {
    if (entries.length === 0) return undefined;
    const key = JSON.stringify(entries.map((e) => [e.group, e.version, e.kind, e.listKind, e.resource, e.openAPIV3Schema]));
    if (this.last?.key === key) return this.last.doc;
    this.base ??= JSON.parse(this.builtin().toString('utf8')) as Obj;
    const definitions: Obj = { ...this.base.definitions };
    for (const e of entries) Object.assign(definitions, kindDefinitions(e));
    const merged = { ...this.base, definitions: Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
    const body = Buffer.from(JSON.stringify(merged), 'utf8');
    let gz: Buffer | undefined;
    const doc = { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase(), gzip: () => (gz ??= gzipSync(body)) };
    this.last = { key, doc };
    return doc;
  }
}

function kindDefinitions(e: CustomDiscoveryEntry): Obj {
  const name = crdDefinitionName(e.group, e.version, e.kind);
  const listKind = e.listKind ?? `${e.kind}List`;
  const given: Obj = e.openAPIV3Schema && typeof e.openAPIV3Schema === 'object' ? toV2(structuredClone(e.openAPIV3Schema)) : {};
  const kind: Obj = {
    ...given,
    type: 'object',
    properties: { apiVersion: API_VERSION, kind: KIND, metadata: { $ref: `${META}ObjectMeta` }, ...(given.properties ?? {}) },
    'x-kubernetes-group-version-kind': [{ group: e.group, kind: e.kind, version: e.version }],
  };
  const list: Obj = {
    description: `${listKind} is a list of ${e.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: API_VERSION,
      items: { description: `List of ${e.resource}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`, type: 'array', items: { $ref: `#/definitions/${name}` } },
      kind: KIND,
      metadata: { $ref: `${META}ListMeta` },
    },
    'x-kubernetes-group-version-kind': [{ group: e.group, kind: listKind, version: e.version }],
  };
  return { [name]: kind, [crdDefinitionName(e.group, e.version, listKind)]: list };
}

/** ToStructuralOpenAPIV2, applied to every node of a (structural) schema. */
function toV2(s: Obj): Obj {
  for (const k of ['allOf', 'anyOf', 'oneOf', 'not', 'x-kubernetes-validations']) delete s[k];
  if (s.nullable) {
    delete s.type;
    delete s.nullable;
    delete s.items;
    delete s.properties;
  }
  if (s['x-kubernetes-preserve-unknown-fields']) {
    delete s.items;
    delete s.properties;
  }
  if (s.type === 'array' && !s.items) delete s.type;
  if (s.properties && typeof s.properties === 'object') {
    for (const [f, sub] of Object.entries(s.properties as Obj)) {
      if (sub?.nullable && Array.isArray(s.required)) s.required = s.required.filter((r: string) => r !== f);
      s.properties[f] = toV2(sub as Obj);
    }
    if (Array.isArray(s.required) && s.required.length === 0) delete s.required;
  }
  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) s.items = toV2(s.items as Obj);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    s.additionalProperties = s.additionalProperties.nullable ? true : toV2(s.additionalProperties as Obj);
  }
  return s;
}

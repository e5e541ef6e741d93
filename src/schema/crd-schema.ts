/**
 * A CustomResourceDefinition's structural schema (`spec.versions[].schema.openAPIV3Schema`) in
 * the compact form of the built-in schema, so the same `Schema` / node helpers read it: field
 * types, `x-kubernetes-list-type`, `-list-map-keys`, `-map-type`, `-preserve-unknown-fields`,
 * `-int-or-string`, `-embedded-resource`, `nullable`, defaults, enums, required. The root gains `apiVersion`,
 * `kind` (strings) and `metadata` (kept whole), as the apiserver's CR schema does. Pure.
 */
import { Schema, type SchemaData } from './schema';
import type { NodeType, SchemaNodeData } from './schema-node';

type Obj = Record<string, any>;

/** The definition name of a custom resource's root type: `com.example.v1.Widget`. */
export function crdDefinitionName(group: string, version: string, kind: string): string {
  return [...group.split('.').reverse(), version, kind].join('.');
}

/** One served version's schema as a node (the root of the kind). */
export function structuralNode(openAPIV3Schema: Obj | undefined): SchemaNodeData {
  const root = openAPIV3Schema ? convert(openAPIV3Schema) : { type: 'object' as NodeType, preserveUnknownFields: true };
  if (root.type === 'object' || root.type === 'any') {
    root.properties = { ...(root.properties ?? {}), apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'any' } };
    if (root.type === 'any') root.type = 'object';
  }
  return root;
}

/** A Schema holding every version of a CRD (`typeOf('example.com/v1', 'Widget')`). */
export function crdSchema(crd: Obj): Schema {
  const group = String(crd.spec?.group ?? '');
  const kind = String(crd.spec?.names?.kind ?? '');
  const data: SchemaData = { version: 1, definitions: {}, kinds: {} };
  for (const v of (crd.spec?.versions ?? []) as Obj[]) {
    const name = crdDefinitionName(group, String(v.name), kind);
    data.definitions[name] = structuralNode(v.schema?.openAPIV3Schema);
    data.kinds[`${group}/${v.name}/${kind}`] = name;
  }
  return new Schema(data);
}

function convert(s: Obj): SchemaNodeData {
  const out: SchemaNodeData = { type: nodeType(s) };
  if (typeof s.format === 'string') out.format = s.format;
  if (s.properties && typeof s.properties === 'object') {
    out.properties = {};
    for (const [k, v] of Object.entries(s.properties as Obj)) out.properties[k] = convert(v as Obj);
  }
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    const values = convert(s.additionalProperties as Obj);
    if (out.properties) out.values = values;
    else {
      out.type = 'map';
      out.values = values;
    }
  } else if (s.additionalProperties === true && !out.properties) {
    out.type = 'map';
    out.values = { type: 'any' };
  }
  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) out.items = convert(s.items as Obj);
  if (Array.isArray(s.required)) out.required = s.required.map(String);
  if (s.default !== undefined) out.default = s.default;
  if (Array.isArray(s.enum)) out.enum = s.enum;
  if (s['x-kubernetes-list-type']) out.listType = s['x-kubernetes-list-type'];
  if (Array.isArray(s['x-kubernetes-list-map-keys'])) out.listMapKeys = s['x-kubernetes-list-map-keys'].map(String);
  if (s['x-kubernetes-map-type']) out.mapType = s['x-kubernetes-map-type'];
  if (s['x-kubernetes-preserve-unknown-fields'] === true) out.preserveUnknownFields = true;
  if (s.nullable === true) out.nullable = true;
  if (s['x-kubernetes-embedded-resource'] === true) {
    out.embeddedResource = true;
    out.properties = { ...(out.properties ?? {}), apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'any' } };
  }
  return out;
}

function nodeType(s: Obj): NodeType {
  if (s['x-kubernetes-int-or-string'] === true) return 'int-or-string';
  switch (s.type) {
    case 'object':
    case 'array':
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return s.type;
    default:
      return 'any';
  }
}

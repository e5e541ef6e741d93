/** Object shapes as the apiserver writes them: field order, sorted maps, managedFields, Go-style JSON. */
import type { ResourceDef } from './resources';
import { groupVersion } from './resources';

export type KObject = Record<string, any>;

const META_ORDER = [
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
];

/** Top-level field order per kind (Go struct order); unknown fields follow in their given order. */
const BODY_ORDER: Record<string, string[]> = {
  ConfigMap: ['immutable', 'data', 'binaryData'],
  Secret: ['immutable', 'data', 'type'],
  Namespace: ['spec', 'status'],
  Pod: ['spec', 'status'],
};

const MAP_FIELDS = new Set(['data', 'binaryData', 'labels', 'annotations']);

export function sortKeys<T extends Record<string, unknown>>(m: T | undefined): T | undefined {
  if (!m) return m;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(m).sort()) out[k] = m[k];
  return out as T;
}

export function deepSort(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(deepSort);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = deepSort((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

export function canonicalMeta(meta: KObject): KObject {
  const out: KObject = {};
  for (const k of META_ORDER) {
    let v = meta[k];
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    if (k === 'labels' || k === 'annotations') {
      if (Object.keys(v).length === 0) continue;
      v = sortKeys(v);
    }
    out[k] = v;
  }
  return out;
}

/** kind, apiVersion, metadata, then the kind's fields in Go struct order; empty maps dropped (omitempty). */
export function canonicalObject(def: ResourceDef, obj: KObject): KObject {
  const out: KObject = { kind: def.kind, apiVersion: groupVersion(def), metadata: canonicalMeta(obj.metadata ?? {}) };
  const order = BODY_ORDER[def.kind] ?? [];
  const rest = Object.keys(obj).filter((k) => !['kind', 'apiVersion', 'metadata'].includes(k) && !order.includes(k));
  for (const k of [...order, ...rest]) {
    let v = obj[k];
    if (v === undefined) continue;
    if (MAP_FIELDS.has(k) && v && typeof v === 'object') {
      if (Object.keys(v).length === 0) continue;
      v = sortKeys(v);
    }
    out[k] = v;
  }
  return def.custom ? (deepSort(out) as KObject) : out;
}

/** The form an object takes inside a list: built-in types drop kind/apiVersion; custom resources keep them. */
export function listItem(def: ResourceDef, obj: KObject): KObject {
  if (def.custom) return obj;
  const { kind: _k, apiVersion: _a, ...rest } = obj;
  return rest;
}

/** `metadata.managedFields[].fieldsV1` for the fields an object sets (maps get a "." entry, as the apiserver's set does). */
export function fieldsOf(obj: KObject, keys?: Set<string>): KObject {
  const out: KObject = {};
  for (const k of Object.keys(obj).sort()) {
    if (['kind', 'apiVersion', 'metadata', 'status'].includes(k)) continue;
    out[`f:${k}`] = fieldSet(k, obj[k], keys);
  }
  const meta = obj.metadata ?? {};
  const metaFields: KObject = {};
  for (const k of ['annotations', 'labels']) {
    if (meta[k] && Object.keys(meta[k]).length) metaFields[`f:${k}`] = fieldSet(k, meta[k]);
  }
  if (Object.keys(metaFields).length) out['f:metadata'] = metaFields;
  return sortKeys(out)!;
}

function fieldSet(name: string, value: unknown, keys?: Set<string>): KObject {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: KObject = {};
  if (MAP_FIELDS.has(name)) {
    if (!keys) out['.'] = {};
    for (const k of Object.keys(value).sort()) if (!keys || keys.has(k)) out[`f:${k}`] = {};
    return out;
  }
  for (const k of Object.keys(value).sort()) out[`f:${k}`] = fieldSet(k, (value as KObject)[k]);
  return out;
}

/** Keys of a top-level map field whose values differ between two objects. */
export function changedMapKeys(before: KObject, after: KObject, field: string): Set<string> {
  const a = before[field] ?? {};
  const b = after[field] ?? {};
  const keys = new Set<string>();
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) keys.add(k);
  return keys;
}

/**
 * managedFields after a write by `manager`: a create gives one entry owning every field; an update by another
 * manager gives that manager the changed map keys and takes them (and the map's ".") from the others.
 */
export function managedFieldsAfter(before: KObject | undefined, after: KObject, manager: string, apiVersion: string, time: string): KObject[] {
  const entry = (fieldsV1: KObject) => ({ manager, operation: 'Update', apiVersion, time, fieldsType: 'FieldsV1', fieldsV1 });
  if (!before) return [entry(fieldsOf(after))];
  const previous: KObject[] = before.metadata?.managedFields ?? [];
  const mine = previous.find((e) => e.manager === manager && e.operation === 'Update');
  const changedMaps = ['data', 'binaryData'].filter((f) => changedMapKeys(before, after, f).size > 0);
  if (changedMaps.length === 0 && mine) return previous;
  const others = previous.filter((e) => e !== mine).map((e) => {
    const fieldsV1 = structuredClone(e.fieldsV1 ?? {});
    for (const f of changedMaps) {
      const owned = fieldsV1[`f:${f}`];
      if (!owned) continue;
      delete owned['.'];
      for (const k of changedMapKeys(before, after, f)) delete owned[`f:${k}`];
    }
    return { ...e, fieldsV1 };
  });
  const ownedNow: KObject = {};
  for (const f of changedMaps) {
    const keys = changedMapKeys(before, after, f);
    const present = new Set([...keys].filter((k) => after[f]?.[k] !== undefined));
    if (present.size) ownedNow[`f:${f}`] = fieldSet(f, after[f], present);
  }
  if (mine) for (const [k, v] of Object.entries(mine.fieldsV1 ?? {})) ownedNow[k] = { ...(v as KObject), ...(ownedNow[k] ?? {}) };
  return [...others, entry(deepSort(ownedNow) as KObject)];
}

/** Go's encoding/json escaping on top of JSON.stringify: <, >, & and U+2028/9 as \u escapes. */
export function goJson(value: unknown, pretty = false): string {
  const text = pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** RFC 3339 seconds, as metav1.Time serialises. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

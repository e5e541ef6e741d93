/**
 * Key order of a built-in object as the apiserver serialises it (Go struct order): kind,
 * apiVersion, then the type's fields. With the kind's protobuf message (`GoStructOrder`), every
 * depth follows the Go structs; without it, metadata in ObjectMeta's field order, the top-level
 * fields of the kinds listed here, Go maps (labels, annotations, ConfigMap and Secret data) with
 * their keys sorted, other keys in body order with status last. Pure.
 */

import { orderCrdBody } from './crd-object';
import type { GoStructOrder } from './go-struct-order';

type Obj = Record<string, any>;

export const OBJECT_META_ORDER = [
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
];

/** Top-level fields after metadata, per Kind, in struct order. */
const TYPE_ORDER: Record<string, string[]> = {
  ConfigMap: ['immutable', 'data', 'binaryData'],
  Secret: ['immutable', 'data', 'stringData', 'type'],
  Namespace: ['spec', 'status'],
  Endpoints: ['subsets'],
  Lease: ['spec'],
  Event: ['involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'type', 'eventTime', 'series', 'action', 'related', 'reportingComponent', 'reportingInstance'],
  ServiceAccount: ['secrets', 'imagePullSecrets', 'automountServiceAccountToken'],
};

/** Top-level fields that are Go maps (keys sorted on the wire). */
const MAP_FIELDS: Record<string, string[]> = {
  ConfigMap: ['data', 'binaryData'],
  Secret: ['data', 'stringData'],
};

/** The kind's message and the orders of the descriptors it is in. */
export interface KindOrder {
  structs: GoStructOrder;
  message: string;
}

export function orderObject(obj: Obj, kindOrder?: KindOrder): Obj {
  const out: Obj = {};
  if ('kind' in obj) out.kind = obj.kind;
  if ('apiVersion' in obj) out.apiVersion = obj.apiVersion;
  if (kindOrder && obj.kind !== 'CustomResourceDefinition') {
    const { kind: _kind, apiVersion: _apiVersion, ...fields } = obj;
    return Object.assign(out, kindOrder.structs.order(fields, kindOrder.message));
  }
  if (obj.metadata && typeof obj.metadata === 'object') out.metadata = orderMeta(obj.metadata);
  const kind = String(obj.kind ?? '');
  const known = TYPE_ORDER[kind] ?? [];
  const maps = new Set(MAP_FIELDS[kind] ?? []);
  const rest = Object.keys(obj).filter((k) => k !== 'kind' && k !== 'apiVersion' && k !== 'metadata');
  const ordered = [...known.filter((k) => rest.includes(k)), ...rest.filter((k) => !known.includes(k) && k !== 'status'), ...(rest.includes('status') && !known.includes('status') ? ['status'] : [])];
  for (const k of ordered) out[k] = maps.has(k) ? sortedMap(obj[k]) : obj[k];
  if (kind === 'CustomResourceDefinition') orderCrdBody(out);
  return out;
}

export function orderMeta(meta: Obj): Obj {
  const out: Obj = {};
  for (const k of OBJECT_META_ORDER) {
    if (meta[k] === undefined) continue;
    out[k] = k === 'labels' || k === 'annotations' ? sortedMap(meta[k]) : meta[k];
  }
  for (const k of Object.keys(meta)) if (!(k in out) && meta[k] !== undefined && !OBJECT_META_ORDER.includes(k)) out[k] = meta[k];
  return out;
}

function sortedMap(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Obj = {};
  for (const k of Object.keys(value).sort()) out[k] = (value as Obj)[k];
  return out;
}

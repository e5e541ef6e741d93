/**
 * PartialObjectMetadata and PartialObjectMetadataList as the apiserver encodes them
 * (meta.AsPartialObjectMetadata then encoding/json): ObjectMeta in Go's field order, empty
 * fields omitted, `creationTimestamp` always present (null when unset), unknown fields dropped.
 */
import { builtinProtobuf } from './builtin-protobuf';
import type { MetaVersion } from './negotiate';

const OBJECT_META_MESSAGE = 'k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta';

type Obj = Record<string, any>;

export interface ListMetaInput {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** metav1.ObjectMeta fields that AsPartialObjectMetadata copies, in struct order. */
const OBJECT_META_FIELDS = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
] as const;

export function toPartialObjectMetadata(obj: Obj, version: MetaVersion): Obj {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: partialObjectMeta(obj.metadata ?? {}) };
}

/** The body for `as=PartialObjectMetadataList` (f3). An empty list has `"items":null`, as Go encodes a nil slice. */
export function renderPartialObjectMetadataList(opts: { items: readonly Obj[]; version: MetaVersion; listMeta: ListMetaInput }): Obj {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.k8s.io/${opts.version}`,
    metadata: listMeta(opts.listMeta),
    items: opts.items.length === 0 ? null : opts.items.map((item) => toPartialObjectMetadata(item, opts.version)),
  };
}

/** metav1.ListMeta in field order; empty values omitted (remainingItemCount kept when it is a number). */
export function listMeta(meta: ListMetaInput): Obj {
  const out: Obj = {};
  if (meta.resourceVersion) out.resourceVersion = meta.resourceVersion;
  if (meta.continue) out.continue = meta.continue;
  if (typeof meta.remainingItemCount === 'number') out.remainingItemCount = meta.remainingItemCount;
  return out;
}

/** ObjectMeta's fields without their zero values, in Go struct order at every depth (a custom resource's arrive with sorted keys). */
function partialObjectMeta(meta: Obj): Obj {
  const out: Obj = {};
  for (const field of OBJECT_META_FIELDS) {
    const value = meta[field];
    if (field === 'creationTimestamp') out[field] = value ?? null;
    else if (field === 'deletionGracePeriodSeconds') {
      if (typeof value === 'number') out[field] = value; // a pointer: 0 is kept
    } else if (!isEmpty(value)) out[field] = value;
  }
  return builtinProtobuf().structOrder().order(out, OBJECT_META_MESSAGE);
}

/** Go's omitempty: "", 0, false, null, and empty maps and slices. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/**
 * ObjectMeta written the way Go's generated marshaller writes it (non-pointer fields always
 * present, map keys sorted), for objects kubetape makes up itself: protobuf BOOKMARK events,
 * synthetic objects in serve. Fields kubetape does not model (ownerReferences, managedFields)
 * are not written.
 */
import { ProtoWriter } from './protobuf-fields';
import type { ObjectMetaLite } from './protobuf-meta';
import { WireError } from './wire-error';

/** metav1.Time from RFC3339; the zero time (undefined) is an empty message, as Go writes it. */
function encodeTime(rfc3339: string | undefined, what: string): Buffer {
  if (rfc3339 === undefined) return Buffer.alloc(0);
  const ms = Date.parse(rfc3339);
  if (Number.isNaN(ms)) throw new WireError(`${what} ${JSON.stringify(rfc3339)} is not an RFC3339 time`);
  return new ProtoWriter().varint(1, Math.floor(ms / 1000)).varint(2, 0).finish();
}

function writeMap(w: ProtoWriter, no: number, map: Record<string, string> | undefined): void {
  for (const key of Object.keys(map ?? {}).sort()) {
    w.message(no, new ProtoWriter().string(1, key).string(2, map![key]));
  }
}

export function encodeObjectMeta(meta: Partial<ObjectMetaLite>): Buffer {
  const w = new ProtoWriter()
    .string(1, meta.name ?? '')
    .string(2, meta.generateName ?? '')
    .string(3, meta.namespace ?? '')
    .string(4, '')
    .string(5, meta.uid ?? '')
    .string(6, meta.resourceVersion ?? '')
    .varint(7, meta.generation ?? 0)
    .bytes(8, encodeTime(meta.creationTimestamp, 'creationTimestamp'));
  if (meta.deletionTimestamp !== undefined) w.bytes(9, encodeTime(meta.deletionTimestamp, 'deletionTimestamp'));
  if (meta.deletionGracePeriodSeconds !== undefined) w.varint(10, meta.deletionGracePeriodSeconds);
  writeMap(w, 11, meta.labels);
  writeMap(w, 12, meta.annotations);
  for (const f of meta.finalizers ?? []) w.string(14, f);
  return w.finish();
}

/**
 * The typed object of a BOOKMARK event: the resource's kind with only metadata.resourceVersion
 * (and annotations, e.g. `k8s.io/initial-events-end: "true"` at the end of a watch-list).
 * Wrap it with encodeEnvelope(typeMeta, …) and encodeWatchEvent('BOOKMARK', …).
 */
export function encodeBookmarkObject(resourceVersion: string, annotations?: Record<string, string>): Buffer {
  return new ProtoWriter().bytes(1, encodeObjectMeta({ resourceVersion, annotations })).finish();
}

/**
 * ObjectMeta and ListMeta of typed protobuf messages (the `raw` inside the k8s envelope),
 * read and rewritten schema-less. Field numbers from k8s.io/apimachinery generated.proto:
 *   objects and lists: metadata=1 (lists: items=2)
 *   ObjectMeta {name=1, generateName=2, namespace=3, uid=5, resourceVersion=6, generation=7,
 *     creationTimestamp=8, deletionTimestamp=9, deletionGracePeriodSeconds=10, labels=11,
 *     annotations=12, ownerReferences=13, finalizers=14}
 *   ListMeta {selfLink=1, resourceVersion=2, continue=3, remainingItemCount=4}
 *   Time {seconds=1, nanos=2}; map entries {key=1, value=2}
 */
import {
  FieldReader,
  ProtoField,
  ProtoWriter,
  WIRE_BYTES,
  WIRE_VARINT,
  encodeVarint,
  expectWire,
  fieldString,
  forEachField,
  toSigned64,
} from './protobuf-fields';
import { WireError } from './wire-error';

export interface ObjectMetaLite {
  name: string;
  generateName: string;
  namespace: string;
  uid: string;
  resourceVersion: string;
  /** Set when non-zero (JSON omits a zero generation too). */
  generation?: number;
  /** RFC3339, seconds precision, as the JSON form writes metav1.Time. */
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  finalizers: string[];
}

export interface ListMetaLite {
  resourceVersion: string;
  continue: string;
  remainingItemCount?: number;
}

/** Reads ObjectMeta (field 1) of a typed object such as a ConfigMap or PartialObjectMetadata. */
export function readObjectMeta(typedObject: Buffer): ObjectMetaLite {
  const meta: ObjectMetaLite = { name: '', generateName: '', namespace: '', uid: '', resourceVersion: '', labels: {}, annotations: {}, finalizers: [] };
  forEachField(typedObject, 0, typedObject.length, (f) => {
    if (f.no !== 1) return;
    expectWire(f, WIRE_BYTES, 'metadata');
    readObjectMetaFields(typedObject, f.start, f.end, meta);
  });
  return meta;
}

export interface ObjectIdentity {
  name: string;
  namespace: string;
  uid: string;
  resourceVersion: string;
}

/**
 * Just name, namespace, uid and resourceVersion: the hot path of watch decoding. Stops at the
 * first ObjectMeta field past resourceVersion (Go writes fields in ascending order), so labels,
 * annotations and managedFields are never walked.
 */
export function readObjectIdentity(typedObject: Buffer): ObjectIdentity {
  const id: ObjectIdentity = { name: '', namespace: '', uid: '', resourceVersion: '' };
  const f = new FieldReader(typedObject);
  while (f.next()) {
    if (f.no !== 1) continue;
    expectWire(f, WIRE_BYTES, 'metadata');
    const m = new FieldReader(typedObject, f.start, f.end);
    while (m.next() && m.no <= 6) {
      switch (m.no) {
        case 1: id.name = fieldString(typedObject, m, 'metadata.name'); break;
        case 3: id.namespace = fieldString(typedObject, m, 'metadata.namespace'); break;
        case 5: id.uid = fieldString(typedObject, m, 'metadata.uid'); break;
        case 6: id.resourceVersion = fieldString(typedObject, m, 'metadata.resourceVersion'); break;
      }
    }
  }
  return id;
}

function readObjectMetaFields(buf: Buffer, start: number, end: number, meta: ObjectMetaLite): void {
  forEachField(buf, start, end, (f) => {
    switch (f.no) {
      case 1: meta.name = fieldString(buf, f, 'metadata.name'); break;
      case 2: meta.generateName = fieldString(buf, f, 'metadata.generateName'); break;
      case 3: meta.namespace = fieldString(buf, f, 'metadata.namespace'); break;
      case 5: meta.uid = fieldString(buf, f, 'metadata.uid'); break;
      case 6: meta.resourceVersion = fieldString(buf, f, 'metadata.resourceVersion'); break;
      case 7:
        expectWire(f, WIRE_VARINT, 'metadata.generation');
        if (f.value !== 0) meta.generation = toSigned64(f.value);
        else delete meta.generation;
        break;
      case 8: setTime(meta, 'creationTimestamp', readTime(buf, f, 'metadata.creationTimestamp')); break;
      case 9: setTime(meta, 'deletionTimestamp', readTime(buf, f, 'metadata.deletionTimestamp')); break;
      case 10:
        expectWire(f, WIRE_VARINT, 'metadata.deletionGracePeriodSeconds');
        meta.deletionGracePeriodSeconds = toSigned64(f.value);
        break;
      case 11: readMapEntry(buf, f, meta.labels, 'metadata.labels'); break;
      case 12: readMapEntry(buf, f, meta.annotations, 'metadata.annotations'); break;
      case 14: meta.finalizers.push(fieldString(buf, f, 'metadata.finalizers')); break;
    }
  });
}

function setTime(meta: ObjectMetaLite, key: 'creationTimestamp' | 'deletionTimestamp', value: string | undefined): void {
  if (value === undefined) delete meta[key];
  else meta[key] = value;
}

/** metav1.Time {seconds=1, nanos=2}; an empty message is the zero time (JSON null). */
function readTime(buf: Buffer, f: ProtoField, what: string): string | undefined {
  expectWire(f, WIRE_BYTES, what);
  if (f.start === f.end) return undefined;
  let seconds = 0;
  forEachField(buf, f.start, f.end, (t) => {
    if (t.no === 1) {
      expectWire(t, WIRE_VARINT, `${what}.seconds`);
      seconds = toSigned64(t.value);
    }
  });
  return formatRfc3339(seconds);
}

export function formatRfc3339(seconds: number): string {
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) throw new WireError(`timestamp ${seconds}s is out of range`);
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function readMapEntry(buf: Buffer, f: ProtoField, into: Record<string, string>, what: string): void {
  expectWire(f, WIRE_BYTES, what);
  let key = '';
  let value = '';
  forEachField(buf, f.start, f.end, (e) => {
    if (e.no === 1) key = fieldString(buf, e, `${what} key`);
    else if (e.no === 2) value = fieldString(buf, e, `${what} value`);
  });
  into[key] = value;
}

/** Reads ListMeta (field 1) of a typed list. */
export function readListMeta(typedList: Buffer): ListMetaLite {
  const meta: ListMetaLite = { resourceVersion: '', continue: '' };
  forEachField(typedList, 0, typedList.length, (f) => {
    if (f.no !== 1) return;
    expectWire(f, WIRE_BYTES, 'list metadata');
    forEachField(typedList, f.start, f.end, (m) => {
      if (m.no === 2) meta.resourceVersion = fieldString(typedList, m, 'list metadata.resourceVersion');
      else if (m.no === 3) meta.continue = fieldString(typedList, m, 'list metadata.continue');
      else if (m.no === 4) {
        expectWire(m, WIRE_VARINT, 'list metadata.remainingItemCount');
        meta.remainingItemCount = toSigned64(m.value);
      }
    });
  });
  return meta;
}

/** The bytes of each item (field 2) of a typed list: typed objects without the envelope. Views into `typedList`. */
export function listItems(typedList: Buffer): Buffer[] {
  const items: Buffer[] = [];
  forEachField(typedList, 0, typedList.length, (f) => {
    if (f.no !== 2) return;
    expectWire(f, WIRE_BYTES, 'list item');
    items.push(typedList.subarray(f.start, f.end));
  });
  return items;
}

/** ListMeta as Go marshals it: selfLink, resourceVersion and continue always, remainingItemCount when set. */
export function encodeListMeta(meta: ListMetaLite): Buffer {
  const w = new ProtoWriter().string(1, '').string(2, meta.resourceVersion).string(3, meta.continue);
  if (meta.remainingItemCount !== undefined && meta.remainingItemCount !== null) w.varint(4, meta.remainingItemCount);
  return w.finish();
}

/** A typed list message {metadata=1, items=2…}, byte-identical to what the apiserver writes. */
export function encodeList(listMeta: ListMetaLite, items: Buffer[]): Buffer {
  const w = new ProtoWriter().bytes(1, encodeListMeta(listMeta));
  for (const item of items) w.bytes(2, item);
  return w.finish();
}

/**
 * Rewrites metadata.resourceVersion of a typed object, keeping every other byte: only the RV
 * field and the metadata length prefix change. Adds metadata or the field when absent.
 */
export function setObjectResourceVersion(typedObject: Buffer, rv: string): Buffer {
  const rvField = new ProtoWriter().string(6, rv).finish();
  let meta: ProtoField | undefined;
  forEachField(typedObject, 0, typedObject.length, (f) => {
    if (f.no !== 1) return;
    if (meta) throw new WireError('object has more than one metadata field; refusing to rewrite it');
    expectWire(f, WIRE_BYTES, 'metadata');
    meta = f;
  });
  if (!meta) return Buffer.concat([new ProtoWriter().bytes(1, rvField).finish(), typedObject]);

  const parts: Buffer[] = [];
  let copied = meta.start;
  let placed = false;
  forEachField(typedObject, meta.start, meta.end, (f) => {
    if (f.no === 6 || (!placed && f.no > 6)) {
      parts.push(typedObject.subarray(copied, f.tagStart));
      if (!placed) parts.push(rvField);
      placed = true;
      copied = f.no === 6 ? f.end : f.tagStart;
    }
  });
  parts.push(typedObject.subarray(copied, meta.end));
  if (!placed) parts.push(rvField);
  const newMeta = Buffer.concat(parts);
  return Buffer.concat([
    typedObject.subarray(0, meta.tagStart),
    encodeVarint(1 * 8 + WIRE_BYTES),
    encodeVarint(newMeta.length),
    newMeta,
    typedObject.subarray(meta.end),
  ]);
}

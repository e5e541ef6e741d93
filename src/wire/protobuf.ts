/**
 * Kubernetes protobuf framing, schema-less:
 *   envelope = "k8s\0" + runtime.Unknown {typeMeta=1 {apiVersion=1, kind=2}, raw=2, contentEncoding=3, contentType=4}
 *   watch frame = 4-byte big-endian length + metav1.WatchEvent {type=1, object=2 RawExtension{raw=1}}
 *     (no magic on the event; object.raw is a full envelope)
 * Metadata, lists and Status are in protobuf-meta.ts and protobuf-status.ts, re-exported here.
 */
import { FieldReader, WIRE_BYTES, expectWire, fieldString, varintSize, writeVarint } from './protobuf-fields';
import { WireError } from './wire-error';

export { WireError } from './wire-error';
export type { ObjectMetaLite, ListMetaLite, ObjectIdentity } from './protobuf-meta';
export { readObjectMeta, readObjectIdentity, readListMeta, listItems, encodeList, encodeListMeta, setObjectResourceVersion, formatRfc3339 } from './protobuf-meta';
export { readStatus, encodeStatus } from './protobuf-status';
export { encodeObjectMeta, encodeBookmarkObject } from './protobuf-encode-meta';

export const K8S_MAGIC: Buffer = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

export interface Envelope extends TypeMeta {
  /** The typed message (a view into the decoded buffer). */
  raw: Buffer;
  contentEncoding: string;
  contentType: string;
}

export function hasMagic(buf: Buffer): boolean {
  return hasMagicAt(buf, 0);
}

/** K8S_MAGIC at `at` of `buf`, compared byte by byte (no view made). */
export function hasMagicAt(buf: Buffer, at: number): boolean {
  return buf.length >= at + 4 && buf[at] === 0x6b && buf[at + 1] === 0x38 && buf[at + 2] === 0x73 && buf[at + 3] === 0x00;
}

export function decodeEnvelope(buf: Buffer): Envelope {
  if (!hasMagic(buf)) throw new WireError('protobuf body does not start with the k8s\\0 magic (6b 38 73 00)');
  const env: Envelope = { apiVersion: '', kind: '', raw: buf.subarray(4, 4), contentEncoding: '', contentType: '' };
  let hasRaw = false;
  const f = new FieldReader(buf, 4);
  while (f.next()) {
    switch (f.no) {
      case 1: {
        expectWire(f, WIRE_BYTES, 'envelope typeMeta');
        const t = new FieldReader(buf, f.start, f.end);
        while (t.next()) {
          if (t.no === 1) env.apiVersion = fieldString(buf, t, 'typeMeta.apiVersion');
          else if (t.no === 2) env.kind = fieldString(buf, t, 'typeMeta.kind');
        }
        break;
      }
      case 2:
        expectWire(f, WIRE_BYTES, 'envelope raw');
        env.raw = buf.subarray(f.start, f.end);
        hasRaw = true;
        break;
      case 3: env.contentEncoding = fieldString(buf, f, 'envelope contentEncoding'); break;
      case 4: env.contentType = fieldString(buf, f, 'envelope contentType'); break;
    }
  }
  if (!hasRaw) throw new WireError(`protobuf envelope (${env.apiVersion} ${env.kind || 'no kind'}) has no raw field`);
  return env;
}

export interface EnvelopeHeader extends TypeMeta {
  contentEncoding?: string;
  contentType?: string;
}

/** Magic + Unknown exactly as the apiserver writes it (empty contentEncoding/contentType fields included). */
export function encodeEnvelope(header: EnvelopeHeader, raw: Buffer): Buffer {
  const apiVersion = Buffer.from(header.apiVersion, 'utf8');
  const kind = Buffer.from(header.kind, 'utf8');
  const encoding = Buffer.from(header.contentEncoding ?? '', 'utf8');
  const contentType = Buffer.from(header.contentType ?? '', 'utf8');
  const typeMetaLen = bytesFieldSize(1, apiVersion.length) + bytesFieldSize(1, kind.length);
  const total =
    4 + bytesFieldSize(1, typeMetaLen) + bytesFieldSize(1, raw.length) + bytesFieldSize(1, encoding.length) + bytesFieldSize(1, contentType.length);
  const out = Buffer.allocUnsafe(total);
  K8S_MAGIC.copy(out, 0);
  let pos = 4;
  out[pos++] = 0x0a;
  pos = writeVarint(out, pos, typeMetaLen);
  pos = putBytes(out, pos, 0x0a, apiVersion);
  pos = putBytes(out, pos, 0x12, kind);
  pos = putBytes(out, pos, 0x12, raw);
  pos = putBytes(out, pos, 0x1a, encoding);
  putBytes(out, pos, 0x22, contentType);
  return out;
}

/** Size of a length-delimited field whose tag fits in one byte. */
function bytesFieldSize(tagBytes: number, len: number): number {
  return tagBytes + varintSize(len) + len;
}

function putBytes(out: Buffer, pos: number, tag: number, value: Buffer): number {
  out[pos++] = tag;
  pos = writeVarint(out, pos, value.length);
  value.copy(out, pos);
  return pos + value.length;
}

export interface WatchEventMessage {
  type: string;
  /** object.raw: the enveloped object (magic + Unknown), a view into the message. */
  object: Buffer;
}

/** Decodes one WatchEvent message (no length prefix). */
export function decodeWatchEvent(msg: Buffer): WatchEventMessage {
  let type: string | undefined;
  let object: Buffer | undefined;
  const f = new FieldReader(msg);
  while (f.next()) {
    if (f.no === 1) type = fieldString(msg, f, 'watch event type');
    else if (f.no === 2) {
      expectWire(f, WIRE_BYTES, 'watch event object');
      const r = new FieldReader(msg, f.start, f.end);
      while (r.next()) {
        if (r.no === 1) {
          expectWire(r, WIRE_BYTES, 'watch event object.raw');
          object = msg.subarray(r.start, r.end);
        }
      }
    }
  }
  if (type === undefined) throw new WireError('watch event has no type');
  if (object === undefined) throw new WireError(`watch event ${type} has no object`);
  return { type, object };
}

/** A WatchEvent message {type=1, object=2 {raw=1}}: no magic, no length prefix. */
export function encodeWatchEvent(type: string, envelopedObject: Buffer): Buffer {
  const typeBytes = Buffer.from(type, 'utf8');
  const rawExtLen = bytesFieldSize(1, envelopedObject.length);
  const out = Buffer.allocUnsafe(bytesFieldSize(1, typeBytes.length) + bytesFieldSize(1, rawExtLen));
  let pos = putBytes(out, 0, 0x0a, typeBytes);
  out[pos++] = 0x12;
  pos = writeVarint(out, pos, rawExtLen);
  putBytes(out, pos, 0x0a, envelopedObject);
  return out;
}

/** Prefixes a message with its 4-byte big-endian length (protobuf watch framing). */
export function lengthPrefix(buf: Buffer): Buffer {
  if (buf.length > 0xffffffff) throw new WireError(`frame of ${buf.length} bytes does not fit a 4-byte length`);
  const out = Buffer.allocUnsafe(4 + buf.length);
  out.writeUInt32BE(buf.length, 0);
  buf.copy(out, 4);
  return out;
}

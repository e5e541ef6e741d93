/** Protobuf bodies and watch frames → decoded objects, schema-less (envelope + metadata only). */
import type { DecodedBody, DecodedList, DecodedObject, DecodedWatchEvent } from './decoded-types';
import { isNonObjectKind } from './decode-json';
import { WIRE_BYTES, expectWire, forEachField } from './protobuf-fields';
import { TypeMeta, decodeEnvelope, decodeWatchEvent, encodeEnvelope, hasMagic } from './protobuf';
import { listItems, readListMeta, readObjectIdentity } from './protobuf-meta';
import { readStatus } from './protobuf-status';
import { WireError } from './wire-error';

export function decodeProtobufBody(body: Buffer): DecodedBody {
  const env = decodeEnvelope(body);
  const { apiVersion, kind } = env;
  if (!kind) throw new WireError('protobuf envelope has no kind');
  if (env.contentEncoding) return { type: 'other', reason: `protobuf envelope with contentEncoding ${env.contentEncoding}` };
  if (kind === 'Status') return { type: 'status', status: readStatus(env.raw) };
  if (isNonObjectKind(apiVersion, kind)) return { type: 'other', reason: `discovery document ${kind}` };
  if (kind === 'Table') return { type: 'other', reason: 'protobuf Table (the apiserver only serves Tables as JSON)' };
  if (kind.endsWith('List')) return decodeList(env.raw, { apiVersion, kind });
  return { type: 'object', object: objectFromProtobuf(body, env.raw, env) };
}

function decodeList(typedList: Buffer, typeMeta: TypeMeta): DecodedList {
  const meta = readListMeta(typedList);
  const list: DecodedList = {
    type: 'list',
    apiVersion: typeMeta.apiVersion,
    kind: typeMeta.kind,
    encoding: 'protobuf',
    resourceVersion: meta.resourceVersion,
    continue: meta.continue,
    items: [],
  };
  if (meta.remainingItemCount !== undefined) list.remainingItemCount = meta.remainingItemCount;
  if (typeMeta.kind === 'List') {
    list.items = rawExtensionItems(typedList);
    return list;
  }
  const itemType = { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind.slice(0, -'List'.length) };
  list.items = listItems(typedList).map((item) => objectFromProtobuf(encodeEnvelope(itemType, item), item, itemType));
  return list;
}

/** metav1.List: items are RawExtension {raw=1}, each raw a full envelope of its own kind. */
function rawExtensionItems(typedList: Buffer): DecodedObject[] {
  return listItems(typedList).map((ext, i) => {
    let raw: Buffer | undefined;
    forEachField(ext, 0, ext.length, (f) => {
      if (f.no === 1) {
        expectWire(f, WIRE_BYTES, 'List item raw');
        raw = ext.subarray(f.start, f.end);
      }
    });
    if (!raw || !hasMagic(raw)) throw new WireError(`List item ${i} is not an enveloped protobuf object`);
    const env = decodeEnvelope(raw);
    return objectFromProtobuf(raw, env.raw, env);
  });
}

function objectFromProtobuf(enveloped: Buffer, typed: Buffer, typeMeta: TypeMeta): DecodedObject {
  const meta = readObjectIdentity(typed);
  return {
    apiVersion: typeMeta.apiVersion,
    kind: typeMeta.kind,
    namespace: meta.namespace,
    name: meta.name,
    uid: meta.uid,
    resourceVersion: meta.resourceVersion,
    raw: enveloped,
    encoding: 'protobuf',
    form: typeMeta.kind === 'PartialObjectMetadata' ? 'metadata' : 'object',
  };
}

/** One protobuf watch frame: 4-byte big-endian length + WatchEvent. */
export function decodeProtobufWatchFrame(frame: Buffer): DecodedWatchEvent {
  if (frame.length < 4) throw new WireError(`protobuf watch frame of ${frame.length} bytes has no length prefix`);
  const length = frame.readUInt32BE(0);
  if (length !== frame.length - 4) {
    throw new WireError(`protobuf watch frame length prefix says ${length} bytes, frame holds ${frame.length - 4}`);
  }
  const event = decodeWatchEvent(frame.subarray(4));
  const env = decodeEnvelope(event.object);
  if (env.kind === 'Status') return { type: event.type, status: readStatus(env.raw) };
  return { type: event.type, object: objectFromProtobuf(event.object, env.raw, env) };
}

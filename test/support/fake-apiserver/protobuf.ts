/**
 * The few Kubernetes protobuf types the fake serves, with field numbers from k8s generated.proto,
 * encoded as gogo-protobuf does: proto2, every non-pointer scalar written even when empty, map keys
 * sorted, fields in number order. Independent of src/wire on purpose (it cross-checks it).
 */
import protobuf from 'protobufjs';

const PROTO = `
syntax = "proto2";
package k8s;

message TypeMeta { optional string apiVersion = 1; optional string kind = 2; }
message Unknown {
  optional TypeMeta typeMeta = 1; optional bytes raw = 2;
  optional string contentEncoding = 3; optional string contentType = 4;
}
message Time { optional int64 seconds = 1; optional int32 nanos = 2; }
message FieldsV1 { optional bytes Raw = 1; }
message ManagedFieldsEntry {
  optional string manager = 1; optional string operation = 2; optional string apiVersion = 3;
  optional Time time = 4; optional string fieldsType = 6; optional FieldsV1 fieldsV1 = 7; optional string subresource = 8;
}
message OwnerReference {
  optional string kind = 1; optional string name = 3; optional string uid = 4; optional string apiVersion = 5;
  optional bool controller = 6; optional bool blockOwnerDeletion = 7;
}
message ObjectMeta {
  optional string name = 1; optional string generateName = 2; optional string namespace = 3; optional string selfLink = 4;
  optional string uid = 5; optional string resourceVersion = 6; optional int64 generation = 7;
  optional Time creationTimestamp = 8; optional Time deletionTimestamp = 9; optional int64 deletionGracePeriodSeconds = 10;
  map<string, string> labels = 11; map<string, string> annotations = 12;
  repeated OwnerReference ownerReferences = 13; repeated string finalizers = 14; repeated ManagedFieldsEntry managedFields = 17;
}
message ListMeta { optional string selfLink = 1; optional string resourceVersion = 2; optional string continue = 3; optional int64 remainingItemCount = 4; }
message ConfigMap { optional ObjectMeta metadata = 1; map<string, string> data = 2; map<string, bytes> binaryData = 3; optional bool immutable = 4; }
message ConfigMapList { optional ListMeta metadata = 1; repeated ConfigMap items = 2; }
message Secret {
  optional ObjectMeta metadata = 1; map<string, bytes> data = 2; optional string type = 3;
  map<string, string> stringData = 4; optional bool immutable = 5;
}
message SecretList { optional ListMeta metadata = 1; repeated Secret items = 2; }
message NamespaceSpec { repeated string finalizers = 1; }
message NamespaceStatus { optional string phase = 1; }
message Namespace { optional ObjectMeta metadata = 1; optional NamespaceSpec spec = 2; optional NamespaceStatus status = 3; }
message NamespaceList { optional ListMeta metadata = 1; repeated Namespace items = 2; }
message RawExtension { optional bytes raw = 1; }
message WatchEvent { optional string type = 1; optional RawExtension object = 2; }
message StatusCause { optional string reason = 1; optional string message = 2; optional string field = 3; }
message StatusDetails {
  optional string name = 1; optional string group = 2; optional string kind = 3; repeated StatusCause causes = 4;
  optional int32 retryAfterSeconds = 5; optional string uid = 6;
}
message Status {
  optional ListMeta metadata = 1; optional string status = 2; optional string message = 3; optional string reason = 4;
  optional StatusDetails details = 5; optional int32 code = 6;
}
`;

const root = protobuf.parse(PROTO, { keepCase: true }).root;
const type = (name: string) => root.lookupType(`k8s.${name}`);
const T = {
  Unknown: type('Unknown'),
  WatchEvent: type('WatchEvent'),
  Status: type('Status'),
  ConfigMap: type('ConfigMap'),
  ConfigMapList: type('ConfigMapList'),
  Secret: type('Secret'),
  SecretList: type('SecretList'),
  Namespace: type('Namespace'),
  NamespaceList: type('NamespaceList'),
};

export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** Kinds (and their lists) this module can encode. */
export const PROTOBUF_KINDS = new Set(['ConfigMap', 'ConfigMapList', 'Secret', 'SecretList', 'Namespace', 'NamespaceList', 'Status']);

type Json = Record<string, any>;

const sortedMap = (m: Record<string, unknown> | undefined, bytes = false): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(m ?? {}).sort()) out[k] = bytes ? Buffer.from(String(m![k]), 'base64') : m![k];
  return out;
};

function time(value: string | null | undefined): Json {
  if (!value) return {}; // zero time: gogo writes the field with length 0
  const ms = Date.parse(value);
  return { seconds: Math.floor(ms / 1000), nanos: 0 };
}

function objectMeta(m: Json = {}): Json {
  const out: Json = {
    name: m.name ?? '', generateName: m.generateName ?? '', namespace: m.namespace ?? '', selfLink: m.selfLink ?? '',
    uid: m.uid ?? '', resourceVersion: m.resourceVersion ?? '', generation: m.generation ?? 0,
    creationTimestamp: time(m.creationTimestamp),
  };
  if (m.deletionTimestamp) out.deletionTimestamp = time(m.deletionTimestamp);
  if (m.deletionGracePeriodSeconds != null) out.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  out.labels = sortedMap(m.labels);
  out.annotations = sortedMap(m.annotations);
  out.ownerReferences = (m.ownerReferences ?? []).map((o: Json) => ({
    kind: o.kind ?? '', name: o.name ?? '', uid: o.uid ?? '', apiVersion: o.apiVersion ?? '',
    ...(o.controller != null ? { controller: o.controller } : {}),
    ...(o.blockOwnerDeletion != null ? { blockOwnerDeletion: o.blockOwnerDeletion } : {}),
  }));
  out.finalizers = m.finalizers ?? [];
  out.managedFields = (m.managedFields ?? []).map((e: Json) => ({
    manager: e.manager ?? '', operation: e.operation ?? '', apiVersion: e.apiVersion ?? '', time: time(e.time),
    fieldsType: e.fieldsType ?? '', fieldsV1: { Raw: Buffer.from(JSON.stringify(e.fieldsV1 ?? {})) }, subresource: e.subresource ?? '',
  }));
  return out;
}

function listMeta(m: Json = {}): Json {
  const out: Json = { selfLink: '', resourceVersion: m.resourceVersion ?? '', continue: m.continue ?? '' };
  if (m.remainingItemCount != null) out.remainingItemCount = m.remainingItemCount;
  return out;
}

function configMap(o: Json): Json {
  const out: Json = { metadata: objectMeta(o.metadata), data: sortedMap(o.data), binaryData: sortedMap(o.binaryData, true) };
  if (o.immutable != null) out.immutable = o.immutable;
  return out;
}

function secret(o: Json): Json {
  const out: Json = { metadata: objectMeta(o.metadata), data: sortedMap(o.data, true), type: o.type ?? '' };
  if (o.immutable != null) out.immutable = o.immutable;
  return out;
}

function namespace(o: Json): Json {
  return { metadata: objectMeta(o.metadata), spec: { finalizers: o.spec?.finalizers ?? [] }, status: { phase: o.status?.phase ?? '' } };
}

function status(o: Json): Json {
  const out: Json = { metadata: listMeta(o.metadata), status: o.status ?? '', message: o.message ?? '', reason: o.reason ?? '' };
  if (o.details) {
    const d = o.details;
    out.details = {
      name: d.name ?? '', group: d.group ?? '', kind: d.kind ?? '',
      causes: (d.causes ?? []).map((c: Json) => ({ reason: c.reason ?? '', message: c.message ?? '', field: c.field ?? '' })),
      retryAfterSeconds: d.retryAfterSeconds ?? 0, uid: d.uid ?? '',
    };
  }
  out.code = o.code ?? 0;
  return out;
}

const ITEM: Record<string, (o: Json) => Json> = { ConfigMap: configMap, Secret: secret, Namespace: namespace };

/** Encodes a JSON-shaped object of a supported kind, without the envelope. */
export function encodeRaw(kind: string, obj: Json): Buffer {
  let message: Json;
  if (kind === 'Status') message = status(obj);
  else if (kind.endsWith('List')) message = { metadata: listMeta(obj.metadata), items: (obj.items ?? []).map(ITEM[kind.slice(0, -4)]) };
  else message = ITEM[kind](obj);
  const t = T[kind as keyof typeof T];
  return Buffer.from(t.encode(t.fromObject(message)).finish());
}

/** `k8s\0` + runtime.Unknown{typeMeta, raw, contentEncoding:"", contentType:""}. */
export function encodeEnveloped(apiVersion: string, kind: string, obj: Json): Buffer {
  const unknown = T.Unknown.fromObject({
    typeMeta: { apiVersion, kind }, raw: encodeRaw(kind, obj), contentEncoding: '', contentType: '',
  });
  return Buffer.concat([PROTOBUF_MAGIC, T.Unknown.encode(unknown).finish()]);
}

/** One watch frame: 4-byte big-endian length + WatchEvent{type, object{raw: enveloped object}}. */
export function encodeWatchFrame(type: string, apiVersion: string, kind: string, obj: Json): Buffer {
  const event = Buffer.from(T.WatchEvent.encode(T.WatchEvent.fromObject({ type, object: { raw: encodeEnveloped(apiVersion, kind, obj) } })).finish());
  const frame = Buffer.allocUnsafe(4 + event.length);
  frame.writeUInt32BE(event.length, 0);
  event.copy(frame, 4);
  return frame;
}

/** Decoders for tests: the envelope and a watch stream. */
export function decodeEnveloped(body: Buffer): { apiVersion: string; kind: string; object: Json } {
  if (!body.subarray(0, 4).equals(PROTOBUF_MAGIC)) throw new Error('missing k8s protobuf magic');
  const u = T.Unknown.toObject(T.Unknown.decode(body.subarray(4)), { defaults: true }) as Json;
  const { apiVersion, kind } = u.typeMeta;
  const t = T[kind as keyof typeof T];
  if (!t) throw new Error(`no protobuf schema for kind ${kind}`);
  return { apiVersion, kind, object: t.toObject(t.decode(u.raw), { longs: Number, defaults: false }) };
}

export function decodeWatchFrames(body: Buffer): { type: string; apiVersion: string; kind: string; object: Json }[] {
  const out = [];
  for (let off = 0; off + 4 <= body.length; ) {
    const len = body.readUInt32BE(off);
    const event = T.WatchEvent.toObject(T.WatchEvent.decode(body.subarray(off + 4, off + 4 + len))) as Json;
    out.push({ type: event.type, ...decodeEnveloped(Buffer.from(event.object.raw)) });
    off += 4 + len;
  }
  return out;
}

import * as protobuf from 'protobufjs';
import * as zlib from 'node:zlib';
import { transcriptBody } from '../../test/support/transcripts';
import { continueExpired, notFound, tooLargeResourceVersion, watchTooOld } from '../k8s/status';
import { ProtoWriter, readFields as readFieldsOf } from './protobuf-fields';
import {
  K8S_MAGIC,
  WireError,
  decodeEnvelope,
  decodeWatchEvent,
  encodeBookmarkObject,
  encodeEnvelope,
  encodeList,
  encodeObjectMeta,
  encodeStatus,
  encodeWatchEvent,
  lengthPrefix,
  listItems,
  readListMeta,
  readObjectIdentity,
  readObjectMeta,
  readStatus,
  setObjectResourceVersion,
} from './protobuf';

/** An independent reading of the same messages, from a hand-written subset of k8s generated.proto. */
const schema = protobuf.parse(`
  syntax = "proto2";
  message Time { optional int64 seconds = 1; optional int32 nanos = 2; }
  message ListMeta { optional string selfLink = 1; optional string resourceVersion = 2; optional string continue = 3; optional int64 remainingItemCount = 4; }
  message ObjectMeta {
    optional string name = 1; optional string generateName = 2; optional string namespace = 3; optional string uid = 5;
    optional string resourceVersion = 6; optional int64 generation = 7; optional Time creationTimestamp = 8;
    optional Time deletionTimestamp = 9; optional int64 deletionGracePeriodSeconds = 10;
    map<string, string> labels = 11; map<string, string> annotations = 12; repeated string finalizers = 14;
  }
  message ConfigMap { optional ObjectMeta metadata = 1; map<string, string> data = 2; }
  message ConfigMapList { optional ListMeta metadata = 1; repeated ConfigMap items = 2; }
  message StatusCause { optional string type = 1; optional string message = 2; optional string field = 3; }
  message StatusDetails { optional string name = 1; optional string group = 2; optional string kind = 3; repeated StatusCause causes = 4; optional int32 retryAfterSeconds = 5; optional string uid = 6; }
  message Status { optional ListMeta metadata = 1; optional string status = 2; optional string message = 3; optional string reason = 4; optional StatusDetails details = 5; optional int32 code = 6; }
`).root;
const ConfigMap = schema.lookupType('ConfigMap');
const ConfigMapList = schema.lookupType('ConfigMapList');
const StatusType = schema.lookupType('Status');

const e1 = transcriptBody('e1-list-protobuf');
const e2 = transcriptBody('e2-watch-protobuf');
/** e2's frames at the offsets e2-watch-protobuf.frames.txt gives: 0 (206), 210 (271), 485 (270). */
const e2Frames = [e2.subarray(0, 210), e2.subarray(210, 485), e2.subarray(485, 759)];

describe('envelope', () => {
  it('decodes e1: magic + Unknown{typeMeta{v1, ConfigMapList}, raw, "", ""}', () => {
    const env = decodeEnvelope(e1);
    expect(env.apiVersion).toBe('v1');
    expect(env.kind).toBe('ConfigMapList');
    expect(env.contentEncoding).toBe('');
    expect(env.contentType).toBe('');
    expect(env.raw.length).toBe(804);
    expect(e1.subarray(0, 4)).toEqual(K8S_MAGIC);
  });

  it('re-encodes e1 and every e2 object byte for byte', () => {
    const env = decodeEnvelope(e1);
    expect(encodeEnvelope(env, env.raw).equals(e1)).toBe(true);
    for (const frame of e2Frames) {
      const object = decodeWatchEvent(frame.subarray(4)).object;
      const inner = decodeEnvelope(object);
      expect(inner.kind).toBe('ConfigMap');
      expect(encodeEnvelope({ apiVersion: inner.apiVersion, kind: inner.kind }, inner.raw).equals(object)).toBe(true);
    }
  });

  it('keeps a non-empty contentType and handles raw longer than 127 bytes', () => {
    const raw = Buffer.alloc(300, 7);
    const env = decodeEnvelope(encodeEnvelope({ apiVersion: 'apps/v1', kind: 'Deployment', contentType: 'x/y' }, raw));
    expect(env).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', raw, contentEncoding: '', contentType: 'x/y' });
  });

  it('refuses bodies without the magic, and malformed ones', () => {
    expect(() => decodeEnvelope(Buffer.from('{"kind":"ConfigMapList"}'))).toThrow(WireError);
    expect(() => decodeEnvelope(e1.subarray(4))).toThrow(/magic/);
    expect(() => decodeEnvelope(Buffer.from([0x6b, 0x38, 0x73]))).toThrow(WireError);
    expect(() => decodeEnvelope(Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a]))).toThrow(/truncated varint/);
    expect(() => decodeEnvelope(e1.subarray(0, 100))).toThrow(/runs past the end|declares/);
  });
});

describe('lists', () => {
  const raw = decodeEnvelope(e1).raw;

  it('reads ListMeta and items of e1', () => {
    expect(readListMeta(raw)).toEqual({
      resourceVersion: '241',
      continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MjQxLCJzdGFydCI6ImNtLTAzXHUwMDAwIn0',
      remainingItemCount: 27,
    });
    const metas = listItems(raw).map(readObjectMeta);
    expect(metas.map((m) => [m.name, m.namespace, m.resourceVersion])).toEqual([
      ['cm-01', 'tx', '234'],
      ['cm-02', 'tx', '235'],
      ['cm-03', 'tx', '236'],
    ]);
    expect(metas[0]).toMatchObject({ uid: '78f3290f-efed-4fd5-abe8-be04a4f914d3', creationTimestamp: '2026-11-21T00:46:05Z', labels: {}, annotations: {} });
    expect(metas[0].generation).toBeUndefined();
  });

  it('agrees with protobufjs decoding the same bytes with the schema', () => {
    const decoded = ConfigMapList.toObject(ConfigMapList.decode(raw), { longs: Number }) as {
      items: { metadata: { name: string; uid: string; resourceVersion: string } }[];
    };
    expect(listItems(raw).map((i) => readObjectMeta(i).uid)).toEqual(decoded.items.map((i) => i.metadata.uid));
  });

  it('encodeList reproduces e1 exactly, and the 60-item list of h5', () => {
    const rebuilt = encodeEnvelope(decodeEnvelope(e1), encodeList(readListMeta(raw), listItems(raw)));
    expect(rebuilt.equals(e1)).toBe(true);
    const h5 = zlib.gunzipSync(transcriptBody('h5-big-list-protobuf-gzip'));
    const h5raw = decodeEnvelope(h5).raw;
    expect(readListMeta(h5raw)).toEqual({ resourceVersion: '320', continue: '' });
    expect(listItems(h5raw)).toHaveLength(60);
    expect(encodeEnvelope(decodeEnvelope(h5), encodeList(readListMeta(h5raw), listItems(h5raw))).equals(h5)).toBe(true);
  });
});

describe('ObjectMeta', () => {
  const full = ConfigMap.encode(
    ConfigMap.fromObject({
      metadata: {
        name: 'n', generateName: 'n-', namespace: 'ns', uid: 'u-1', resourceVersion: '77', generation: 3,
        creationTimestamp: { seconds: 1795000000, nanos: 0 }, deletionTimestamp: { seconds: 1795000060 },
        deletionGracePeriodSeconds: 30, labels: { app: 'x', tier: 'web' }, annotations: { 'k8s.io/a': 'b' },
        finalizers: ['f1', 'f2'],
      },
      data: { k: 'v' },
    }),
  ).finish() as Uint8Array;
  const buf = Buffer.from(full);

  it('reads every field the lite meta has', () => {
    expect(readObjectMeta(buf)).toEqual({
      name: 'n', generateName: 'n-', namespace: 'ns', uid: 'u-1', resourceVersion: '77', generation: 3,
      creationTimestamp: '2026-11-18T11:06:40Z', deletionTimestamp: '2026-11-18T11:07:40Z', deletionGracePeriodSeconds: 30,
      labels: { app: 'x', tier: 'web' }, annotations: { 'k8s.io/a': 'b' }, finalizers: ['f1', 'f2'],
    });
  });

  it('treats an empty Time as unset (Go writes the zero time as an empty message)', () => {
    const meta = new ProtoWriter().string(1, 'a').bytes(8, Buffer.alloc(0));
    expect(readObjectMeta(new ProtoWriter().message(1, meta).finish()).creationTimestamp).toBeUndefined();
  });

  it('readObjectIdentity agrees with readObjectMeta on every e1 and h5 item', () => {
    const h5 = zlib.gunzipSync(transcriptBody('h5-big-list-protobuf-gzip'));
    for (const item of [...listItems(decodeEnvelope(e1).raw), ...listItems(decodeEnvelope(h5).raw), buf]) {
      const { name, namespace, uid, resourceVersion } = readObjectMeta(item);
      expect(readObjectIdentity(item)).toEqual({ name, namespace, uid, resourceVersion });
    }
  });

  it('rejects metadata with the wrong wire type', () => {
    expect(() => readObjectMeta(Buffer.from([0x08, 0x01]))).toThrow(WireError);
  });
});

describe('encodeObjectMeta', () => {
  it('writes the layout Go does: e1 item metadata byte for byte up to managedFields', () => {
    for (const item of listItems(decodeEnvelope(e1).raw)) {
      const metaField = readFieldsOf(item)[0];
      const goMeta = item.subarray(metaField.start, metaField.end);
      const mine = encodeObjectMeta(readObjectMeta(item));
      const managedFields = goMeta.indexOf(Buffer.from([0x8a, 0x01]), mine.length - 2);
      expect(managedFields).toBe(mine.length);
      expect(mine.toString('hex')).toBe(goMeta.subarray(0, managedFields).toString('hex'));
    }
  });

  it('round-trips labels (sorted), annotations, finalizers, deletion fields', () => {
    const meta = {
      name: 'a', namespace: 'n', uid: 'u', resourceVersion: '7', generation: 2, creationTimestamp: '2026-11-21T00:46:05Z',
      deletionTimestamp: '2026-11-21T00:47:05Z', deletionGracePeriodSeconds: 0, labels: { z: '1', a: '2' }, annotations: { k: 'v' }, finalizers: ['x'],
    };
    const obj = new ProtoWriter().bytes(1, encodeObjectMeta(meta)).finish();
    expect(readObjectMeta(obj)).toEqual({ generateName: '', ...meta });
    const decoded = ConfigMap.toObject(ConfigMap.decode(obj), { longs: Number }) as { metadata: { labels: Record<string, string> } };
    expect(decoded.metadata.labels).toEqual({ a: '2', z: '1' });
    expect(() => encodeObjectMeta({ creationTimestamp: 'yesterday' })).toThrow(WireError);
  });

  it('builds a BOOKMARK object with the initial-events-end annotation', () => {
    const obj = encodeBookmarkObject('326', { 'k8s.io/initial-events-end': 'true' });
    expect(readObjectMeta(obj)).toMatchObject({ name: '', resourceVersion: '326', annotations: { 'k8s.io/initial-events-end': 'true' } });
    expect(readObjectMeta(obj).creationTimestamp).toBeUndefined();
  });
});

describe('setObjectResourceVersion', () => {
  const added = decodeEnvelope(decodeWatchEvent(e2Frames[0].subarray(4)).object).raw;

  it('changes only the RV field and the metadata length', () => {
    expect(setObjectResourceVersion(added, '242').equals(added)).toBe(true);
    const changed = setObjectResourceVersion(added, '1234567');
    expect(changed.length).toBe(added.length + 4);
    const before = readObjectMeta(added);
    expect(readObjectMeta(changed)).toEqual({ ...before, resourceVersion: '1234567' });
    expect(setObjectResourceVersion(changed, '242').equals(added)).toBe(true);
    const decoded = ConfigMap.toObject(ConfigMap.decode(changed)) as { data: Record<string, string> };
    expect(decoded.data).toEqual({ a: 'b' });
  });

  it('grows the metadata length varint across 127/128', () => {
    const meta = new ProtoWriter().string(1, 'x'.repeat(117)).string(6, '1').string(3, 'ns');
    expect(meta.length).toBe(126);
    const obj = new ProtoWriter().message(1, meta).string(2, 'tail').finish();
    const out = setObjectResourceVersion(obj, '12345');
    expect(readObjectMeta(out)).toMatchObject({ name: 'x'.repeat(117), resourceVersion: '12345', namespace: 'ns' });
    expect(out.subarray(out.length - 6)).toEqual(obj.subarray(obj.length - 6));
  });

  it('inserts the field in order when absent, and metadata when there is none', () => {
    const obj = new ProtoWriter().message(1, new ProtoWriter().string(1, 'a').string(5, 'u').varint(7, 2)).finish();
    const out = setObjectResourceVersion(obj, '9');
    expect(out.toString('hex')).toBe(new ProtoWriter().message(1, new ProtoWriter().string(1, 'a').string(5, 'u').string(6, '9').varint(7, 2)).finish().toString('hex'));
    const bare = new ProtoWriter().string(2, 'spec').finish();
    expect(readObjectMeta(setObjectResourceVersion(bare, '5')).resourceVersion).toBe('5');
  });
});

describe('watch events', () => {
  it('decodes the e2 frames (ADDED, MODIFIED, DELETED of pb-1)', () => {
    const events = e2Frames.map((f) => {
      expect(f.readUInt32BE(0)).toBe(f.length - 4);
      return decodeWatchEvent(f.subarray(4));
    });
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(events.map((e) => readObjectMeta(decodeEnvelope(e.object).raw).resourceVersion)).toEqual(['242', '243', '244']);
  });

  it('encodeWatchEvent + lengthPrefix reproduce every e2 frame exactly', () => {
    for (const frame of e2Frames) {
      const { type, object } = decodeWatchEvent(frame.subarray(4));
      expect(lengthPrefix(encodeWatchEvent(type, object)).equals(frame)).toBe(true);
    }
  });

  it('rejects events without type or object', () => {
    expect(() => decodeWatchEvent(Buffer.from('0a054144444544', 'hex'))).toThrow(/no object/);
    expect(() => decodeWatchEvent(new ProtoWriter().bytes(2, new ProtoWriter().bytes(1, e1).finish()).finish())).toThrow(/no type/);
    expect(() => decodeWatchEvent(e2Frames[0].subarray(4, 100))).toThrow(WireError);
  });
});

describe('Status', () => {
  it('encodes the byte layout Go marshals (every non-pointer field present)', () => {
    const bytes = encodeStatus(watchTooOld('1', '198'));
    const message = Buffer.from('too old resource version: 1 (198)');
    const expected = Buffer.concat([
      Buffer.from('0a060a0012001a00', 'hex'),
      Buffer.from('1207', 'hex'), Buffer.from('Failure'),
      Buffer.from([0x1a, message.length]), message,
      Buffer.from('2207', 'hex'), Buffer.from('Expired'),
      Buffer.from('309a03', 'hex'),
    ]);
    expect(bytes.toString('hex')).toBe(expected.toString('hex'));
  });

  it.each([
    ['watch too old', watchTooOld('1', '198')],
    ['too large RV with causes and retryAfterSeconds', tooLargeResourceVersion('99999999', '236').status],
    ['not found with details', notFound('configmaps', 'x').status],
    ['expired continue with metadata.continue', continueExpired('eyJ2Ijoi').status],
  ])('round-trips %s through readStatus and protobufjs', (_what, status) => {
    const bytes = encodeStatus(status);
    expect(readStatus(bytes)).toEqual(JSON.parse(JSON.stringify(status)));
    const viaSchema = StatusType.toObject(StatusType.decode(bytes)) as { code: number; reason: string; details?: { causes?: { type: string }[] } };
    expect(viaSchema.code).toBe(status.code);
    expect(viaSchema.reason).toBe(status.reason);
    expect(viaSchema.details?.causes?.map((c) => c.type)).toEqual(status.details?.causes?.map((c) => c.reason));
  });

  it('keeps JSON key order and drops empty strings', () => {
    const s = readStatus(encodeStatus(tooLargeResourceVersion('5', '4').status));
    expect(Object.keys(s)).toEqual(['kind', 'apiVersion', 'metadata', 'status', 'message', 'reason', 'details', 'code']);
    expect(s.details).toEqual({ causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
  });

  it('travels as a protobuf ERROR watch frame', () => {
    const frame = lengthPrefix(encodeWatchEvent('ERROR', encodeEnvelope({ apiVersion: 'v1', kind: 'Status' }, encodeStatus(watchTooOld('1', '198')))));
    const event = decodeWatchEvent(frame.subarray(4));
    expect(event.type).toBe('ERROR');
    const env = decodeEnvelope(event.object);
    expect(env.kind).toBe('Status');
    expect(readStatus(env.raw)).toEqual(watchTooOld('1', '198'));
  });
});

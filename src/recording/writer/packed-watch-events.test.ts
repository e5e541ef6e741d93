import { decodeWatchFrame } from '../../wire/decode';
import { encodeEnvelope, encodeWatchEvent, lengthPrefix } from '../../wire/protobuf';
import { ProtoWriter } from '../../wire/protobuf-fields';
import { writerFixture } from '../../../test/support/writer-fixture';
import type { Db } from '../open';
import { OBSERVATION_RAW_SQL } from '../schema';
import type { RecordingWriter } from './recording-writer';
import type { ExchangeHead } from './writer-protocol';

const fixture = writerFixture();
let db: Db;
let writer: RecordingWriter;
beforeEach(() => ({ db, writer } = fixture));

const JSON_TYPE = 'application/json';
const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf;stream=watch';

/** Records one watch whose body is `frames`, in one arrival. */
function record(contentType: string, frames: Buffer[]): void {
  const head: ExchangeHead = { id: 1, startedAt: 1_000_000, method: 'GET', url: '/api/v1/namespaces/ns/configmaps?watch=1', requestHeaders: '[]',
    status: 200, responseHeaders: JSON.stringify([['Content-Type', contentType]]), streamed: true, upgrade: false };
  const data = Buffer.concat(frames);
  writer.apply({ msgs: [
    { k: 'open', head, requestBody: null },
    { k: 'chunk', id: 1, at: 1, data: { off: 0, len: data.length } },
    { k: 'close', id: 1, outcome: 'complete', durationMs: 2 },
  ], data });
  writer.commit();
}

/** What the object log holds for each watch event, and what its decoder reads from each frame. */
function compare(contentType: string, frames: Buffer[]) {
  const stored = db.prepare(`SELECT event, form, kind, namespace, name, uid, rv, ${OBSERVATION_RAW_SQL} AS raw FROM observations o ORDER BY id`).all() as any[];
  const decoded = frames.map((frame) => decodeWatchFrame(contentType, frame)).filter((e) => e.object).map(({ type, object: o }) => ({
    event: type, form: o!.form, kind: o!.kind || null, namespace: o!.namespace, name: o!.name, uid: o!.uid || null, rv: o!.resourceVersion || null,
    raw: contentType === JSON_TYPE ? o!.raw.toString() : o!.raw,
  }));
  return { stored: stored.map((s) => ({ ...s, raw: contentType === JSON_TYPE ? s.raw.toString() : s.raw })), decoded };
}

const long = (n: number) => 'n'.repeat(n);
/** Identities that take each way through the packing: plain bytes, escapes, non-ASCII, absent and empty fields, sizes needing each header. */
const identities: Array<{ type?: string; kind?: string; apiVersion?: string; name?: string; namespace?: string; uid?: string; rv?: string }> = [
  { name: 'a', namespace: 'ns', uid: 'u-1', rv: '11' },
  { type: 'MODIFIED', name: 'exactly-11c', namespace: 'ns', uid: '12-bytes-uid', rv: '12' },
  { type: 'DELETED', name: 'we"ird\\name', namespace: 'ns', uid: 'u/3', rv: '13' },
  { name: 'ünïcode-\u{1F600}', namespace: 'nä', uid: 'u\u0001', rv: '14' },
  { type: 'BOOKMARK', rv: '15' },
  { name: 'no-uid', namespace: '', uid: '', rv: '' },
  { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', name: 'p', namespace: 'ns', uid: 'u-p', rv: '16' },
  { kind: 'Widget', apiVersion: 'example.com/v1', name: long(300), namespace: long(200), uid: 'u-w', rv: '17' },
  { name: long(70000), namespace: 'ns', uid: 'u-long', rv: '18' },
  { type: 'CUSTOM', kind: '', name: 'no-kind', rv: '19' },
];

const metadataOf = (i: (typeof identities)[number]) =>
  Object.fromEntries(Object.entries({ name: i.name, namespace: i.namespace, uid: i.uid, resourceVersion: i.rv }).filter(([, v]) => v !== undefined));

test('each JSON watch event in the object log is what its decoder reads from the frame, scanned or parsed', () => {
  const frames = identities.map((i) => Buffer.from(`${JSON.stringify({ type: i.type ?? 'ADDED', object: {
    kind: i.kind ?? 'ConfigMap', apiVersion: i.apiVersion ?? 'v1', metadata: metadataOf(i), data: { k: 'v' } } })}\n`));
  // Layouts the scanner leaves to the full parse: whitespace, a member after the object, an escaped kind.
  frames.push(Buffer.from('{"type": "ADDED", "object": {"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "spaced", "resourceVersion": "20"}}}\n'));
  frames.push(Buffer.from('{"type":"ADDED","object":{"kind":"Config\\u004dap","apiVersion":"v1","metadata":{"name":"escaped-kind","resourceVersion":"21"}}}\n'));
  record(JSON_TYPE, frames);
  const { stored, decoded } = compare(JSON_TYPE, frames);
  expect(decoded).toHaveLength(frames.length);
  expect(stored).toEqual(decoded);
  expect(db.prepare('SELECT min(json_valid(events, 8)) AS ok FROM watch_observations').get()).toEqual({ ok: 1 });
  expect(db.prepare('SELECT first_rv, last_rv, events FROM watches').get()).toEqual({ first_rv: '11', last_rv: '21', events: frames.length });
});

test('each protobuf watch event in the object log is what its decoder reads from the frame', () => {
  const frames = identities.map((i) => {
    const meta = new ProtoWriter();
    if (i.name !== undefined) meta.string(1, i.name);
    if (i.namespace !== undefined) meta.string(3, i.namespace);
    if (i.uid !== undefined) meta.string(5, i.uid);
    if (i.rv !== undefined) meta.string(6, i.rv);
    meta.string(8, 'past the identity');
    const object = new ProtoWriter().message(1, meta).string(2, 'data').finish();
    return lengthPrefix(encodeWatchEvent(i.type ?? 'ADDED', encodeEnvelope({ apiVersion: i.apiVersion ?? 'v1', kind: i.kind ?? 'ConfigMap' }, object)));
  });
  record(PROTOBUF_TYPE, frames);
  const { stored, decoded } = compare(PROTOBUF_TYPE, frames);
  expect(decoded).toHaveLength(frames.length);
  expect(stored).toEqual(decoded);
  expect(db.prepare('SELECT min(json_valid(events, 8)) AS ok FROM watch_observations').get()).toEqual({ ok: 1 });
  expect(db.prepare('SELECT first_rv, last_rv FROM watches').get()).toEqual({ first_rv: '11', last_rv: '19' });
});

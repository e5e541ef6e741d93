import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openRecording, type Db } from '../open';
import { RecordingWriter } from './recording-writer';
import type { ExchangeHead, Span, WriterMessage } from './writer-protocol';
import { PAGE_SIZE } from './prepare-recording';
import { writerFixture } from '../../../test/support/writer-fixture';
import { OBSERVATION_RAW_SQL } from '../schema';
import { RawLoader } from '../reader/raw-loader';
import { encodeEnvelope, encodeWatchEvent, lengthPrefix } from '../../wire/protobuf';
import { ProtoWriter } from '../../wire/protobuf-fields';

const fixture = writerFixture();
let dir: string;
let db: Db;
let writer: RecordingWriter;
beforeEach(() => ({ dir, db, writer } = fixture));

/** Builds one batch: messages whose spans point into one buffer, as the proxy's queue does. */
function batch(build: (span: (b: Buffer | string) => Span) => WriterMessage[]) {
  const parts: Buffer[] = [];
  let off = 0;
  const span = (b: Buffer | string) => {
    const buf = Buffer.from(b);
    parts.push(buf);
    off += buf.length;
    return { off: off - buf.length, len: buf.length };
  };
  const msgs = build(span);
  writer.apply({ msgs, data: Buffer.concat(parts) });
  writer.commit();
}

const head = (id: number, method: string, url: string, status: number, headers: Array<[string, string]>, streamed = false): ExchangeHead => ({
  id, startedAt: 1_000_000, method, url, requestHeaders: '[]', status, responseHeaders: JSON.stringify(headers), streamed, upgrade: false,
});
const cm = (name: string, rv: number, extra: object = {}) => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'ns', uid: `u-${name}`, resourceVersion: String(rv), ...extra } });
const all = (sql: string, ...p: unknown[]) => db.prepare(sql).all(...p) as any[];

test('new recordings use PAGE_SIZE pages', () => {
  expect(db.pragma('page_size', { simple: true })).toBe(PAGE_SIZE);
});

const framesDdl = (d: Db) => d.prepare(`SELECT sql FROM sqlite_master WHERE name = 'frames'`).pluck().get() as string;

test('new recordings keep frames in a rowid table; a file made when it was WITHOUT ROWID is read and appended to alike', () => {
  expect(framesDdl(db)).not.toMatch(/WITHOUT ROWID/);
  // Made by kubetape 0.1 (schema 1, migrated to 2 on opening for writing; its frames table stays as it was).
  const old = join(dir, 'old.db');
  copyFileSync(join(__dirname, '../../../test/fixtures/configmaps-schema1.db'), old);
  const oldDb = openRecording(old);
  expect(framesDdl(oldDb)).toMatch(/WITHOUT ROWID/);
  const before = oldDb.prepare('SELECT exchange_id, seq, data FROM frames ORDER BY exchange_id, seq').all() as any[];
  expect(before.length).toBeGreaterThan(0);
  const id = (oldDb.prepare('SELECT max(id) FROM exchanges').pluck().get() as number) + 1;
  const event = `${JSON.stringify({ type: 'ADDED', object: cm('appended', 999) })}\n`;
  const appender = new RecordingWriter(oldDb, { keepSecrets: false });
  const watchHead = head(id, 'GET', '/api/v1/namespaces/ns/configmaps?watch=1', 200, [['Content-Type', 'application/json']], true);
  appender.apply({
    msgs: [
      { k: 'open', head: watchHead, requestBody: null },
      { k: 'chunk', id, at: 1, data: { off: 0, len: event.length } },
      { k: 'close', id, outcome: 'complete', durationMs: 2 },
    ],
    data: Buffer.from(event),
  });
  appender.close();
  const reopened = openRecording(old, { readonly: true });
  const after = reopened.prepare('SELECT exchange_id, seq, data FROM frames ORDER BY exchange_id, seq').all() as any[];
  expect(after).toEqual([...before, { exchange_id: id, seq: 0, data: Buffer.from(event) }]);
  const objectSql = `SELECT ${OBSERVATION_RAW_SQL} FROM observations o WHERE o.exchange_id = ?`;
  const raw = reopened.prepare(objectSql).pluck().get(id) as Buffer;
  expect(JSON.parse(raw.toString())).toEqual(cm('appended', 999));
  reopened.close();
});

test('a watch frame\'s events are one watch_observations row; one id sequence with the rows of lists and gets; the view unpacks them', () => {
  const odd = { name: 'we"ird\\näme\u0001', uid: 'ü-\u{1F600}', rv: '12' }; // escaped in JSON; never from a real apiserver
  const events = [
    { type: 'ADDED', object: cm('w1', 11) },
    { type: 'MODIFIED', object: { ...cm(odd.name, 12), metadata: { name: odd.name, namespace: 'ns', uid: odd.uid, resourceVersion: odd.rv } } },
    { type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '13' } } },
  ].map((e) => `${JSON.stringify(e)}\n`);
  const json: Array<[string, string]> = [['Content-Type', 'application/json']];
  batch((span) => [
    { k: 'close', id: 1, head: head(1, 'GET', '/api/v1/namespaces/ns/configmaps', 200, json), outcome: 'complete', durationMs: 1,
      responseBody: span(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '10' }, items: [cm('l1', 5), cm('l2', 6)] })) },
    { k: 'open', head: head(2, 'GET', '/api/v1/namespaces/ns/configmaps?watch=1&resourceVersion=10', 200, json, true), requestBody: null },
    { k: 'chunk', id: 2, at: 1, data: span(events.join('')) },
    { k: 'chunk', id: 2, at: 2, data: span(`${JSON.stringify({ type: 'DELETED', object: cm('w1', 14) })}\n`) },
    { k: 'close', id: 2, outcome: 'complete', durationMs: 3 },
    { k: 'close', id: 3, head: head(3, 'GET', '/api/v1/namespaces/ns/configmaps/l1', 200, json), outcome: 'complete', durationMs: 1, responseBody: span(JSON.stringify(cm('l1', 15))) },
  ]);
  expect(all('SELECT first_id, count, exchange_id, seq, api_version, resource, encoding FROM watch_observations ORDER BY first_id')).toEqual([
    { first_id: 3, count: 3, exchange_id: 2, seq: 0, api_version: 'v1', resource: 'configmaps', encoding: 'json' },
    { first_id: 6, count: 1, exchange_id: 2, seq: 1, api_version: 'v1', resource: 'configmaps', encoding: 'json' },
  ]);
  expect(all('SELECT id, source FROM observation_rows ORDER BY id')).toEqual([{ id: 1, source: 'list' }, { id: 2, source: 'list' }, { id: 7, source: 'get' }]);
  const watched = all(`SELECT id, exchange_id, seq, at_ms, source, event, form, api_group, kind, namespace, name, uid, rv, encoding, raw,
    CAST(${OBSERVATION_RAW_SQL} AS TEXT) AS object FROM observations o WHERE source = 'watch' ORDER BY id`);
  const row = (id: number, seq: number, event: string, object: any) => ({
    id, exchange_id: 2, seq, at_ms: 1_000_000 + seq + 1, source: 'watch', event, form: 'object', api_group: '', kind: 'ConfigMap',
    namespace: object.metadata.namespace ?? '', name: object.metadata.name ?? '', uid: object.metadata.uid ?? null, rv: object.metadata.resourceVersion,
    encoding: 'json', raw: null, object: JSON.stringify(object),
  });
  const objects = events.map((e) => JSON.parse(e).object);
  expect(watched).toEqual([row(3, 0, 'ADDED', objects[0]), row(4, 0, 'MODIFIED', objects[1]), row(5, 0, 'BOOKMARK', objects[2]), row(6, 1, 'DELETED', cm('w1', 14))]);
  expect(watched[1].name).toBe(odd.name);
  expect(watched[1].uid).toBe(odd.uid);
  // A row inserted into the view without an id (a hand-made recording) takes the next one after both tables.
  db.prepare(`INSERT INTO observations (exchange_id, seq, at_ms, source, api_group, api_version, resource, name) VALUES (3, 1, 1, 'get', '', 'v1', 'configmaps', 'x')`).run();
  expect(all('SELECT id FROM observations ORDER BY id').map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  const loader = new RawLoader(db);
  expect([3, 4, 5, 6].map((id) => loader.load(id))).toEqual(watched.map((w) => w.object));
});

test('a schema 2 recording is migrated when appended to: its observations keep their ids, new watch events follow them', () => {
  const file = join(dir, 'schema2.db');
  copyFileSync(join(__dirname, '../../../test/fixtures/configmaps-schema2.db'), file);
  const read = (d: Db) => d.prepare(`SELECT o.*, ${OBSERVATION_RAW_SQL} AS object FROM observations o ORDER BY id`).all() as any[];
  const old = openRecording(file, { readonly: true });
  expect(old.pragma('user_version', { simple: true })).toBe(2);
  const before = read(old);
  old.close();
  const migrated = openRecording(file);
  expect(migrated.pragma('user_version', { simple: true })).toBe(3);
  expect(read(migrated)).toEqual(before);
  const id = (migrated.prepare('SELECT max(id) FROM exchanges').pluck().get() as number) + 1;
  const event = `${JSON.stringify({ type: 'ADDED', object: cm('appended', 999) })}\n`;
  const appender = new RecordingWriter(migrated, { keepSecrets: false });
  appender.apply({
    msgs: [
      { k: 'open', head: head(id, 'GET', '/api/v1/namespaces/ns/configmaps?watch=1', 200, [['Content-Type', 'application/json']], true), requestBody: null },
      { k: 'chunk', id, at: 1, data: { off: 0, len: event.length } },
      { k: 'close', id, outcome: 'complete', durationMs: 2 },
    ],
    data: Buffer.from(event),
  });
  appender.close();
  const reopened = openRecording(file, { readonly: true });
  const after = read(reopened);
  reopened.close();
  expect(after.slice(0, -1)).toEqual(before);
  expect(after[after.length - 1]).toMatchObject({ id: before[before.length - 1].id + 1, exchange_id: id, name: 'appended', object: Buffer.from(JSON.stringify(cm('appended', 999))) });
});

test('a JSON watch cut at every byte: a frame per arrival holding the events it completed, each decoded and readable from its frame', () => {
  const events = [1, 2, 3].map((i) => `${JSON.stringify({ type: i === 3 ? 'DELETED' : 'ADDED', object: cm(`c${i}`, 10 + i) })}\n`);
  const body = Buffer.from(events.join(''));
  for (let cut = 1; cut < body.length; cut += 7) {
    const id = cut;
    batch((span) => [
      { k: 'open', head: head(id, 'GET', '/api/v1/namespaces/ns/configmaps?watch=1&resourceVersion=10', 200, [['Content-Type', 'application/json']], true), requestBody: null },
      { k: 'chunk', id, at: 1, data: span(body.subarray(0, cut)) },
      { k: 'chunk', id, at: 2, data: span(body.subarray(cut)) },
      { k: 'close', id, outcome: 'complete', durationMs: 3 },
    ]);
    // Whole events only: the first arrival completes those that end within it, the second the rest.
    const completedFirst = events.filter((_e, i) => events.slice(0, i + 1).join('').length <= cut);
    const frames = all('SELECT data, offset_ms FROM frames WHERE exchange_id = ? ORDER BY seq', id);
    expect(frames.map((f) => [f.offset_ms, f.data.toString()])).toEqual([
      ...(completedFirst.length ? [[1, completedFirst.join('')]] : []),
      [2, events.slice(completedFirst.length).join('')],
    ]);
    const observed = all(`SELECT event, name, rv, raw, CAST(${OBSERVATION_RAW_SQL} AS TEXT) AS object FROM observations o WHERE exchange_id = ? ORDER BY id`, id);
    expect(observed).toEqual([
      { event: 'ADDED', name: 'c1', rv: '11' }, { event: 'ADDED', name: 'c2', rv: '12' }, { event: 'DELETED', name: 'c3', rv: '13' },
    ].map((o) => ({ ...o, raw: null, object: JSON.stringify(cm(o.name, Number(o.rv))) })));
    expect(all('SELECT start_rv, events, first_rv, last_rv, ended FROM watches WHERE exchange_id = ?', id)).toEqual([
      { start_rv: '10', events: 3, first_rv: '11', last_rv: '13', ended: 'complete' },
    ]);
  }
});

test('a watch ending with ERROR 410 is expired; a frame cut off by the end is kept and noted', () => {
  const error = `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 } })}\n`;
  batch((span) => [
    { k: 'open', head: head(1, 'GET', '/api/v1/configmaps?watch=1&resourceVersion=1', 200, [['Content-Type', 'application/json']], true), requestBody: null },
    { k: 'chunk', id: 1, at: 1, data: span(error) },
    { k: 'close', id: 1, outcome: 'complete', durationMs: 1 },
    { k: 'open', head: head(2, 'GET', '/api/v1/configmaps?watch=1', 200, [['Content-Type', 'application/json']], true), requestBody: null },
    { k: 'chunk', id: 2, at: 1, data: span('{"type":"ADDED","obj') },
    { k: 'close', id: 2, outcome: 'complete', durationMs: 1 },
  ]);
  expect(all('SELECT exchange_id, events, ended FROM watches ORDER BY exchange_id')).toEqual([{ exchange_id: 1, events: 1, ended: 'expired' }, { exchange_id: 2, events: 0, ended: 'complete' }]);
  expect(all('SELECT count(*) AS n FROM observations')[0].n).toBe(0);
  expect(all('SELECT data FROM frames WHERE exchange_id = 2')[0].data.toString()).toBe('{"type":"ADDED","obj');
  expect(all('SELECT decode_error FROM exchanges WHERE id = 2')[0].decode_error).toBe('stream ended inside a frame (20 bytes)');
});

test('a gzip-encoded watch keeps its wire chunks as frames and is indexed at its end', () => {
  const plain = [1, 2].map((i) => `${JSON.stringify({ type: 'ADDED', object: cm(`g${i}`, i) })}\n`).join('');
  const gz = gzipSync(plain);
  batch((span) => [
    { k: 'open', head: head(1, 'GET', '/api/v1/configmaps?watch=1', 200, [['Content-Type', 'application/json'], ['Content-Encoding', 'gzip']], true), requestBody: null },
    { k: 'chunk', id: 1, at: 1, data: span(gz.subarray(0, 10)) },
    { k: 'chunk', id: 1, at: 2, data: span(gz.subarray(10)) },
    { k: 'close', id: 1, outcome: 'complete', durationMs: 2 },
  ]);
  expect(Buffer.concat(all('SELECT data FROM frames ORDER BY seq').map((f) => f.data)).equals(gz)).toBe(true);
  expect(all('SELECT name FROM observations ORDER BY seq').map((o) => o.name)).toEqual(['g1', 'g2']);
});

test('writes: a delete answered with the object is DELETED unless finalizers hold it; a Status Success delete; deletecollection; failures are not indexed', () => {
  const json = [['Content-Type', 'application/json']] as Array<[string, string]>;
  const whole = (id: number, method: string, url: string, status: number) =>
    ({ k: 'close', id, head: head(id, method, url, status, json), outcome: 'complete', durationMs: 1 }) as const;
  batch((span) => [
    { ...whole(1, 'DELETE', '/api/v1/namespaces/ns/configmaps/a', 200), responseBody: span(JSON.stringify(cm('a', 20))) },
    { ...whole(2, 'DELETE', '/api/v1/namespaces/ns/configmaps/b', 200), responseBody: span(JSON.stringify(cm('b', 21, { finalizers: ['x'], deletionTimestamp: '2026-01-01T00:00:00Z' }))) },
    { ...whole(3, 'DELETE', '/api/v1/namespaces/ns/widgets/w', 200), responseBody: span('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"w","kind":"widgets","uid":"u-w"}}') },
    { ...whole(4, 'DELETE', '/api/v1/namespaces/ns/configmaps', 200), responseBody: span(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '30' }, items: [cm('c', 22), cm('d', 23)] })) },
    { ...whole(5, 'POST', '/api/v1/namespaces/ns/configmaps', 201), responseBody: span(JSON.stringify(cm('e', 24))) },
    { ...whole(6, 'GET', '/api/v1/namespaces/ns/configmaps/zz', 404), responseBody: span('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","reason":"NotFound","code":404}') },
  ]);
  expect(all('SELECT exchange_id, source, event, name, uid FROM observations ORDER BY id')).toEqual([
    { exchange_id: 1, source: 'write', event: 'DELETED', name: 'a', uid: 'u-a' },
    { exchange_id: 2, source: 'write', event: null, name: 'b', uid: 'u-b' },
    { exchange_id: 3, source: 'write', event: 'DELETED', name: 'w', uid: 'u-w' },
    { exchange_id: 4, source: 'write', event: 'DELETED', name: 'c', uid: 'u-c' },
    { exchange_id: 4, source: 'write', event: 'DELETED', name: 'd', uid: 'u-d' },
    { exchange_id: 5, source: 'write', event: null, name: 'e', uid: 'u-e' },
  ]);
  expect(all('SELECT count(*) AS n FROM lists')[0].n).toBe(0);
  expect(all('SELECT id, verb, outcome FROM exchanges ORDER BY id').map((e) => e.verb)).toEqual(['delete', 'delete', 'delete', 'deletecollection', 'create', 'get']);
});

test('RawLoader reads each watch event of a shared frame, JSON as text and protobuf as bytes, in a batch and one at a time', () => {
  const objects = [1, 2, 3].map((i) => cm(`c${i}`, 10 + i));
  const json = objects.map((o) => `${JSON.stringify({ type: 'ADDED', object: o })}\n`).join('');
  const envelopes = objects.map((o) => encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap' }, new ProtoWriter().message(1, new ProtoWriter().string(1, o.metadata.name).string(6, o.metadata.resourceVersion)).finish()));
  const protobuf = Buffer.concat(envelopes.map((e) => lengthPrefix(encodeWatchEvent('ADDED', e))));
  batch((span) => [
    { k: 'open', head: head(1, 'GET', '/api/v1/configmaps?watch=1', 200, [['Content-Type', 'application/json']], true), requestBody: null },
    { k: 'chunk', id: 1, at: 1, data: span(json) },
    { k: 'close', id: 1, outcome: 'complete', durationMs: 2 },
    { k: 'open', head: head(2, 'GET', '/api/v1/configmaps?watch=1', 200, [['Content-Type', 'application/vnd.kubernetes.protobuf;stream=watch']], true), requestBody: null },
    { k: 'chunk', id: 2, at: 1, data: span(protobuf) },
    { k: 'close', id: 2, outcome: 'complete', durationMs: 2 },
  ]);
  expect(all('SELECT exchange_id, count(*) AS n FROM frames GROUP BY exchange_id')).toEqual([{ exchange_id: 1, n: 1 }, { exchange_id: 2, n: 1 }]);
  const ids = all('SELECT id FROM observations ORDER BY id').map((r) => r.id as number);
  const expected = [...objects.map((o) => JSON.stringify(o)), ...envelopes];
  const loader = new RawLoader(db);
  const many: Array<string | Buffer> = [];
  loader.loadMany(ids, (_id, raw) => many.push(raw));
  expect(many).toEqual(expected);
  expect(ids.map((id) => loader.load(id))).toEqual(expected);
});

test('a protobuf watch that turns into garbage (an impossible length) keeps every byte once: whole frames, then the rest as it came', () => {
  const good = lengthPrefix(encodeWatchEvent('ADDED', encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap' }, new ProtoWriter().message(1, new ProtoWriter().string(1, 'c1').string(6, '5')).finish())));
  const garbage = Buffer.from([0xff, 0xff, 0xff, 0xf0, 1, 2, 3, 4, 5]);
  for (const chunks of [[Buffer.concat([good, garbage])], [Buffer.concat([good, garbage.subarray(0, 2)]), garbage.subarray(2)], [good.subarray(0, 7), Buffer.concat([good.subarray(7), garbage])]]) {
    const id = chunks.length * 10 + chunks[0]!.length;
    batch((span) => [
      { k: 'open', head: head(id, 'GET', '/api/v1/configmaps?watch=1', 200, [['Content-Type', 'application/vnd.kubernetes.protobuf;stream=watch']], true), requestBody: null },
      ...chunks.map((c, i) => ({ k: 'chunk' as const, id, at: i + 1, data: span(c) })),
      { k: 'close', id, outcome: 'complete', durationMs: 3 },
    ]);
    const stored = Buffer.concat(all('SELECT data FROM frames WHERE exchange_id = ? ORDER BY seq', id).map((f) => f.data));
    expect(stored.equals(Buffer.concat([good, garbage]))).toBe(true);
    expect(all('SELECT name FROM observations WHERE exchange_id = ?', id)).toEqual([{ name: 'c1' }]);
    expect(all('SELECT decode_error FROM exchanges WHERE id = ?', id)[0].decode_error).toMatch(/watch framing/);
  }
});

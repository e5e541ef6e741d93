/**
 * What record does with bodies: a real apiserver's protobuf list and watch (transcripts e1, e2),
 * the fake's protobuf and gzip, bodies that do not decode, follow=true logs.
 * The client always gets the upstream's bytes; the file keeps them and the decoded object log.
 */
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { startFakeApiserver, type FakeApiserver } from '../support/fake-apiserver';
import { httpRequest } from '../support/http-client';
import { record, type RecordServer } from '../../src/record';
import { splitFrames } from '../../src/wire/watch-framer';
import { transcriptBody } from '../support/transcripts';
import { eventually, rows, sleep, tempDir } from './support';

const E1 = transcriptBody('e1-list-protobuf');
const E2 = transcriptBody('e2-watch-protobuf');
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** Answers with the transcripts' bytes and with bodies that do not decode. */
function scriptedUpstream(): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    const url = req.url ?? '';
    if (url === '/api/v1/namespaces/tx/configmaps?limit=3') {
      res.writeHead(200, { 'Content-Type': PROTOBUF, 'Content-Length': E1.length });
      return void res.end(E1);
    }
    if (url.startsWith('/api/v1/namespaces/tx/configmaps?watch=1')) {
      res.writeHead(200, { 'Content-Type': `${PROTOBUF};stream=watch` });
      // 100-byte chunks: frames split across chunks and several in one, as TCP delivers them
      for (let off = 0; off < E2.length; off += 100) {
        res.write(E2.subarray(off, off + 100));
        await sleep(5);
      }
      return void res.end();
    }
    if (url === '/api/v1/namespaces/bad/configmaps') {
      const body = '{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[{"metadata":{"name":';
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
      return void res.end(body);
    }
    if (url === '/api/v1/namespaces/bad/configmaps/nomagic') {
      res.writeHead(200, { 'Content-Type': PROTOBUF, 'Content-Length': 5 });
      return void res.end(Buffer.from([0x0a, 0x03, 0x61, 0x62, 0x63]));
    }
    if (url.startsWith('/api/v1/namespaces/bad/configmaps?watch=1')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const ev = (name: string, rv: string) => `${JSON.stringify({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'bad', uid: `u-${name}`, resourceVersion: rv } } })}\n`;
      res.write(ev('one', '10'));
      res.write('this is not JSON\n');
      res.end(ev('two', '11'));
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end('{}');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const tmp = tempDir();
afterAll(() => tmp.remove());

describe('a real apiserver\'s protobuf (transcripts e1, e2) and undecodable bodies', () => {
  let upstream: http.Server;
  let rec: RecordServer;
  const db = tmp.path('scripted.db');
  beforeAll(async () => {
    upstream = await scriptedUpstream();
    rec = await record({ db, upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, listen: '127.0.0.1:0' });
  });
  afterAll(async () => {
    await rec.close();
    upstream.close();
  });

  test('e1 protobuf list: passed through byte for byte, recorded as on the wire, decoded into lists and observations', async () => {
    const res = await httpRequest(`${rec.url}/api/v1/namespaces/tx/configmaps?limit=3`, { headers: { Accept: PROTOBUF } });
    expect(res.body.equals(E1)).toBe(true);
    await rec.flush();
    const [ex] = rows<any>(db, "SELECT * FROM exchanges WHERE url LIKE '%limit=3'");
    expect(ex).toMatchObject({ verb: 'list', status: 200, streamed: 0, outcome: 'complete', decode_error: null });
    expect(ex.response_body.equals(E1)).toBe(true);
    const [list] = rows<any>(db, 'SELECT * FROM lists WHERE exchange_id = ?', ex.id);
    expect(list).toMatchObject({ kind: 'ConfigMapList', rv: '241', remaining: 27, items: 3, encoding: 'protobuf', request_limit: 3 });
    expect(list.continue).toBe('eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MjQxLCJzdGFydCI6ImNtLTAzXHUwMDAwIn0');
    const items = rows<any>(db, 'SELECT * FROM observations WHERE exchange_id = ? ORDER BY seq', ex.id);
    expect(items.map((o) => [o.kind, o.namespace, o.name, o.encoding, o.source])).toEqual(
      ['cm-01', 'cm-02', 'cm-03'].map((n) => ['ConfigMap', 'tx', n, 'protobuf', 'list']));
    expect(items[0]).toMatchObject({ rv: '234', uid: '78f3290f-efed-4fd5-abe8-be04a4f914d3' });
    expect(items[1].rv).toBe('235');
    expect(items.every((o) => o.raw.subarray(0, 4).equals(Buffer.from('k8s\0')))).toBe(true);
  });

  test('e2 protobuf watch: the client gets the bytes; the file holds each event whole (length-prefixed) in its arrival\'s frame, decoded', async () => {
    const res = await httpRequest(`${rec.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=240`, { headers: { Accept: `${PROTOBUF};stream=watch` } });
    expect(res.body.equals(E2)).toBe(true);
    await eventually(async () => (await rec.flush()) && rows<any>(db, "SELECT outcome FROM exchanges WHERE verb = 'watch' AND namespace = 'tx'")[0]?.outcome === 'complete');
    const [ex] = rows<any>(db, "SELECT * FROM exchanges WHERE verb = 'watch' AND namespace = 'tx'");
    expect(ex).toMatchObject({ streamed: 1, response_body: null, decode_error: null });
    const frames = rows<any>(db, 'SELECT * FROM frames WHERE exchange_id = ? ORDER BY seq', ex.id);
    expect(frames.flatMap((f) => splitFrames(f.data, true)).map((e) => e.length)).toEqual([210, 275, 274]);
    expect(Buffer.concat(frames.map((f) => f.data)).equals(E2)).toBe(true);
    const events = rows<any>(db, 'SELECT event, kind, name, rv, uid, encoding FROM observations WHERE exchange_id = ? ORDER BY id', ex.id);
    expect(events).toEqual(['ADDED', 'MODIFIED', 'DELETED'].map((event, i) => ({
      event, kind: 'ConfigMap', name: 'pb-1', rv: String(242 + i), uid: '4e5b60f2-6fdc-4fc9-aa0e-5f8e3c2ddc95', encoding: 'protobuf',
    })));
    const [w] = rows<any>(db, 'SELECT * FROM watches WHERE exchange_id = ?', ex.id);
    expect(w).toMatchObject({ start_rv: '240', encoding: 'protobuf', events: 3, first_rv: '242', last_rv: '244', ended: 'complete' });
  });

  test('bodies that do not decode reach the client as sent, are recorded with the reason, and the proxy goes on', async () => {
    const truncated = await httpRequest(`${rec.url}/api/v1/namespaces/bad/configmaps`);
    expect(truncated.body.toString()).toMatch(/"items":\[\{"metadata":\{"name":$/);
    const nomagic = await httpRequest(`${rec.url}/api/v1/namespaces/bad/configmaps/nomagic`, { headers: { Accept: PROTOBUF } });
    expect(nomagic.body.equals(Buffer.from([0x0a, 0x03, 0x61, 0x62, 0x63]))).toBe(true);
    const watch = await httpRequest(`${rec.url}/api/v1/namespaces/bad/configmaps?watch=1`);
    expect(watch.body.toString().split('\n')[1]).toBe('this is not JSON');
    const after = await httpRequest(`${rec.url}/api/v1/namespaces/tx/configmaps?limit=3`, { headers: { Accept: PROTOBUF } });
    expect(after.status).toBe(200);
    await rec.flush();
    const bad = rows<any>(db, "SELECT url, verb, response_body, decode_error FROM exchanges WHERE namespace = 'bad' ORDER BY id");
    expect(bad.map((e) => e.verb)).toEqual(['list', 'get', 'watch']);
    expect(bad[0].decode_error).toMatch(/JSON|unterminated/i);
    expect(bad[0].response_body.equals(truncated.body)).toBe(true);
    expect(bad[1].decode_error).toMatch(/magic/);
    await eventually(async () => (await rec.flush()) && rows<any>(db, "SELECT decode_error FROM exchanges WHERE verb = 'watch' AND namespace = 'bad'")[0]?.decode_error !== null);
    expect(rows<any>(db, "SELECT decode_error FROM exchanges WHERE verb = 'watch' AND namespace = 'bad'")[0].decode_error).toMatch(/^watch event 1: /);
    const watchId = rows<any>(db, "SELECT id FROM exchanges WHERE verb = 'watch' AND namespace = 'bad'")[0].id;
    const lines = rows<any>(db, 'SELECT data FROM frames WHERE exchange_id = ? ORDER BY seq', watchId).flatMap((f) => splitFrames(f.data, false).map(String));
    expect(lines.map((l) => l.slice(0, 16))).toEqual(['{"type":"ADDED",', 'this is not JSON', '{"type":"ADDED",']);
    expect(rows<any>(db, 'SELECT name FROM observations WHERE exchange_id = ? ORDER BY id', watchId).map((o) => o.name)).toEqual(['one', 'two']);
  });
});

describe('the fake apiserver: protobuf list and watch, gzip over 128 KiB, follow=true logs', () => {
  let api: FakeApiserver;
  let rec: RecordServer;
  const db = tmp.path('fake.db');
  const NOW = new Date('2026-11-21T00:00:00Z');
  beforeAll(async () => {
    api = await startFakeApiserver({ now: () => NOW, logIntervalMs: 20 });
    api.seedConfigMaps('pb', 3);
    api.seedConfigMaps('big', 60, { dataSize: 4096 });
    api.create('pods', 'pb', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    rec = await record({ db, kubeconfig: api.kubeconfigPath, listen: '127.0.0.1:0' });
  });
  afterAll(async () => {
    await rec.close();
    await api.close();
  });

  test('protobuf list and watch through record: same bytes as direct, kinds, names and RVs decoded', async () => {
    const listUrl = '/api/v1/namespaces/pb/configmaps';
    const direct = await httpRequest(`${api.url}${listUrl}`, { headers: { Accept: PROTOBUF } });
    const proxied = await httpRequest(`${rec.url}${listUrl}`, { headers: { Accept: PROTOBUF } });
    expect(proxied.headers['content-type']).toBe(PROTOBUF);
    expect(proxied.body.equals(direct.body)).toBe(true);

    const rv = api.resourceVersion;
    const watching = httpRequest(`${rec.url}${listUrl}?watch=1&resourceVersion=${rv}&timeoutSeconds=1`, { headers: { Accept: `${PROTOBUF};stream=watch` } });
    await eventually(() => api.requests.some((r) => r.url.includes('timeoutSeconds=1')));
    api.create('configmaps', 'pb', { metadata: { name: 'new' }, data: { a: '1' } });
    api.patchData('configmaps', 'pb', 'new', { a: '2' });
    api.delete('configmaps', 'pb', 'new');
    const watched = await watching;
    await rec.flush();
    const [list] = rows<any>(db, "SELECT l.* FROM lists l JOIN exchanges e ON e.id = l.exchange_id WHERE e.url = ?", listUrl);
    expect(list).toMatchObject({ kind: 'ConfigMapList', encoding: 'protobuf', items: 3, rv: String(rv) });
    const listed = rows<any>(db, "SELECT o.name, o.rv, o.kind FROM observations o JOIN exchanges e ON e.id = o.exchange_id WHERE e.url = ? ORDER BY o.seq", listUrl);
    expect(listed).toEqual(api.list('configmaps', 'pb').map((o) => ({ name: o.metadata.name, rv: o.metadata.resourceVersion, kind: 'ConfigMap' })));

    expect(await eventually(async () => (await rec.flush()) && rows<any>(db, "SELECT ended FROM watches WHERE namespace = 'pb'")[0]?.ended === 'complete')).toBe(true);
    const [w] = rows<any>(db, "SELECT * FROM watches WHERE namespace = 'pb'");
    expect(w).toMatchObject({ encoding: 'protobuf', events: 3, first_rv: String(rv + 1), last_rv: String(rv + 3), start_rv: String(rv) });
    const frames = rows<any>(db, 'SELECT data FROM frames WHERE exchange_id = ? ORDER BY seq', w.exchange_id);
    expect(Buffer.concat(frames.map((f) => f.data)).equals(watched.body)).toBe(true);
    const framed = frames.flatMap((f) => splitFrames(f.data, true));
    expect(framed).toHaveLength(3);
    expect(framed.every((e) => e.readUInt32BE(0) === e.length - 4)).toBe(true);
    const events = rows<any>(db, 'SELECT event, name, rv FROM observations WHERE exchange_id = ? ORDER BY id', w.exchange_id);
    expect(events).toEqual([['ADDED', rv + 1], ['MODIFIED', rv + 2], ['DELETED', rv + 3]].map(([event, r]) => ({ event, name: 'new', rv: String(r) })));
  });

  test('a gzip list over 128 KiB passes through compressed and unchanged; the file keeps it compressed and decodes it', async () => {
    const url = '/api/v1/namespaces/big/configmaps';
    const direct = await httpRequest(`${api.url}${url}`, { headers: { 'Accept-Encoding': 'gzip' } });
    const proxied = await httpRequest(`${rec.url}${url}`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(proxied.headers['content-encoding']).toBe('gzip');
    expect(proxied.body.equals(direct.body)).toBe(true);
    const plain = gunzipSync(proxied.body);
    expect(plain.length).toBeGreaterThan(128 * 1024);
    await rec.flush();
    const [ex] = rows<any>(db, 'SELECT * FROM exchanges WHERE url = ?', url);
    expect(ex.response_body.equals(proxied.body)).toBe(true);
    expect(JSON.parse(ex.response_headers)).toContainEqual(['Content-Encoding', 'gzip']);
    const objects = rows<any>(db, 'SELECT name, raw FROM observations WHERE exchange_id = ? ORDER BY seq', ex.id);
    expect(objects).toHaveLength(60);
    expect(objects.map((o) => JSON.parse(o.raw.toString()).data.k)).toEqual(JSON.parse(plain.toString()).items.map((i: any) => i.data.k));
  });

  test('follow=true logs stream through as they come and are recorded as raw chunks; the client leaving aborts it', async () => {
    const text = await new Promise<string>((resolve) => {
      let got = '';
      const req = http.get(`${rec.url}/api/v1/namespaces/pb/pods/p/log?follow=true`, (res) => {
        res.on('data', (d) => {
          got += d;
          if (got.split('\n').length > 6) {
            req.destroy();
            resolve(got);
          }
        });
      });
    });
    expect(text.split('\n').slice(0, 6)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `p log line ${n}`));
    expect(await eventually(async () => (await rec.flush()) && rows<any>(db, "SELECT outcome FROM exchanges WHERE subresource = 'log'")[0]?.outcome === 'aborted')).toBe(true);
    const [ex] = rows<any>(db, "SELECT * FROM exchanges WHERE subresource = 'log'");
    expect(ex).toMatchObject({ streamed: 1, status: 200, verb: 'get' });
    const frames = rows<any>(db, 'SELECT data, offset_ms FROM frames WHERE exchange_id = ? ORDER BY seq', ex.id);
    expect(frames.length).toBeGreaterThanOrEqual(3); // the first lines at once, then one chunk per line as it is written
    expect(Buffer.concat(frames.map((f) => f.data)).toString().startsWith(text)).toBe(true);
    expect(frames.at(-1).offset_ms).toBeGreaterThan(frames[0].offset_ms);
  });
});

/** Protobuf, Tables, gzip and write errors of the fake apiserver, against the reference transcripts. */
import { gunzipSync } from 'node:zlib';
import net from 'node:net';
import { startFakeApiserver, decodeEnveloped, decodeWatchFrames, encodeEnveloped, encodeWatchFrame, PROTOBUF_MAGIC, type FakeApiserver } from './fake-apiserver';
import { httpRequest } from './http-client';
import { transcript } from './transcripts';

const CLIENT_GO_PROTOBUF = 'application/vnd.kubernetes.protobuf, application/json';
const KUBECTL_TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

let api: FakeApiserver;
const clock = new Date('2026-11-21T00:47:21Z');

beforeAll(async () => {
  api = await startFakeApiserver({ now: () => clock });
  api.seedConfigMaps('tx', 30);
});
afterAll(() => api.close());

const get = (path: string, headers: Record<string, string>) => httpRequest(api.url + path, { headers: { 'User-Agent': 'probe/1.0', ...headers } });
const jsonBody = (t: { body: Buffer }) => JSON.parse(t.body.toString());
const iso = (t?: { seconds?: number }) => (t?.seconds ? new Date(t.seconds * 1000).toISOString().replace('.000Z', 'Z') : null);

/** The JSON form of a decoded protobuf ConfigMap (what the apiserver would have written as JSON). */
function configMapJson(o: any) {
  const m = o.metadata;
  return {
    metadata: {
      name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: iso(m.creationTimestamp),
      managedFields: m.managedFields.map((e: any) => ({
        manager: e.manager, operation: e.operation, apiVersion: e.apiVersion, time: iso(e.time), fieldsType: e.fieldsType,
        fieldsV1: JSON.parse(Buffer.from(e.fieldsV1.Raw).toString()),
      })),
    },
    data: o.data,
  };
}

describe('protobuf', () => {
  test('the encoder reproduces e1 byte for byte from the JSON of the same objects (d0)', () => {
    const e1 = transcript('e1-list-protobuf').body;
    const d0 = jsonBody(transcript('d0-list-limit5-for-token'));
    const token = decodeEnveloped(e1).object.metadata.continue;
    const list = { metadata: { resourceVersion: '241', continue: token, remainingItemCount: 27 }, items: d0.items.slice(0, 3) };
    expect(encodeEnveloped('v1', 'ConfigMapList', list).equals(e1)).toBe(true);
  });

  test('the encoder reproduces every e2 watch frame byte for byte', () => {
    const e2 = transcript('e2-watch-protobuf').body;
    const frames = decodeWatchFrames(e2);
    expect(frames.map((f) => f.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    const again = Buffer.concat(frames.map((f) => encodeWatchFrame(f.type, 'v1', 'ConfigMap', configMapJson(f.object))));
    expect(again.equals(e2)).toBe(true);
  });

  test('client-go Accept gets a k8s\\0 envelope holding the same list as JSON', async () => {
    const res = await get('/api/v1/namespaces/tx/configmaps?limit=3', { Accept: CLIENT_GO_PROTOBUF });
    expect(res.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    expect(res.body.subarray(0, 4).equals(PROTOBUF_MAGIC)).toBe(true);
    const { kind, apiVersion, object } = decodeEnveloped(res.body);
    const json = jsonBody(await get('/api/v1/namespaces/tx/configmaps?limit=3', { Accept: 'application/json' }));
    expect([apiVersion, kind]).toEqual(['v1', 'ConfigMapList']);
    expect(object.metadata).toMatchObject({ resourceVersion: json.metadata.resourceVersion, continue: json.metadata.continue, remainingItemCount: 27 });
    expect(object.items.map(configMapJson)).toEqual(json.items);
  });

  test('watch frames: 4-byte length + WatchEvent, inner object enveloped (e2)', async () => {
    const from = api.resourceVersion;
    const pending = get(`/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=${from}&timeoutSeconds=1`, { Accept: 'application/vnd.kubernetes.protobuf;stream=watch' });
    await new Promise((r) => setTimeout(r, 100));
    api.create('configmaps', 'tx', { metadata: { name: 'pb-1' }, data: { a: 'b' } });
    api.patchData('configmaps', 'tx', 'pb-1', { a: 'c' });
    api.delete('configmaps', 'tx', 'pb-1');
    const res = await pending;
    expect(res.headers['content-type']).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    expect(res.body.readUInt32BE(0) + 4).toBeLessThan(res.body.length);
    const frames = decodeWatchFrames(res.body);
    expect(frames.map((f) => [f.type, f.kind, f.object.metadata.resourceVersion])).toEqual([
      ['ADDED', 'ConfigMap', String(from + 1)], ['MODIFIED', 'ConfigMap', String(from + 2)], ['DELETED', 'ConfigMap', String(from + 3)],
    ]);
  });

  test('errors are protobuf Status for clients that prefer protobuf', async () => {
    const res = await get('/api/v1/namespaces/tx/configmaps/missing', { Accept: CLIENT_GO_PROTOBUF });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    const { kind, object } = decodeEnveloped(res.body);
    expect(kind).toBe('Status');
    expect(object).toMatchObject({ status: 'Failure', message: 'configmaps "missing" not found', reason: 'NotFound', code: 404, details: { name: 'missing', kind: 'configmaps' } });
  });

  test('types without a protobuf schema fall back to JSON, or 406 when only protobuf is acceptable', async () => {
    api.create('widgets', 'tx', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 } });
    const fallback = await get('/apis/example.com/v1/namespaces/tx/widgets', { Accept: CLIENT_GO_PROTOBUF });
    expect(fallback.headers['content-type']).toBe('application/json');
    expect(Object.keys(jsonBody(fallback))).toEqual(['apiVersion', 'items', 'kind', 'metadata']);
    expect(Object.keys(jsonBody(fallback).items[0])).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    const only = await get('/apis/example.com/v1/namespaces/tx/widgets', { Accept: 'application/vnd.kubernetes.protobuf' });
    expect(only.status).toBe(406);
  });
});

describe('tables (f1–f6)', () => {
  test('kubectl get Accept → a Table with the apiserver\'s columns and PartialObjectMetadata rows (f2)', async () => {
    const want = jsonBody(transcript('f2-list-table-kubectl-accept'));
    const res = await get('/api/v1/namespaces/tx/configmaps?limit=1', { Accept: KUBECTL_TABLE });
    const table = jsonBody(res);
    expect(res.headers['content-type']).toBe('application/json');
    expect(Object.keys(table)).toEqual(Object.keys(want));
    expect(table.columnDefinitions).toEqual(want.columnDefinitions);
    expect(table.rows[0].cells).toEqual(['cm-01', 1, '0s']);
    expect(Object.keys(table.rows[0].object)).toEqual(['kind', 'apiVersion', 'metadata']);
    expect(table.rows[0].object.kind).toBe('PartialObjectMetadata');
    expect(table.metadata.remainingItemCount).toBe(29);
  });

  test('a single get as Table carries the object RV (f5); includeObject=Object embeds the object', async () => {
    const one = jsonBody(await get('/api/v1/namespaces/tx/configmaps/cm-02?includeObject=Object', { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1beta1' }));
    expect(one.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(one.metadata).toEqual({ resourceVersion: one.rows[0].object.metadata.resourceVersion });
    expect(one.rows[0].object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { k: 'v02' } });
  });

  test.each([
    ['f4-list-table-protobuf', 'application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1'],
    ['f6-list-table-bad-version', 'application/json;as=Table;g=meta.k8s.io;v=v9'],
  ])('%s → 406 with the indented body', async (name, accept) => {
    const want = transcript(name);
    const res = await get('/api/v1/namespaces/tx/configmaps?limit=1', { Accept: accept });
    expect(res.status).toBe(406);
    expect(res.body.equals(want.body)).toBe(true);
  });

  test('PartialObjectMetadataList (f3)', async () => {
    const list = jsonBody(await get('/api/v1/namespaces/tx/configmaps?limit=1', { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' }));
    expect(list.kind).toBe('PartialObjectMetadataList');
    expect(list.items[0]).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: expect.objectContaining({ name: 'cm-01' }) });
  });
});

describe('gzip (h1–h6)', () => {
  test('bodies of 128 KiB and more are gzipped when accepted, smaller ones and watches never', async () => {
    api.seedConfigMaps('big', 20, { dataSize: 8000 });
    const size = async (limit: number) => (await get(`/api/v1/namespaces/big/configmaps?limit=${limit}`, {})).body.length;
    let limit = 1;
    while ((await size(limit + 1)) < 128 * 1024) limit++;
    const below = await get(`/api/v1/namespaces/big/configmaps?limit=${limit}`, { 'Accept-Encoding': 'gzip' });
    const above = await get(`/api/v1/namespaces/big/configmaps?limit=${limit + 1}`, { 'Accept-Encoding': 'gzip' });
    expect(below.headers['content-encoding']).toBeUndefined();
    expect(below.body.length).toBeLessThan(128 * 1024);
    expect(above.headers['content-encoding']).toBe('gzip');
    expect(above.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(above.body).length).toBeGreaterThanOrEqual(128 * 1024);
    const pb = await get('/api/v1/namespaces/big/configmaps', { 'Accept-Encoding': 'gzip', Accept: 'application/vnd.kubernetes.protobuf' });
    expect(pb.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(pb.body).subarray(0, 4).equals(PROTOBUF_MAGIC)).toBe(true);
    const watch = await get('/api/v1/namespaces/big/configmaps?watch=1&resourceVersion=0&timeoutSeconds=1', { 'Accept-Encoding': 'gzip' });
    expect(watch.headers['content-encoding']).toBeUndefined();
    expect(watch.body.length).toBeGreaterThan(128 * 1024);
  });
});

describe('writes', () => {
  const send = (method: string, path: string, body: unknown, contentType = 'application/json') =>
    httpRequest(api.url + path, { method, headers: { 'Content-Type': contentType, 'User-Agent': 'probe/1.0' }, body: JSON.stringify(body) });

  test('create 201, AlreadyExists 409, stale update 409 Conflict, NotFound 404 with details', async () => {
    const created = await send('POST', '/api/v1/namespaces/tx/configmaps', { metadata: { name: 'w' }, data: { a: '1' } });
    expect(created.status).toBe(201);
    const obj = jsonBody(created);
    expect(obj.metadata.managedFields[0].manager).toBe('probe');
    const again = await send('POST', '/api/v1/namespaces/tx/configmaps', { metadata: { name: 'w' } });
    expect(again.body.toString()).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"w\\" already exists","reason":"AlreadyExists","details":{"name":"w","kind":"configmaps"},"code":409}\n');
    const updated = await send('PUT', '/api/v1/namespaces/tx/configmaps/w', { ...obj, data: { a: '2' } });
    expect(updated.status).toBe(200);
    const stale = await send('PUT', '/api/v1/namespaces/tx/configmaps/w', { ...obj, data: { a: '3' } });
    expect(stale.status).toBe(409);
    expect(jsonBody(stale)).toMatchObject({ reason: 'Conflict', message: 'Operation cannot be fulfilled on configmaps "w": the object has been modified; please apply your changes to the latest version and try again' });
    const patched = await send('PATCH', '/api/v1/namespaces/tx/configmaps/w', { data: { b: 'x' } }, 'application/merge-patch+json');
    expect(jsonBody(patched).data).toEqual({ a: '2', b: 'x' });
    const deleted = await send('DELETE', '/api/v1/namespaces/tx/configmaps/w', {});
    expect(jsonBody(deleted)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'w', kind: 'configmaps', uid: obj.metadata.uid } });
    const missing = await get('/api/v1/namespaces/tx/configmaps/w', {});
    expect(missing.body.toString()).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"w\\" not found","reason":"NotFound","details":{"name":"w","kind":"configmaps"},"code":404}\n');
    const noNs = await send('POST', '/api/v1/namespaces/nowhere/configmaps', { metadata: { name: 'x' } });
    expect(jsonBody(noNs)).toMatchObject({ code: 404, message: 'namespaces "nowhere" not found' });
  });

  test('api.requests logs what clients sent', async () => {
    await get('/api/v1/namespaces/tx/configmaps?limit=1', { 'X-Probe': 'yes' });
    const last = api.requests.at(-1)!;
    expect(last).toMatchObject({ method: 'GET', url: '/api/v1/namespaces/tx/configmaps?limit=1' });
    expect(last.headers['x-probe']).toBe('yes');
  });
});

describe('discovery, all-namespaces lists, upgrades', () => {
  test('legacy discovery documents and the aggregated form with its content type', async () => {
    const v1 = jsonBody(await get('/api/v1', {}));
    expect(Object.keys(v1)).toEqual(['kind', 'groupVersion', 'resources']);
    expect(v1.resources.find((r: any) => r.name === 'configmaps')).toEqual({
      name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['cm'], storageVersionHash: 'qFsyl6wFWjQ=',
    });
    expect(v1.resources.map((r: any) => r.name)).toContain('pods/exec');
    const group = jsonBody(await get('/apis/example.com/v1', {}));
    expect(group).toMatchObject({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'example.com/v1' });
    const agg = await get('/apis', { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' });
    expect(agg.headers['content-type']).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(jsonBody(agg).items[0]).toMatchObject({ metadata: { name: 'example.com' }, versions: [{ version: 'v1', freshness: 'Current' }] });
    const version = await get('/version', {});
    expect(version.body.toString()).toMatch(/^\{\n  "major": "1",\n  "minor": "32",\n  "gitVersion": "v1.32.4",/);
  });

  test('/api/v1/configmaps pages across namespaces with namespace/name start keys', async () => {
    const page = jsonBody(await get('/api/v1/configmaps?limit=2', {}));
    expect(page.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual(['big/cm-01', 'big/cm-02']);
    expect(Buffer.from(page.metadata.continue, 'base64url').toString()).toBe(`{"v":"meta.k8s.io/v1","rv":${page.metadata.resourceVersion},"start":"big/cm-02\\u0000"}`);
    const next = jsonBody(await get(`/api/v1/configmaps?limit=100&continue=${page.metadata.continue}`, {}));
    expect(next.items[0].metadata.name).toBe('cm-03');
    expect(next.items.at(-1).metadata.namespace).toBe('tx');
  });

  test('SPDY/3.1 upgrades get the 101 a passthrough proxy must relay, then bytes echo', async () => {
    api.create('pods', 'tx', { metadata: { name: 'sp' }, spec: { containers: [{ name: 'c', image: 'x' }] } });
    const { port } = new URL(api.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let got = '';
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (got.includes('\r\n\r\n') && !got.includes('ping')) socket.write('ping');
    });
    socket.write('POST /api/v1/namespaces/tx/pods/sp/exec?command=sh&stdin=true HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\nContent-Length: 0\r\n\r\n');
    for (let i = 0; i < 100 && !got.endsWith('ping'); i++) await new Promise((r) => setTimeout(r, 20));
    socket.destroy();
    expect(got).toMatch(/^HTTP\/1.1 101 Switching Protocols\r\n/);
    expect(got).toContain('Upgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\nping');
  });
});

/**
 * The fake apiserver against the reference transcripts: a timeline replayed with the same revisions, clock and
 * requests as the real v1.26 session, so bodies can be compared byte for byte (UIDs aside).
 */
import { startFakeApiserver, decodeContinue, encodeContinue, type FakeApiserver } from './fake-apiserver';
import { httpRequest, rawExchange, collectWatch } from './http-client';
import { transcript } from './transcripts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const normal = (b: Buffer | string) => b.toString().replace(UUID, '<uid>');
const PROBE = { 'User-Agent': 'probe/1.0', Accept: '*/*' };

let clock = new Date('2026-11-21T00:46:05Z');
let api: FakeApiserver;
let firstToken = '';

beforeAll(async () => {
  // Same revisions as the recorded session: namespaces 197-201, cm-01..cm-30 at 202-231, one more write at 232.
  api = await startFakeApiserver({ startResourceVersion: 196, now: () => clock, tooLargeWaitMs: 200 });
  api.seedConfigMaps('tx', 30);
  api.create('secrets', 'tx', { metadata: { name: 'other' } });
});
afterAll(() => api.close());

const get = (path: string, headers: Record<string, string> = PROBE) => httpRequest(api.url + path, { headers });
async function until(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !pred(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(pred()).toBe(true);
}

describe('paging (a0–a2)', () => {
  test('limit=5 answers like a1, byte for byte apart from UIDs', async () => {
    const want = transcript('a1-list-limit5');
    const res = await get('/api/v1/namespaces/tx/configmaps?limit=5');
    expect(res.status).toBe(200);
    expect(normal(res.body)).toBe(normal(want.body));
    expect(res.headers['content-length']).toBe('1989');
    expect(res.headers['cache-control']).toBe('no-cache, private');
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['audit-id']).toMatch(UUID);
    expect(res.headerNames.slice(0, 5)).toEqual(['Audit-Id', 'Cache-Control', 'Content-Type', 'X-Kubernetes-Pf-Flowschema-Uid', 'X-Kubernetes-Pf-Prioritylevel-Uid']);
    firstToken = JSON.parse(res.body.toString()).metadata.continue;
    expect(Buffer.from(firstToken, 'base64url').toString()).toBe('{"v":"meta.k8s.io/v1","rv":232,"start":"cm-05\\u0000"}');
    expect(firstToken).not.toContain('=');
  });

  test('the continue page answers like a2', async () => {
    const res = await get(`/api/v1/namespaces/tx/configmaps?limit=5&continue=${firstToken}`);
    expect(normal(res.body)).toBe(normal(transcript('a2-list-continue').body));
  });

  test('a curl User-Agent gets the indented body of a0 (no trailing newline)', async () => {
    const res = await get('/api/v1/namespaces/tx/configmaps?limit=5', { 'User-Agent': 'curl/7.88.1', Accept: '*/*' });
    expect(normal(res.body)).toBe(normal(transcript('a0-list-limit5-curl-UA-pretty').body));
    expect(res.headers['transfer-encoding']).toBe('chunked');
  });

  test('pages stay at the first page RV while writes happen; the last page has no continue', async () => {
    const first = JSON.parse((await get('/api/v1/namespaces/tx/configmaps?limit=12')).body.toString());
    api.create('configmaps', 'tx', { metadata: { name: 'cm-99' }, data: { k: 'late' } });
    const second = JSON.parse((await get(`/api/v1/namespaces/tx/configmaps?limit=12&continue=${first.metadata.continue}`)).body.toString());
    const third = JSON.parse((await get(`/api/v1/namespaces/tx/configmaps?limit=12&continue=${second.metadata.continue}`)).body.toString());
    expect([first, second, third].map((p) => p.metadata.resourceVersion)).toEqual(['232', '232', '232']);
    expect(third.metadata).toEqual({ resourceVersion: '232' });
    expect([...first.items, ...second.items, ...third.items].map((i: any) => i.metadata.name)).toHaveLength(30);
    api.delete('configmaps', 'tx', 'cm-99');
  });

  test('resourceVersion=0 ignores the limit; selectors hide remainingItemCount', async () => {
    const rv0 = JSON.parse((await get('/api/v1/namespaces/tx/configmaps?limit=5&resourceVersion=0')).body.toString());
    expect(rv0.items).toHaveLength(30);
    expect(rv0.metadata.continue).toBeUndefined();
    const sel = JSON.parse((await get('/api/v1/namespaces/tx/configmaps?limit=2&fieldSelector=metadata.name!%3Dcm-01')).body.toString());
    expect(sel.items.map((i: any) => i.metadata.name)).toEqual(['cm-02', 'cm-03']);
    expect(sel.metadata.continue).toBeDefined();
    expect(sel.metadata.remainingItemCount).toBeUndefined();
  });
});

describe('invalid parameters (d6–d14)', () => {
  test.each([
    ['d6-list-exact-no-rv', '?resourceVersionMatch=Exact'],
    ['d9-list-notolderthan-no-rv', '?resourceVersionMatch=NotOlderThan'],
    ['d10-list-exact-rv0', '?resourceVersion=0&resourceVersionMatch=Exact'],
    ['d11-list-match-bogus', '?resourceVersion=5&resourceVersionMatch=Bogus'],
    ['d12-watch-with-rvmatch', '?watch=1&resourceVersion=5&resourceVersionMatch=NotOlderThan'],
    ['d7-list-notolderthan-limit-continue', `?resourceVersionMatch=NotOlderThan&limit=5&continue=${encodeContinue(240, 'cm-05')}`],
    ['d8-list-rv5-continue', `?resourceVersion=5&continue=${encodeContinue(240, 'cm-05')}`],
    ['d13-list-garbage-continue', '?limit=5&continue=garbage'],
    ['d14-list-rv-abc', '?resourceVersion=abc'],
    ['d3-list-rv-future-exact', '?resourceVersion=99999999&resourceVersionMatch=Exact'],
    ['d4-list-rv-future-limit', '?resourceVersion=99999999&limit=5'],
  ])('%s', async (name, query) => {
    const want = transcript(name);
    const res = await get(`/api/v1/namespaces/tx/configmaps${query}`);
    expect(res.status).toBe(want.status);
    expect(res.body.toString()).toBe(want.body.toString());
    expect(res.headers['content-length']).toBe(want.headers['content-length']);
  });

  test('a future RV on get and list waits, then 504 with Retry-After like d1/d2', async () => {
    for (const path of ['/api/v1/namespaces/tx/configmaps/cm-01', '/api/v1/namespaces/tx/configmaps']) {
      const res = await get(`${path}?resourceVersion=99999999`);
      expect(res.status).toBe(504);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body.toString()).toBe(transcript('d1-get-rv-future').body.toString().replace('current: 236', `current: ${api.resourceVersion}`));
    }
  });

  test('a get waiting for a future RV returns as soon as the store reaches it', async () => {
    const target = api.resourceVersion + 1;
    api.setTooLargeResourceVersionWait(5000);
    const started = Date.now();
    const pending = get(`/api/v1/namespaces/tx/configmaps/cm-30?resourceVersion=${target}`);
    await until(() => api.requests.some((r) => r.url.endsWith(`cm-30?resourceVersion=${target}`)));
    api.create('configmaps', 'tx', { metadata: { name: 'wake' } });
    expect((await pending).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(4000);
    api.setTooLargeResourceVersionWait(200);
    api.delete('configmaps', 'tx', 'wake');
  });
});

describe('compaction (b0–b2, c2, d15–d17)', () => {
  let token = '';
  test('a continue token below the compaction → 410 exactly like b1; its rv:-1 token → 200 at head', async () => {
    token = JSON.parse((await get('/api/v1/namespaces/tx/configmaps?limit=5')).body.toString()).metadata.continue;
    const tokenRv = decodeContinue(token).rv;
    clock = new Date('2026-11-21T00:46:26Z');
    for (const n of ['01', '02', '03']) api.patchData('configmaps', 'tx', `cm-${n}`, { k: `changed-${n}` });
    api.compact();
    expect(api.compactedResourceVersion).toBeGreaterThan(tokenRv);
    const gone = await get(`/api/v1/namespaces/tx/configmaps?limit=5&continue=${token}`);
    const want = transcript('b1-continue-after-compaction-410');
    expect(gone.status).toBe(410);
    expect(gone.body.toString()).toBe(want.body.toString());
    const retry = JSON.parse(gone.body.toString()).metadata.continue;
    const next = await get(`/api/v1/namespaces/tx/configmaps?limit=5&continue=${retry}`);
    const page = JSON.parse(next.body.toString());
    expect(next.status).toBe(200);
    expect(page.metadata.resourceVersion).toBe(String(api.resourceVersion));
    expect(decodeContinue(page.metadata.continue)).toEqual({ rv: api.resourceVersion, start: 'cm-10\u0000' });
    expect(page.metadata.remainingItemCount).toBe(20);
  });

  test('managedFields after a patch by another manager read like the transcripts', async () => {
    const cm = JSON.parse((await get('/api/v1/namespaces/tx/configmaps/cm-01')).body.toString());
    expect(normal(JSON.stringify(cm.metadata.managedFields))).toBe(
      '[{"manager":"kubectl-create","operation":"Update","apiVersion":"v1","time":"2026-11-21T00:46:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{}}},' +
        '{"manager":"kubectl-patch","operation":"Update","apiVersion":"v1","time":"2026-11-21T00:46:26Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:k":{}}}}]',
    );
  });

  test('Exact or limit at a compacted RV → 410 (d15, d16); plain get/list there → 200 current (d17)', async () => {
    const old = api.compactedResourceVersion - 1;
    for (const [name, q] of [['d15-list-exact-compacted-rv', `resourceVersion=${old}&resourceVersionMatch=Exact`], ['d16-list-limit-compacted-rv', `resourceVersion=${old}&limit=5`]]) {
      const res = await get(`/api/v1/namespaces/tx/configmaps?${q}`);
      expect(res.status).toBe(410);
      expect(res.body.toString()).toBe(transcript(name).body.toString());
    }
    const res = await get(`/api/v1/namespaces/tx/configmaps/cm-01?resourceVersion=${old}`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString()).data.k).toBe('changed-01');
  });

  test('a watch below the window → 200 and one ERROR 410 event, then the end (c2)', async () => {
    const res = await get('/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=1&timeoutSeconds=3');
    expect(res.status).toBe(200);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.body.toString()).toBe(
      transcript('c2-watch-rv1-cache-on').body.toString().replace('(198)', `(${api.compactedResourceVersion})`),
    );
  });
});

describe('etcd compaction inside the watch cache window (c1)', () => {
  test('a watch from below the etcd compaction still replays while the cache holds it; an Exact list there is 410', async () => {
    const from = api.resourceVersion;
    api.patchData('configmaps', 'tx', 'cm-04', { k: 'c1' });
    api.compact(undefined, { watchCache: false });
    expect(api.compactedResourceVersion).toBeGreaterThan(from);
    const { events } = await collectWatch(`${api.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=${from}`, (e) => e.length >= 1);
    expect(events[0]).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'cm-04' }, data: { k: 'c1' } } });
    expect((await get(`/api/v1/namespaces/tx/configmaps?resourceVersion=${from}&resourceVersionMatch=Exact`)).status).toBe(410);
    api.evictWatchCache();
    const gone = await collectWatch(`${api.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=${from}`, (e) => e.length >= 1);
    expect(gone.events[0].object.message).toBe(`too old resource version: ${from} (${api.resourceVersion})`);
  });
});

describe('watch', () => {
  test('JSON: one event per chunk, compact JSON + newline, a zero chunk at timeoutSeconds (i1)', async () => {
    const from = api.resourceVersion;
    const exchange = rawExchange(`${api.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=${from}&timeoutSeconds=1`, PROBE);
    await new Promise((r) => setTimeout(r, 100));
    api.create('configmaps', 'tx', { metadata: { name: 'ev-1' }, data: { a: 'b' } });
    api.delete('configmaps', 'tx', 'ev-1');
    const { head, chunks } = await exchange;
    expect(head).toMatch(/^HTTP\/1.1 200 OK\r\n/);
    expect(head).toContain('Transfer-Encoding: chunked');
    expect(chunks.map((c) => JSON.parse(c.toString()).type)).toEqual(['ADDED', 'DELETED']);
    for (const c of chunks) expect(c.toString()).toMatch(/^\{"type":"[A-Z]+","object":\{"kind":"ConfigMap","apiVersion":"v1","metadata":\{"name":"ev-1".*\}\n$/);
    const deleted = JSON.parse(chunks[1].toString()).object;
    expect(Number(deleted.metadata.resourceVersion)).toBe(from + 2);
  });

  test('RV unset → synthetic ADDED for the current state, then changes', async () => {
    const before = api.requests.length;
    const got = collectWatch(`${api.url}/api/v1/namespaces/tx/configmaps?watch=true`, (e) => e.length >= 31);
    await until(() => api.requests.slice(before).some((r) => r.url.endsWith('?watch=true'))); // logged once subscribed
    api.patchData('configmaps', 'tx', 'cm-30', { k: 'x' });
    const { events } = await got;
    expect(events.slice(0, 30).every((e) => e.type === 'ADDED')).toBe(true);
    expect(events[30]).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'cm-30' }, data: { k: 'x' } } });
  });

  test('label selectors turn a change out of the selection into DELETED', async () => {
    const from = api.resourceVersion;
    api.create('configmaps', 'tx', { metadata: { name: 'sel', labels: { app: 'a' } } });
    api.patch('configmaps', 'tx', 'sel', { metadata: { labels: { app: 'b' } } });
    const { events } = await collectWatch(`${api.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=${from}&labelSelector=app%20in%20(a)`, (e) => e.length >= 2);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    api.delete('configmaps', 'tx', 'sel');
  });

  test('bookmarks at the configured interval carry only the RV (g1); watch-list ends its initial state with initial-events-end', async () => {
    api.setBookmarkInterval(150);
    const b = await collectWatch(`${api.url}/api/v1/namespaces/tx/configmaps?watch=1&allowWatchBookmarks=true&resourceVersion=${api.resourceVersion}`, (e) => e.length >= 1);
    expect(JSON.stringify(b.events[0])).toBe(`{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"${api.resourceVersion}","creationTimestamp":null}}}`);
    api.setBookmarkInterval(60_000);
    const list = await collectWatch(
      `${api.url}/api/v1/namespaces/tx/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
      (e) => e.some((x) => x.type === 'BOOKMARK'),
    );
    expect(list.events.filter((e) => e.type === 'ADDED')).toHaveLength(30);
    expect(list.events.at(-1).object.metadata).toEqual({ resourceVersion: String(api.resourceVersion), creationTimestamp: null, annotations: { 'k8s.io/initial-events-end': 'true' } });
  });

  test('a watch from a future RV stays open and empty until timeoutSeconds (d5)', async () => {
    const started = Date.now();
    const res = await get('/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=99999999&timeoutSeconds=1');
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});

export { api };

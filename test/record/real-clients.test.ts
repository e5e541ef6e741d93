/**
 * Real clients through `record` against the fake apiserver: what they print equals what they print
 * against the upstream directly, and the recording holds the exchanges, frames and object log.
 */
import { readFileSync } from 'node:fs';
import { startFakeApiserver, type FakeApiserver } from '../support/fake-apiserver';
import { record, type RecordServer } from '../../src/record';
import { splitFrames } from '../../src/wire/watch-framer';
import { eventually, kubectl, kubectlWatch, rows, tempDir } from './support';
import { startInformer } from '../support/informer';

const NOW = new Date('2026-11-21T00:00:00Z');

let api: FakeApiserver;
let rec: RecordServer;
const tmp = tempDir();
const db = tmp.path('session.db');
const proxyKubeconfig = tmp.path('proxy.kubeconfig');
const cache = tmp.path('kubectl-cache');

beforeAll(async () => {
  api = await startFakeApiserver({ now: () => NOW });
  api.seedConfigMaps('tx', 5);
  api.seedConfigMaps('inf', 2);
  rec = await record({ db, kubeconfig: api.kubeconfigPath, listen: '127.0.0.1:0', writeKubeconfig: proxyKubeconfig });
});

afterAll(async () => {
  await rec?.close();
  await api?.close();
  tmp.remove();
});

type Exchange = { id: number; method: string; url: string; verb: string; status: number; outcome: string; streamed: number; request_headers: string; response_body: Buffer | null };

const lastExchange = async (pred: (e: Exchange) => boolean): Promise<Exchange> => {
  await rec.flush();
  const all = rows<Exchange>(db, 'SELECT * FROM exchanges ORDER BY id');
  const found = all.filter(pred).at(-1);
  if (!found) throw new Error(`no such exchange among ${all.map((e) => `${e.method} ${e.url}`).join(', ')}`);
  return found;
};

test('kubectl get (server-side Table) prints the same through record; the list page and its rows are recorded', async () => {
  const direct = await kubectl(api.kubeconfigPath, cache, ['get', 'configmaps', '-n', 'tx']);
  const proxied = await kubectl(proxyKubeconfig, cache, ['get', 'configmaps', '-n', 'tx']);
  expect(direct.code).toBe(0);
  expect(proxied).toEqual(direct);
  expect(proxied.stdout).toMatch(/^cm-05\s+1\s+0s$/m);

  const list = await lastExchange((e) => e.verb === 'list' && e.url.startsWith('/api/v1/namespaces/tx/configmaps'));
  expect(list.status).toBe(200);
  expect(list.outcome).toBe('complete');
  const [page] = rows<any>(db, 'SELECT * FROM lists WHERE exchange_id = ?', list.id);
  expect(page).toMatchObject({ kind: 'Table', namespace: 'tx', resource: 'configmaps', api_version: 'v1', items: 5, request_limit: 500, encoding: 'json' });
  expect(JSON.parse(page.columns).map((c: { name: string }) => c.name)).toEqual(['Name', 'Data', 'Age']);
  const observed = rows<any>(db, 'SELECT name, form, source, rv FROM observations WHERE exchange_id = ? ORDER BY seq', list.id);
  expect(observed.map((o) => [o.name, o.form, o.source])).toEqual(['cm-01', 'cm-02', 'cm-03', 'cm-04', 'cm-05'].map((n) => [n, 'table-row', 'list']));
  expect(observed.map((o) => o.rv)).toEqual(api.list('configmaps', 'tx').map((o) => o.metadata.resourceVersion));
  // discovery went through too
  expect(rows<any>(db, "SELECT count(*) AS n FROM exchanges WHERE verb = 'discovery'")[0].n).toBeGreaterThan(0);
});

test('kubectl get -o json and --chunk-size=2: same output; pages chained by continue in `lists`, objects in `observations`', async () => {
  const direct = await kubectl(api.kubeconfigPath, cache, ['get', 'configmaps', '-n', 'tx', '-o', 'json']);
  const proxied = await kubectl(proxyKubeconfig, cache, ['get', 'configmaps', '-n', 'tx', '-o', 'json']);
  expect(direct.code).toBe(0);
  expect(proxied).toEqual(direct);
  const whole = await lastExchange((e) => e.verb === 'list' && e.url.startsWith('/api/v1/namespaces/tx/configmaps'));
  const stored = rows<any>(db, 'SELECT raw FROM observations WHERE exchange_id = ? ORDER BY seq', whole.id).map((o) => JSON.parse(o.raw.toString()));
  expect(stored.every((o) => o.metadata.managedFields.length > 0)).toBe(true); // whole objects; kubectl hides managedFields
  for (const o of stored) delete o.metadata.managedFields;
  expect(stored).toEqual(JSON.parse(proxied.stdout).items);

  const pagedDirect = await kubectl(api.kubeconfigPath, cache, ['get', 'configmaps', '-n', 'tx', '--chunk-size=2', '-o', 'name']);
  const paged = await kubectl(proxyKubeconfig, cache, ['get', 'configmaps', '-n', 'tx', '--chunk-size=2', '-o', 'name']);
  expect(pagedDirect.code).toBe(0);
  expect(paged).toEqual(pagedDirect);
  await rec.flush();
  const pages = rows<any>(db, "SELECT * FROM lists WHERE namespace = 'tx' AND request_limit = 2 ORDER BY exchange_id").slice(-3);
  expect(pages.map((p) => p.items)).toEqual([2, 2, 1]);
  expect(pages.map((p) => p.remaining)).toEqual([3, 1, null]);
  expect(pages[0].request_continue).toBeNull();
  expect(pages[1].request_continue).toBe(pages[0].continue);
  expect(pages[2].request_continue).toBe(pages[1].continue);
  expect(pages[2].continue).toBeNull();
  expect(new Set(pages.map((p) => p.rv)).size).toBe(1);
});

test('kubectl get -w: events reach both watchers alike; the watch is recorded frame per event; killing kubectl ends the upstream watch', async () => {
  let ready = 0;
  const changes = async () => {
    if (++ready < 2) return;
    await eventually(() => api.requests.filter((r) => r.url.includes('/namespaces/tx/configmaps?') && r.url.includes('watch=true')).length >= 2);
    api.create('configmaps', 'tx', { metadata: { name: 'watched' }, data: { a: '1' } });
    api.patchData('configmaps', 'tx', 'watched', { b: '2' });
  };
  const args = ['get', 'configmaps', '-n', 'tx', '-w'];
  const [direct, proxied] = await Promise.all([
    kubectlWatch(api.kubeconfigPath, cache, args, { ready: 6, lines: 8, during: changes }),
    kubectlWatch(proxyKubeconfig, cache, args, { ready: 6, lines: 8, during: changes }),
  ]);
  expect(proxied).toBe(direct);
  expect(proxied.split('\n').slice(6, 8).map((l) => l.split(/\s+/).slice(0, 2))).toEqual([['watched', '1'], ['watched', '2']]);

  // kubectl was killed: the proxy aborted its upstream watch (none left open at the fake)
  expect(await eventually(() => api.endWatches() === 0)).toBe(true);
  const watch = await lastExchange((e) => e.verb === 'watch' && e.url.includes('/namespaces/tx/'));
  expect(await eventually(async () => (await lastExchange((e) => e.id === watch.id)).outcome === 'aborted')).toBe(true);
  const [w] = rows<any>(db, 'SELECT * FROM watches WHERE exchange_id = ?', watch.id);
  const created = api.get('configmaps', 'tx', 'watched')!;
  expect(w).toMatchObject({ resource: 'configmaps', namespace: 'tx', events: 2, last_rv: created.metadata.resourceVersion, ended: 'aborted', encoding: 'json' });
  expect(w.start_rv).toBe(new URL(watch.url, 'http://x').searchParams.get('resourceVersion'));
  const frames = rows<any>(db, 'SELECT seq, offset_ms, data FROM frames WHERE exchange_id = ? ORDER BY seq', watch.id);
  const events = frames.flatMap((f) => splitFrames(f.data, false).map((data) => ({ offset: f.offset_ms as number, data: data.toString() })));
  expect(events).toHaveLength(2);
  expect(events.every((e) => e.data.endsWith('}\n'))).toBe(true);
  expect(events[1]!.offset).toBeGreaterThanOrEqual(events[0]!.offset);
  const observed = rows<any>(db, 'SELECT event, form, name, rv FROM observations WHERE exchange_id = ? ORDER BY id', watch.id);
  expect(observed.map((e) => [e.event, e.form, e.name])).toEqual([['ADDED', 'table-row', 'watched'], ['MODIFIED', 'table-row', 'watched']]);
});

test('a client-node informer through record sees what one against the upstream sees; list and watch are recorded', async () => {
  const direct = await startInformer(api.kubeconfigPath, 'inf', { cacheData: false });
  const proxied = await startInformer(proxyKubeconfig, 'inf', { cacheData: false });
  try {
    expect(await eventually(() => proxied.events.length >= 2 && direct.events.length >= 2)).toBe(true);
    await eventually(() => api.requests.filter((r) => r.url.includes('/namespaces/inf/configmaps?') && r.url.includes('watch=true')).length >= 2);
    api.create('configmaps', 'inf', { metadata: { name: 'live' }, data: { x: '1' } });
    api.patchData('configmaps', 'inf', 'live', { x: '2' });
    api.delete('configmaps', 'inf', 'cm-01');
    expect(await eventually(() => proxied.events.length >= 5 && direct.events.length >= 5)).toBe(true);
    expect(proxied.events).toEqual(direct.events);
    expect(proxied.cache()).toEqual(direct.cache());
  } finally {
    await proxied.stop();
    await direct.stop();
  }
  await rec.flush();
  const watched = rows<any>(db, `SELECT o.event, o.name, o.rv FROM observations o JOIN exchanges e ON e.id = o.exchange_id
    WHERE e.verb = 'watch' AND e.namespace = 'inf' ORDER BY o.id`);
  expect(watched.map((o) => `${o.event} ${o.name}`)).toEqual(['ADDED live', 'MODIFIED live', 'DELETED cm-01']);
  const listed = rows<any>(db, `SELECT o.name FROM observations o JOIN exchanges e ON e.id = o.exchange_id
    WHERE e.verb = 'list' AND e.namespace = 'inf' AND o.source = 'list' ORDER BY o.id`);
  expect(listed.map((o) => o.name)).toEqual(['cm-01', 'cm-02']);
});

test('request credentials are never written', async () => {
  const res = await fetch(`${rec.url}/api/v1/namespaces/tx/configmaps/cm-01`, { headers: { Authorization: 'Bearer client-token-77c1', Cookie: 'session=abc123' } });
  expect(res.status).toBe(200);
  // kubeconfig mode: the client's Authorization is replaced by the kubeconfig's credentials (here: none)
  expect(api.requests.at(-1)!.headers.authorization).toBeUndefined();
  const get = await lastExchange((e) => e.verb === 'get' && e.url === '/api/v1/namespaces/tx/configmaps/cm-01');
  const headers = new Map((JSON.parse(get.request_headers) as Array<[string, string]>).map(([k, v]) => [k.toLowerCase(), v]));
  expect(headers.get('authorization')).toBe('[redacted]');
  expect(headers.get('cookie')).toBe('[redacted]');
  const [obs] = rows<any>(db, 'SELECT source, name, kind FROM observations WHERE exchange_id = ?', get.id);
  expect(obs).toEqual({ source: 'get', name: 'cm-01', kind: 'ConfigMap' });
  for (const file of [db, `${db}-wal`]) {
    const bytes = readFileSync(file);
    for (const secret of ['client-token-77c1', 'abc123']) expect(bytes.includes(secret)).toBe(false);
  }
});

test('kubetape\'s own status is at /_kubetape/status; /healthz goes to the upstream like any API path', async () => {
  const status = (await (await fetch(`${rec.url}/_kubetape/status`)).json()) as any;
  expect(status).toMatchObject({ mode: 'record', url: rec.url, db });
  expect(status.upstream).toContain(api.url);
  expect(status.recording.exchanges).toBeGreaterThan(10);
  const before = api.requests.length;
  const health = await fetch(`${rec.url}/healthz`);
  expect(health.status).toBe(200);
  expect(api.requests.slice(before).map((r) => r.url)).toEqual(['/healthz']);
});

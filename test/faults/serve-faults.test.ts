/**
 * Faults in serve mode, with real clients, over a session recorded through `kubetape record`
 * from the fake apiserver: stale reads, compaction on demand, broken watches, throttling.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { record } from '../../src/record';
import { serve, type ServeServer } from '../../src/serve';
import { CONTINUE_EXPIRED_MESSAGE } from '../../src/k8s/status';
import { startFakeApiserver } from '../support/fake-apiserver';
import { eventually, kubectl, rawGet, sleep, startInformer } from './clients';

let dir: string;
let db: string;
/** The resourceVersion of the informer's first list while recording, and the final state. */
let firstListRv: number;
let finalCache: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kubetape-faults-serve-'));
  db = join(dir, 'session.db');
  const fake = await startFakeApiserver();
  fake.seedConfigMaps('default', 5);
  const kubeconfig = join(dir, 'record.kubeconfig');
  const rec = await record({ db, upstream: fake.url, listen: '127.0.0.1:0', writeKubeconfig: kubeconfig });
  try {
    const informer = await startInformer(kubeconfig, 'default');
    expect(await eventually(() => informer.events.length >= 6)).toBe(true);
    firstListRv = Number(informer.events[0]!.split(' ')[1]);
    // Six changes after the first list: w-1 appears, then cm-01 … cm-05 change, one revision each.
    fake.create('configmaps', 'default', { metadata: { name: 'w-1' }, data: { k: '1' } });
    for (let i = 1; i <= 5; i++) {
      await sleep(20);
      fake.patchData('configmaps', 'default', `cm-0${i}`, { k: 'changed' });
    }
    expect(await eventually(() => informer.events.length >= 12)).toBe(true);
    await sleep(100);
    finalCache = informer.cache();
    await informer.stop();
  } finally {
    await rec.close();
    await fake.close();
  }
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serve with faults', () => {
  let api: ServeServer;
  let kubeconfig: string;
  let run = 0;
  const cacheDir = () => join(dir, `cache-${++run}`);

  beforeEach(async () => {
    kubeconfig = join(dir, `serve-${++run}.kubeconfig`);
    api = await serve({ db, writeKubeconfig: kubeconfig });
  });
  afterEach(() => api.close());

  it('serves the recorded end state without faults', async () => {
    const informer = await startInformer(kubeconfig, 'default');
    try {
      expect(await eventually(() => JSON.stringify(informer.cache()) === JSON.stringify(finalCache))).toBe(true);
    } finally {
      await informer.stop();
    }
  });

  it('stale-read: an informer listing with resourceVersion=0 sees the older state first, then the fresh one arrives by watch', async () => {
    const head = Number(api.status().headResourceVersion);
    api.faults.add({ name: 'stale-cache', match: { verb: 'list', resource: 'configmaps', query: { resourceVersion: '0' } }, action: { type: 'stale-read', revisions: 2 }, times: 1 });
    const informer = await startInformer(kubeconfig, 'default', { listResourceVersion: '0' });
    try {
      expect(await eventually(() => JSON.stringify(informer.cache()) === JSON.stringify(finalCache))).toBe(true);
    } finally {
      await informer.stop();
    }
    // The first list came from two revisions back: cm-04 and cm-05 had not changed yet …
    expect(informer.events[0]).toBe(`list ${head - 2}`);
    const addedCm05 = informer.events.find((e) => e.startsWith('add cm-05 '))!;
    expect(Number(addedCm05.split(' ')[2])).toBeLessThan(head - 1);
    // … then the watch from that revision brought the two changes.
    const updates = informer.events.filter((e) => e.startsWith('update'));
    expect(updates.map((e) => e.split(' ')[1])).toEqual(['cm-04', 'cm-05']);
    expect(updates.map((e) => Number(e.split(' ')[2]))).toEqual([head - 1, head]);
    expect(api.faults.journal().map((e) => e.effect)).toEqual(['reading 2 revisions behind head']);
  });

  it('stale-read by time (ms): a view as old as the store’s history allows', async () => {
    api.faults.add({ name: 'lag', match: { verb: 'get' }, action: { type: 'stale-read', ms: 60_000 } });
    const fresh = await rawGet(api.url, '/api/v1/namespaces/default/configmaps/cm-01');
    const stale = await rawGet(api.url, '/api/v1/namespaces/default/configmaps/cm-01?resourceVersion=0');
    expect(JSON.parse(fresh.body.toString()).data).toEqual({ k: 'changed' });
    // Everything was applied just now: a minute ago is before the store's history, so the floor's state.
    expect(JSON.parse(stale.body.toString()).data).toEqual({ k: 'v01' });
  });

  it('watch-gone: an informer gets ERROR 410 mid-watch, relists and converges', async () => {
    api.faults.add({ name: 'break-watch', match: { verb: 'watch', resource: 'configmaps' }, action: { type: 'watch-gone', afterMs: 200 }, times: 1 });
    const informer = await startInformer(kubeconfig, 'default');
    try {
      expect(await eventually(() => informer.events.filter((e) => e.startsWith('list')).length >= 2)).toBe(true);
      expect(await eventually(() => JSON.stringify(informer.cache()) === JSON.stringify(finalCache))).toBe(true);
    } finally {
      await informer.stop();
    }
    expect(api.faults.journal().map((e) => e.effect)).toEqual([
      'armed watch-gone after 200 ms',
      `watch ended with ERROR 410 "too old resource version: ${api.status().headResourceVersion} (${Number(api.status().headResourceVersion) + 1})" after 200 ms`,
    ]);
  });

  it('compact: a watch from an old resourceVersion then gets the apiserver’s ERROR 410', async () => {
    const url = `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${firstListRv}&timeoutSeconds=1`;
    const before = await rawGet(api.url, url);
    expect(before.body.toString()).toContain('"type":"ADDED"'); // history is there: w-1 and the patches
    api.faults.add({ name: 'squash', match: { verb: 'watch' }, action: { type: 'compact' }, times: 1 });
    const after = await rawGet(api.url, url);
    const head = api.status().headResourceVersion;
    expect(api.status().floor).toBe(head);
    expect(after.status).toBe(200);
    expect(after.body.toString()).toBe(
      `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: ${firstListRv} (${head})","reason":"Expired","code":410}}\n`,
    );
  });

  it('expire-continue: kubectl --chunk-size=2 prints the apiserver’s 410 message', async () => {
    api.faults.add({ name: 'expire-second-page', match: { verb: 'list', query: { continue: 'present' } }, action: { type: 'expire-continue' }, times: 1 });
    const res = await kubectl(kubeconfig, cacheDir(), ['get', 'configmaps', '--chunk-size=2']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`Error from server (Expired): ${CONTINUE_EXPIRED_MESSAGE}\n`);
  });

  it('429 with Retry-After: 1 once: kubectl retries and succeeds', async () => {
    api.faults.add({ name: 'throttle-once', match: { verb: 'get', name: 'cm-04' }, action: { type: 'status', code: 429, retryAfterSeconds: 1 }, times: 1 });
    const res = await kubectl(kubeconfig, cacheDir(), ['get', 'configmap', 'cm-04', '-o', 'jsonpath={.data.k}']);
    expect(res).toMatchObject({ code: 0, stdout: 'changed' });
    expect(res.ms).toBeGreaterThan(1000);
  });
});

describe('the example rules files, in serve', () => {
  const example = (name: string) => join(__dirname, '..', '..', 'examples', 'faults', name);
  let api: ServeServer;
  let kubeconfig: string;

  afterEach(() => api.close());

  it('stale-cache-after-restart.yaml: the informer relists after the "restart" and goes back in time, then forward again', async () => {
    kubeconfig = join(dir, 'restart.kubeconfig');
    api = await serve({ db, writeKubeconfig: kubeconfig, faults: example('stale-cache-after-restart.yaml') });
    const head = Number(api.status().headResourceVersion);
    const informer = await startInformer(kubeconfig, 'default', { listResourceVersion: '0' });
    try {
      expect(await eventually(() => informer.events.filter((e) => e.startsWith('list')).length >= 2, 5000)).toBe(true);
      expect(await eventually(() => JSON.stringify(informer.cache()) === JSON.stringify(finalCache))).toBe(true);
    } finally {
      await informer.stop();
    }
    const lists = informer.events.filter((e) => e.startsWith('list'));
    expect(lists).toEqual([`list ${head}`, `list ${head - 5}`]);
    const afterRelist = informer.events.slice(informer.events.indexOf(`list ${head - 5}`) + 1);
    // Back in time: the stale list turns cm-01 … cm-05 into their older revisions …
    const back = afterRelist.filter((e) => e.startsWith('update')).slice(0, 5);
    expect(back.map((e) => e.split(' ')[1])).toEqual(['cm-01', 'cm-02', 'cm-03', 'cm-04', 'cm-05']);
    expect(back.every((e) => Number(e.split(' ')[2]) < head - 5)).toBe(true);
    // … then the watch from head - 5 brings each forward again.
    const forward = afterRelist.filter((e) => e.startsWith('update')).slice(5);
    expect(forward.map((e) => Number(e.split(' ')[2]))).toEqual([head - 4, head - 3, head - 2, head - 1, head]);
    expect(api.faults.journal().map((e) => `${e.rule}: ${e.effect}`)).toEqual([
      'apiserver-restart: armed watch-gone after 1000 ms',
      `apiserver-restart: watch ended with ERROR 410 "too old resource version: ${head} (${head + 1})" after 1000 ms`,
      'lagging-cache: reading 5 revisions behind head',
    ]);
  });

  it('watch-410-storm.yaml: every watch breaks, the informer relists again and again and still holds the right state', async () => {
    kubeconfig = join(dir, 'storm.kubeconfig');
    api = await serve({ db, writeKubeconfig: kubeconfig, faults: example('watch-410-storm.yaml') });
    const informer = await startInformer(kubeconfig, 'default');
    try {
      expect(await eventually(() => informer.events.filter((e) => e.startsWith('list')).length >= 3, 5000)).toBe(true);
      expect(JSON.stringify(informer.cache())).toBe(JSON.stringify(finalCache));
    } finally {
      await informer.stop();
    }
    expect(api.faults.list()[0]!.applied).toBeGreaterThanOrEqual(2); // each relist after the first follows a broken watch
  });
});
